/**
 * Worker running harper.js (a child process: see the pool's `isolation`). The linter (about 0.4 GB) is
 * loaded on the first task; the pool ends this worker when it has been idle for a while, which releases it.
 */
import type { LocalLinter } from 'harper.js';
import type { RawIssue } from './grammar.ts';
import { serveWorker } from './pool.ts';

let linter: Promise<LocalLinter> | null = null;
let configured: string | null = null;

/** `all`, or the names of the rules to run (unknown names are ignored). */
async function configure(l: LocalLinter, rules: 'all' | string[]) {
  const key = rules === 'all' ? 'all' : rules.join(',');
  if (configured === key) return;
  const defaults = await l.getDefaultLintConfig();
  if (rules !== 'all') {
    const keep = new Set(rules);
    for (const name of Object.keys(defaults)) defaults[name] = keep.has(name);
  }
  await l.setLintConfig(defaults);
  configured = key;
}

async function load(): Promise<LocalLinter> {
  const [{ LocalLinter }, { binary }] = await Promise.all([import('harper.js'), import('harper.js/binary')]);
  const l = new LocalLinter({ binary });
  await l.setup();
  return l;
}

serveWorker({
  async lint(payload: { text: string; rules?: 'all' | string[] }) {
    linter ??= load();
    const l = await linter;
    await configure(l, payload.rules ?? 'all');
    let organized: Record<string, import('harper.js').Lint[]>;
    try {
      organized = await l.organizedLints(payload.text, { language: 'plaintext' });
    } catch (err) {
      // A panic inside the WebAssembly module leaves it unusable: end this worker once the error has been
      // sent back; the pool starts a fresh one for the next task.
      setTimeout(() => process.exit(1), 50);
      throw err;
    }
    const issues: RawIssue[] = [];
    for (const [rule, lints] of Object.entries(organized)) {
      for (const lint of lints) {
        const span = lint.span();
        issues.push({
          start: span.start,
          end: span.end,
          kind: lint.lint_kind(),
          rule,
          message: lint.message(),
          text: lint.get_problem_text(),
          suggestions: lint
            .suggestions()
            .slice(0, 5)
            .map((s) => s.get_replacement_text()),
        });
        lint.free();
      }
    }
    return { result: issues };
  },
});
