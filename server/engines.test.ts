import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The README promises Node 20.19+ (or 22.12+): no installed package may declare a Node it does not run on,
 * or `npm ci` warns (EBADENGINE) and a newcomer reads that their Node is too old. cookie 2 and
 * content-disposition 3 declare Node >= 22; package.json pins cookie 1.x and content-disposition 2.x, which
 * declare >= 18 and have the same API. docx 9.15 asks for nanoid 6 (Node >= 22) but bundles its own copy in
 * its dist and never imports the package: package.json overrides it with nanoid 5 (Node >= 18).
 */

type Version = [number, number, number];

const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v
    .replace(/^[v=]/, '')
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  return [a, b, c];
};
const compare = (x: Version, y: Version) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2];

/** One comparator of an `engines` range (">=18", "^20.19.0", "~4.1", "20.x", "*"). */
function satisfiesOne(version: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*v?([\dx*]+(?:\.[\dx*]+)*)$/.exec(comparator);
  if (!m) throw new Error(`Cannot read the engines comparator "${comparator}"`);
  const [, op = '', raw] = m;
  const parts = raw.split('.');
  const wildcard = parts.findIndex((p) => p === 'x' || p === '*');
  const bound = parse(raw.replace(/[x*]/g, '0'));
  const c = compare(version, bound);
  if (op === '>=') return c >= 0;
  if (op === '>') return c > 0;
  if (op === '<=') return c <= 0;
  if (op === '<') return c < 0;
  if (op === '^') {
    const upper: Version = bound[0] > 0 ? [bound[0] + 1, 0, 0] : [0, bound[1] + 1, 0];
    return c >= 0 && compare(version, upper) < 0;
  }
  // "~1.2.3" and a bare "20" or "20.x" fix what they name and let the rest move.
  const fixed = op === '~' ? Math.min(parts.length, 2) : wildcard === -1 ? parts.length : wildcard;
  if (raw === '*' || fixed === 0) return true;
  return c >= 0 && version.slice(0, fixed).every((n, i) => n === bound[i]);
}

function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alternative) => {
    const hyphen = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(alternative);
    if (hyphen) return compare(v, parse(hyphen[1])) >= 0 && compare(v, parse(hyphen[2])) <= 0;
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return comparators.length === 0 || comparators.every((c) => satisfiesOne(v, c));
  });
}

describe('Node versions', () => {
  it('reads engines ranges', () => {
    expect(satisfies('20.19.0', '>=18')).toBe(true);
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('20.19.0', '^18.0.0 || >=20')).toBe(true);
    expect(satisfies('20.19.0', '^20.19.0 || ^22.12.0 || >=23')).toBe(true);
    expect(satisfies('20.18.3', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '>= 10.13.0')).toBe(true);
    expect(satisfies('20.19.0', '20.x')).toBe(true);
    expect(satisfies('20.19.0', '*')).toBe(true);
    expect(satisfies('20.19.0', '>=14 <21')).toBe(true);
    expect(satisfies('20.19.0', '~20.19.0')).toBe(true);
    expect(satisfies('20.20.0', '~20.19.0')).toBe(false);
    expect(satisfies('20.19.0', '~20')).toBe(true);
  });

  it('every package in the lock file runs on the Node versions the README names', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
    expect(satisfies('20.19.0', pkg.engines.node)).toBe(true);
    expect(satisfies('22.12.0', pkg.engines.node)).toBe(true);
    const tooNew: string[] = [];
    for (const [path, entry] of Object.entries(
      lock.packages as Record<string, { version?: string; engines?: unknown }>,
    )) {
      const range = (entry.engines as { node?: string } | undefined)?.node;
      if (!path || typeof range !== 'string') continue;
      for (const node of ['20.19.0', '22.12.0']) {
        if (!satisfies(node, range)) tooNew.push(`${path}@${entry.version}: node ${range} (not ${node})`);
      }
    }
    expect(tooNew).toEqual([]);
  });
});
