import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withJournal } from '../db/scope.ts';
import type { Services } from '../services.ts';
import { humanSize, writeBagFolder } from './bagit.ts';
import { checkBag } from './check.ts';

export const ARCHIVE_USAGE = `  archive issue ID|journal [--journal PATH|DOMAIN|ID] [--out DIR] [--zip]
                         Make the archive package (a BagIt bag) of one issue, or of every issue of a journal
                         with a published article, check it, and store it as the editors' download (replacing
                         the one before). With --out, also write each bag to DIR as a folder (with --zip: as
                         a ZIP). The journal is the site's first unless --journal names another.`;

interface Io {
  log: (line: string) => void;
  error: (line: string) => void;
}

/**
 * `npm run cli -- archive …` (decision 0065): the bags of a journal's issues, made in its scope by the same
 * code as the job, checked by the checker before they are written. Returns the exit code.
 */
export async function archiveCommand(args: string[], services: Services, io: Io): Promise<number> {
  const usage = (why: string) => {
    io.error(`${why}\n\nUsage: npm run cli --\n${ARCHIVE_USAGE}`);
    return 2;
  };
  const [what, ...rest] = args;
  let id: number | null = null;
  if (what === 'issue') {
    const raw = rest.shift();
    if (!raw || !/^\d{1,10}$/.test(raw)) return usage('archive issue: give the issue’s id.');
    id = Number(raw);
  } else if (what !== 'journal') return usage('archive: say "issue ID" or "journal".');
  let out: string | null = null;
  let asZip = false;
  let journalName: string | null = null;
  while (rest.length) {
    const option = rest.shift();
    if (option === '--zip') asZip = true;
    else if (option === '--out' && rest.length) out = rest.shift()!;
    else if (option === '--journal' && rest.length) journalName = rest.shift()!;
    else return usage(`archive: unknown option ${option}.`);
  }
  const all = services.journals.list();
  const journal = journalName
    ? all.find((j) => j.path === journalName || j.domain === journalName || String(j.id) === journalName)
    : all[0];
  if (!journal) return usage(`archive: no journal "${journalName}" (give its path, domain or id).`);

  return withJournal(journal.id, async () => {
    const ids = id !== null ? [id] : (await services.preservation.archivableIssues()).map((i) => i.id);
    if (!ids.length) {
      io.log(`No issue of ${journal.title} has a published article: nothing to archive.`);
      return 0;
    }
    let made = 0;
    for (const issueId of ids) {
      const bag = await services.preservation.makeBag(issueId);
      if (!bag) {
        io.error(`No such issue, or it has no published article: ${issueId}.`);
        return 1;
      }
      const problems = checkBag(bag.bag);
      if (problems.length) {
        io.error(`The bag of issue ${issueId} does not check: ${problems.join(' ')}`);
        return 1;
      }
      let where = 'stored';
      if (out) {
        try {
          await mkdir(out, { recursive: true });
          if (asZip) {
            const file = path.join(out, `${bag.root}.zip`);
            await writeFile(file, bag.zip);
            where += `, written to ${file}`;
          } else {
            await writeBagFolder(path.join(out, bag.root), bag.bag);
            where += `, written to ${path.join(out, bag.root)}/`;
          }
        } catch (err) {
          io.error(`Could not write to ${out}: ${(err as Error).message}`);
          return 1;
        }
      }
      made++;
      io.log(`Issue ${issueId}: ${bag.root} (${humanSize(bag.zip.length)} zipped), checked, ${where}.`);
    }
    io.log(`${made} issue(s) archived for ${journal.title}.`);
    return 0;
  });
}
