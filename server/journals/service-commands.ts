import {
  type JournalStatusAction,
  JOURNAL_STATUS_ACTIONS,
  type JournalSummary,
} from '../../common/journals.ts';
import { isDomainError } from '../errors.ts';
import type { JournalsService } from './service.ts';

/** `npm run cli -- journal …`: what the site admin does by page, by command (decision 0055). */
export const JOURNAL_USAGE = `  journal list           Every journal of the site: id, address, state, articles and submissions.
  journal create --title TITLE (--path PATH | --domain DOMAIN) --editor USERNAME_OR_EMAIL
                         Make a journal at a path on the site (/PATH/…) or at a domain of its own, with its
                         first editor (an existing account). It gets a new installation's settings and pages,
                         named by its title, and no articles.
  journal move-to-path JOURNAL PATH
  journal move-to-domain JOURNAL DOMAIN
                         Move a journal (named by its id, path or domain); its old address answers a 301.
  journal close|archive|reopen JOURNAL
                         Close it (reading only), archive it (hidden from the site's home), or open it again.`;

export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

/** A usage mistake: exit code 2, with the usage. */
class UsageError extends Error {}

/** `--name value` options and the words left; an option given twice, without a value or unknown is refused. */
function parseOptions(args: string[], known: readonly string[]) {
  const options = new Map<string, string>();
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!known.includes(name)) throw new UsageError(`Unknown option --${name}.`);
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new UsageError(`--${name} needs a value.`);
    if (options.has(name)) throw new UsageError(`--${name} is given twice.`);
    options.set(name, value);
  }
  return { options, words };
}

function expectWords(words: string[], n: number, usage: string): void {
  if (words.length !== n) throw new UsageError(`Usage: npm run cli -- ${usage}`);
}

function line(j: JournalSummary): string {
  const aliases = j.aliases.length ? ` (old: ${j.aliases.join(', ')})` : '';
  return `${String(j.id).padStart(4)}  ${j.url}${aliases}  ${j.status}  “${j.title}”  ${j.articles} article(s), ${j.submissions} submission(s)`;
}

/**
 * Runs one `journal` command; returns the process's exit code: 0 done, 1 refused (the reason printed, in the
 * same words as the page's), 2 a usage mistake.
 */
export async function journalCommand(
  args: string[],
  admin: JournalsService,
  out: CommandOutput,
): Promise<number> {
  const [sub, ...rest] = args;
  try {
    switch (sub) {
      case 'list': {
        expectWords(rest, 0, 'journal list');
        for (const journal of await admin.list()) out.log(line(journal));
        return 0;
      }
      case 'create': {
        const { options, words } = parseOptions(rest, ['title', 'path', 'domain', 'editor']);
        expectWords(
          words,
          0,
          'journal create --title TITLE (--path PATH | --domain DOMAIN) --editor USERNAME_OR_EMAIL',
        );
        const made = await admin.create(Object.fromEntries(options));
        out.log(`Made journal ${made.id}, “${made.title}”, at ${made.url}.`);
        return 0;
      }
      case 'move-to-path':
      case 'move-to-domain': {
        const { words } = parseOptions(rest, []);
        const what = sub === 'move-to-path' ? 'PATH' : 'DOMAIN';
        expectWords(words, 2, `journal ${sub} JOURNAL ${what}`);
        const id = await admin.find(words[0]);
        const moved =
          sub === 'move-to-path'
            ? await admin.moveToPath(id, words[1])
            : await admin.moveToDomain(id, words[1]);
        const old = moved.aliases.length ? ` Old addresses answering 301: ${moved.aliases.join(', ')}.` : '';
        out.log(`Journal ${moved.id}, “${moved.title}”, answers at ${moved.url}.${old}`);
        return 0;
      }
      case 'close':
      case 'archive':
      case 'reopen': {
        const { words } = parseOptions(rest, []);
        expectWords(words, 1, `journal ${sub} JOURNAL`);
        const id = await admin.find(words[0]);
        const status = JOURNAL_STATUS_ACTIONS[sub as JournalStatusAction];
        const changed = await admin.setStatus(id, { status });
        out.log(`Journal ${changed.id}, “${changed.title}”, is ${changed.status}.`);
        return 0;
      }
      default:
        throw new UsageError(sub ? `Unknown journal command "${sub}".` : 'Which journal command?');
    }
  } catch (err) {
    if (err instanceof UsageError) {
      out.error(`${err.message}\n\n${JOURNAL_USAGE}`);
      return 2;
    }
    if (!isDomainError(err)) throw err;
    const fields = Object.values(err.errors ?? {}).filter((m) => m !== err.message);
    out.error([err.message, ...fields].join('\n'));
    return 1;
  }
}
