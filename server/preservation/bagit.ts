import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { humanSize } from '../../common/preservation.ts';
import { readZipDirectory, readZipEntry, zip } from '../content/zip.ts';

export { humanSize };

/**
 * BagIt (RFC 8493) for the archive package of an issue (decision 0065): a bag is its files by their paths
 * inside the bag's folder (`bagit.txt`, `data/…`), made here from a payload and read back from a folder or a
 * ZIP for the checker (check.ts).
 */
export type Bag = Map<string, Buffer>;

export const BAGIT_TXT = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n';
export const ALGORITHMS = ['sha256', 'sha512'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export const digest = (algorithm: Algorithm, data: Uint8Array) =>
  createHash(algorithm).update(data).digest('hex');

/** A file path as a manifest writes it: `%`, CR and LF percent-encoded (RFC 8493 §2.1.3). */
export const encodeManifestPath = (p: string) =>
  p.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** …and read back: only those three are decoded. */
export const decodeManifestPath = (p: string) =>
  p.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%');

/** A payload path must stay inside `data/`: relative, no empty, `.` or `..` segment, no backslash or NUL. */
export function payloadPathProblem(p: string): string | null {
  if (!p || p.startsWith('/') || p.includes('\\') || p.includes('\0'))
    return `"${p}" is not a relative path.`;
  if (p.split('/').some((s) => s === '' || s === '.' || s === '..'))
    return `"${p}" has an empty, . or .. part.`;
  return null;
}

function manifest(algorithm: Algorithm, files: [string, Buffer][]): Buffer {
  const lines = files.map(([name, data]) => `${digest(algorithm, data)}  ${encodeManifestPath(name)}\n`);
  return Buffer.from(lines.join(''), 'utf8');
}

/** One `Label: value` line per entry (values on one line: line breaks in a value become spaces). */
function tagLines(info: [string, string][]): string {
  return info.map(([label, value]) => `${label}: ${value.replace(/\s*[\r\n]+\s*/g, ' ')}\n`).join('');
}

/**
 * Makes a bag of `payload` (paths under `data/`, given without it), with `info` first in bag-info.txt and the
 * computed Bagging-Date, Payload-Oxum and Bag-Size after it; manifests in SHA-256 and SHA-512 and a
 * tag manifest in both.
 */
export function makeBag(
  payload: { path: string; data: Buffer }[],
  info: [string, string][],
  baggedAt: Date,
): Bag {
  const seen = new Set<string>();
  const files: [string, Buffer][] = [];
  for (const f of payload) {
    const problem = payloadPathProblem(f.path);
    if (problem) throw new Error(`makeBag: ${problem}`);
    if (seen.has(f.path)) throw new Error(`makeBag: "${f.path}" is in the payload twice.`);
    seen.add(f.path);
    files.push([`data/${f.path}`, f.data]);
  }
  const octets = files.reduce((n, [, d]) => n + d.length, 0);
  const bag: Bag = new Map();
  bag.set('bagit.txt', Buffer.from(BAGIT_TXT, 'utf8'));
  bag.set(
    'bag-info.txt',
    Buffer.from(
      tagLines([
        ...info,
        ['Bagging-Date', baggedAt.toISOString().slice(0, 10)],
        ['Payload-Oxum', `${octets}.${files.length}`],
        ['Bag-Size', humanSize(octets)],
      ]),
      'utf8',
    ),
  );
  for (const a of ALGORITHMS) bag.set(`manifest-${a}.txt`, manifest(a, files));
  const tags = [...bag.entries()];
  for (const a of ALGORITHMS) bag.set(`tagmanifest-${a}.txt`, manifest(a, tags));
  for (const [name, data] of files) bag.set(name, data);
  return bag;
}

/** The bag as a ZIP, its files in one folder `root/` (what an archive's ingest unpacks). */
export function zipBag(bag: Bag, root: string, modified: Date): Buffer {
  return zip(
    [...bag.entries()].map(([name, data]) => ({ name: `${root}/${name}`, data })),
    modified,
  );
}

/** The most a bag's ZIP entry may inflate to when it is read back (an issue's PDFs are far smaller). */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;

/** A bag's ZIP read back: its files by their paths under its one top folder. */
export function unzipBag(data: Buffer): { root: string; bag: Bag } {
  const { entries } = readZipDirectory(data);
  const files = entries.filter((e) => !e.name.endsWith('/'));
  const roots = new Set(files.map((e) => e.name.split('/')[0]));
  if (roots.size !== 1 || files.some((e) => !e.name.includes('/')))
    throw new Error('The ZIP does not hold one bag folder.');
  const [root] = roots;
  const bag: Bag = new Map();
  for (const e of files) bag.set(e.name.slice(root.length + 1), readZipEntry(data, e, MAX_ENTRY_BYTES));
  return { root, bag };
}

/** Writes the bag as a folder `dir` (made if missing). */
export async function writeBagFolder(dir: string, bag: Bag): Promise<void> {
  for (const [name, data] of bag) {
    const target = path.join(dir, ...name.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data);
  }
}

/** A bag folder read back: every file under it by its path with `/`. */
export async function readBagFolder(dir: string): Promise<Bag> {
  const bag: Bag = new Map();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    bag.set(path.relative(dir, full).split(path.sep).join('/'), await readFile(full));
  }
  return bag;
}
