import path from 'node:path';
import { withJournal } from '../../db/scope.ts';
import { isDomainError } from '../../errors.ts';
import { describeFsError, fsErrorCode } from '../../storage.ts';
import type { Services } from '../../services.ts';
import { humanSize } from '../../../common/preservation.ts';

export const EXPORT_USAGE = `  export ojs --journal PATH|DOMAIN|ID --out DIR [--files embed|href] [--users] [--jats]
                         Write the journal as OJS 3.4 Native XML to DIR/issues.xml (its files embedded in it,
                         or with --files href written to DIR/files/ and named by the XML), with --users its
                         accounts as OJS Users XML to DIR/users.xml, and with --jats a folder of JATS
                         (DIR/jats/: article.xml, PDF and figures per article, manifest.json). Each file is
                         written whole or not at all (decision 0068).`;

interface Io {
  log: (line: string) => void;
  error: (line: string) => void;
}

/** `npm run cli -- export ojs …` (decision 0068): the journal's export, in its scope. Returns the exit code. */
export async function exportCommand(args: string[], services: Services, io: Io): Promise<number> {
  const usage = (why: string) => {
    io.error(`${why}\n\nUsage: npm run cli --\n${EXPORT_USAGE}`);
    return 2;
  };
  const [what, ...rest] = args;
  if (what !== 'ojs') return usage('export: say "ojs".');
  let out: string | null = null;
  let journalName: string | null = null;
  let files: 'embed' | 'href' = 'embed';
  let users = false;
  let jats = false;
  while (rest.length) {
    const option = rest.shift();
    if (option === '--users') users = true;
    else if (option === '--jats') jats = true;
    else if (option === '--out' && rest.length) out = rest.shift()!;
    else if (option === '--journal' && rest.length) journalName = rest.shift()!;
    else if (option === '--files' && rest.length) {
      const mode = rest.shift()!;
      if (mode !== 'embed' && mode !== 'href')
        return usage(`export: --files is "embed" or "href", not "${mode}".`);
      files = mode;
    } else return usage(`export: unknown option ${option}.`);
  }
  if (!journalName) return usage('export: say which journal with --journal (its path, domain or id).');
  if (!out) return usage('export: say where with --out DIR.');
  const journal = services.journals
    .list()
    .find((j) => j.path === journalName || j.domain === journalName || String(j.id) === journalName);
  if (!journal) return usage(`export: no journal "${journalName}" (give its path, domain or id).`);

  return withJournal(journal.id, async () => {
    try {
      const r = await services.ojsExport.toFolder(out, { files, users, jats });
      io.log(
        `${journal.title}: ${r.native.issues} issue(s), ${r.native.articles} article(s), ${r.native.files} file(s) (${humanSize(r.native.bytes)}) in ${path.join(out, 'issues.xml')}${files === 'href' ? ` and ${path.join(out, 'files')}/` : ''}.`,
      );
      if (r.users !== null) io.log(`${r.users} account(s) in ${path.join(out, 'users.xml')}.`);
      if (r.jats !== null)
        io.log(`${r.jats} article(s) as JATS in ${path.join(out, 'jats')}/ (manifest.json lists them).`);
      return 0;
    } catch (err) {
      if (fsErrorCode(err)) {
        io.error(`Could not write to ${out}: ${describeFsError(err)}.`);
        return 1;
      }
      if (isDomainError(err)) {
        io.error(`${journal.title}: ${err.message}`);
        return 1;
      }
      io.error(`The export stopped: ${(err as Error).message}`);
      return 1;
    }
  });
}
