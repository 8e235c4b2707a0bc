import { writeFileSync } from 'node:fs';
import { LocalLinter } from 'harper.js';
import { binary } from 'harper.js/binary';
import { loadBrown } from './corpus.ts';
const docs = loadBrown();
const texts = Array.from({ length: 6 }, (_, i) => docs.slice(i * 7 + 300, i * 7 + 302).map((d) => d.paragraphs.join('\n\n')).join('\n\n'));
const linter = new LocalLinter({ binary });
await linter.setup();
const cfg = await linter.getLintConfig();
const rules = Object.keys(cfg);
const off = Object.fromEntries(rules.map((k) => [k, false]));
const time = async (c: Record<string, boolean>, text: string) => {
  await linter.setLintConfig(c);
  const c0 = process.cpuUsage();
  await linter.lint(text, { language: 'plaintext' });
  const u = process.cpuUsage(c0);
  return (u.user + u.system) / 1000;
};
// warm up
for (const t of texts) await time(cfg as Record<string, boolean>, t);
const base: number[] = [];
for (const t of texts) base.push(await time(off, t));
console.log('baseline', base.map(Math.round), 'words', texts[0].split(/\s+/).length);
const cost: [string, number][] = [];
for (const [i, r] of rules.entries()) {
  const ti = i % texts.length;
  const ms = (await time({ ...off, [r]: true }, texts[ti])) - base[ti];
  cost.push([r, ms]);
}
cost.sort((a, b) => b[1] - a[1]);
writeFileSync('/tmp/sx/rulecost.json', JSON.stringify(cost));
console.log('total', Math.round(cost.reduce((a, b) => a + b[1], 0)), 'top', cost.slice(0, 40).map(([r, m]) => `${r}:${Math.round(m)}`).join(' '));
const over = (x: number) => cost.filter(([, m]) => m > x);
for (const x of [2, 5, 10, 20, 50]) console.log('>', x, 'ms:', over(x).length, 'rules, sum', Math.round(over(x).reduce((a, b) => a + b[1], 0)));
