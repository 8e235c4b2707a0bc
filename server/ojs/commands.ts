import { stat } from 'node:fs/promises';
import path from 'node:path';
import { withJournal } from '../db/scope.ts';
import { isDomainError } from '../errors.ts';
import type { Services } from '../services.ts';
import { reportLines } from './import.ts';

export const IMPORT_USAGE = `  import ojs FILE… --journal PATH [--old-path PATH] [--files-from DIR] [--dry-run] [--send-password-links]
                         Move a journal in from Open Journal Systems: its Native XML exports (issues or
                         articles) and its Users XML, into the journal at PATH (made when the site has none;
                         its first editor the site's admin). --old-path: the journal's path on the OJS site,
                         so its old links find their pages here. --files-from: the folder files an export
                         names by <href> are read from (nothing outside it is). --dry-run: say what would be
                         done, write nothing. --send-password-links: e-mail accounts whose OJS password could
                         not come along a link to set one. Run it again after a correction or an
                         interruption: what is already here unchanged is left alone. Exit 0 when the run is
                         done, 1 when it was refused or failed, 2 on a usage error.`;

interface Io {
  log: (line: string) => void;
  error: (line: string) => void;
  /** Progress, redrawn in place on a terminal. */
  progress: (line: string) => void;
}

/**
 * `npm run cli -- import ojs …` (decision 0066): the import run in this process by the same code as the job,
 * its progress on stderr, its report on stdout. Returns the exit code.
 */
export async function importCommand(
  args: string[],
  services: Services,
  io: Io,
  opts: { adminUsername: string },
): Promise<number> {
  const usage = (why: string) => {
    io.error(`${why}\n\nUsage: npm run cli --\n${IMPORT_USAGE}`);
    return 2;
  };
  const [source, ...rest] = args;
  if (source !== 'ojs') return usage('import: say what to import from ("ojs").');
  const files: string[] = [];
  let journalPath: string | null = null;
  let oldPath: string | null = null;
  let filesFrom: string | null = null;
  let dryRun = false;
  let sendPasswordLinks = false;
  while (rest.length) {
    const a = rest.shift()!;
    if (a === '--dry-run') dryRun = true;
    else if (a === '--send-password-links') sendPasswordLinks = true;
    else if (a === '--journal' && rest.length) journalPath = rest.shift()!;
    else if (a === '--old-path' && rest.length) oldPath = rest.shift()!;
    else if (a === '--files-from' && rest.length) filesFrom = rest.shift()!;
    else if (a.startsWith('--')) return usage(`import: unknown option ${a}.`);
    else files.push(a);
  }
  if (!files.length) return usage('import ojs: name at least one export file.');
  if (!journalPath) return usage('import ojs: say which journal with --journal PATH.');
  for (const f of files) {
    const info = await stat(f).catch(() => null);
    if (!info?.isFile()) return usage(`import ojs: ${f} is not a file.`);
  }
  if (filesFrom && !(await stat(filesFrom).catch(() => null))?.isDirectory())
    return usage(`import ojs: --files-from ${filesFrom} is not a folder.`);

  let journal = services.journals
    .list()
    .find((j) => j.path === journalPath || j.domain === journalPath || String(j.id) === journalPath);
  if (!journal) {
    try {
      const made = await services.journalAdmin.create({
        title: journalPath,
        path: journalPath,
        editor: opts.adminUsername,
      });
      await services.journals.load();
      journal = services.journals.get(made.id)!;
      io.log(`Made the journal ${journal.title} at /${journalPath} (rename it in its settings).`);
    } catch (err) {
      if (isDomainError(err)) {
        io.error(`import ojs: the journal ${journalPath} could not be made: ${err.message}`);
        if (err.message.includes(`“${opts.adminUsername}”`))
          io.error(
            'Its first editor is the site admin, made when the site first starts: start it once (npm start), stop it, and import again; or make the journal first with its editor (npm run cli -- journal create …).',
          );
        return 1;
      }
      throw err;
    }
  }
  const target = journal;
  return withJournal(target.id, async () => {
    let run: Awaited<ReturnType<Services['ojs']['importNow']>>;
    try {
      run = await services.ojs.importNow(
        {
          files: files.map((f) => ({ path: f, name: path.basename(f) })),
          oldPath,
          dryRun,
          sendPasswordLinks,
          filesFrom,
        },
        (p) => io.progress(`${p.done}/${p.total} ${p.current}`),
      );
    } catch (err) {
      if (isDomainError(err)) {
        io.error(`import ojs: ${err.message}`);
        return 1;
      }
      throw err;
    }
    if (run.status !== 'done') {
      io.error(`Import ${run.id} into ${target.title} refused: ${run.error}`);
      return 1;
    }
    io.log(`Import ${run.id} into ${target.title}${dryRun ? ' (dry run: nothing written)' : ''}:`);
    for (const line of reportLines(run.report!, dryRun)) io.log(`  ${line}`);
    return 0;
  });
}
