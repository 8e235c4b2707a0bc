import { LocalLinter } from 'harper.js';
import { binary } from 'harper.js/binary';
import { COUNTED_KINDS } from '../../server/similarity/grammar.ts';
import { loadBrown } from './corpus.ts';
const docs = loadBrown();
const sample = docs.filter((_, i) => i % 10 === 0).map((d) => d.paragraphs.join('\n\n')).join('\n\n');
const texts = [3, 53, 103].map((i) => docs.slice(i, i + 4).map((d) => d.paragraphs.join('\n\n')).join('\n\n'));
const linter = new LocalLinter({ binary });
await linter.setup();
const cfg = await linter.getLintConfig();
const org = await linter.organizedLints(sample, { language: 'plaintext' });
const kinds = new Map<string, Set<string>>();
for (const [rule, lints] of Object.entries(org)) for (const l of lints) (kinds.get(rule) ?? kinds.set(rule, new Set()).get(rule)!).add(l.lint_kind());
console.log('rules firing', kinds.size, [...kinds].map(([r, k]) => `${r}:${[...k].join('/')}`).join(' '));
const counted = [...kinds].filter(([, k]) => [...k].some((x) => COUNTED_KINDS.has(x))).map(([r]) => r);
const notCounted = [...kinds].filter(([, k]) => [...k].every((x) => !COUNTED_KINDS.has(x))).map(([r]) => r);
const variants: [string, Record<string, boolean>][] = [
  ['all', cfg as Record<string, boolean>],
  ['all minus seen-not-counted', { ...(cfg as Record<string, boolean>), ...Object.fromEntries(notCounted.map((r) => [r, false])) }],
  ['only seen-counted', Object.fromEntries(Object.keys(cfg).map((k) => [k, counted.includes(k)]))],
  ['only SpellCheck', Object.fromEntries(Object.keys(cfg).map((k) => [k, k === 'SpellCheck']))],
];
for (const [name, c] of variants) {
  await linter.setLintConfig(c);
  for (const text of texts) {
    const c0 = process.cpuUsage();
    const l = await linter.lint(text, { language: 'plaintext' });
    const u = process.cpuUsage(c0);
    console.log(name, 'cpu', Math.round((u.user + u.system) / 1000), l.length);
  }
}
