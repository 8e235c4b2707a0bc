/**
 * Worker thread running harper.js. The linter (about 0.5 GB) is loaded on the first task; the pool ends
 * this worker when it has been idle for a while, which releases it.
 */
import type { LocalLinter } from 'harper.js';
import type { RawIssue } from './grammar.ts';
import { serveWorker } from './pool.ts';

let linter: Promise<LocalLinter> | null = null;

async function load(): Promise<LocalLinter> {
  const [{ LocalLinter }, { binary }] = await Promise.all([import('harper.js'), import('harper.js/binary')]);
  const l = new LocalLinter({ binary });
  await l.setup();
  return l;
}

serveWorker({
  async lint(payload: { text: string }) {
    linter ??= load();
    const l = await linter;
    const organized = await l.organizedLints(payload.text, { language: 'plaintext' });
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
