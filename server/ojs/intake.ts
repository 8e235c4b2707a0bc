import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CHOOSE_A_FILE,
  IMPORT_FILE_FIELD,
  type ImportFields,
  type ImportRunView,
  NOT_XML,
  looksLikeXml,
} from '../../common/imports.ts';
import type { JournalSummary } from '../../common/journals.ts';
import type { Actor } from '../audit/service.ts';
import { conflict, invalid, notFound, unsupportedType } from '../errors.ts';
import type { JournalsService } from '../journals/service.ts';
import type { Clock } from '../clock.ts';
import { withJournal } from '../db/scope.ts';
import type { ImportRun, OjsService } from './service.ts';
import { fileEnds } from './files.ts';

/** A file the upload wrote into its folder. */
export interface UploadedExport {
  filename: string;
  path: string;
  size: number;
}

/** What a kept dry run's folder says of it, beside its files. */
type KeptUpload = { names: string[]; sendPasswordLinks: boolean };
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;
const KEPT_NOTE = 'upload.json';

/**
 * The site admin's OJS import, from the upload's side (issue 26, decision 0069): a folder of its own for each
 * upload (`DATA_DIR/imports/upload-{uuid}`, where the HTTP edge streams the exports), the checks that need the
 * files (each one XML), the journal (an existing one, or a new one made here with the site admin as its first
 * editor), then the import service's run (which copies the files into its own folder). A dry run's upload is kept
 * for a day (`kept-{journal}-{run}`), so that it can be run for real without uploading it again. And the runs of
 * every journal, as the page and the API show them.
 */
export class ImportIntake {
  constructor(
    private readonly deps: {
      ojs: OjsService;
      journalAdmin: JournalsService;
      dataDir: string;
      clock: Clock;
    },
  ) {}

  private get root() {
    return path.join(this.deps.dataDir, 'imports');
  }

  /** A new, empty folder for one upload's exports (and kept dry runs past their day removed). */
  async newFolder(): Promise<string> {
    await this.sweep();
    const dir = path.join(this.root, `upload-${randomUUID()}`);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** Removes an upload's folder (a refused upload leaves nothing behind). */
  async discard(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }

  /**
   * Checks the uploaded exports and the journal, then starts the run. Refused (400/404/409/415) before anything
   * is made; the folder is then the caller's to discard. Started, the folder is removed (the run has copied the
   * files), or kept for a day when the run is a dry run.
   */
  async start(
    actor: Actor,
    fields: ImportFields,
    folder: string,
    files: UploadedExport[],
  ): Promise<ImportRunView> {
    if (files.length === 0) throw invalid(CHOOSE_A_FILE, { [IMPORT_FILE_FIELD]: CHOOSE_A_FILE });
    for (const file of files) {
      if (!looksLikeXml(file.filename, (await fileEnds(file.path, file.size, { head: 512, tail: 0 })).head)) {
        const message = `“${file.filename}” ${NOT_XML}`;
        throw unsupportedType(message, { [IMPORT_FILE_FIELD]: message });
      }
    }
    const journal = await this.journalFor(actor, fields);
    const run = await this.deps.ojs.startImport(journal.id, {
      files: files.map((f) => ({ path: f.path, name: f.filename })),
      oldPath: fields.oldPath ?? null,
      dryRun: fields.dryRun,
      sendPasswordLinks: fields.sendPasswordLinks,
      filesFrom: null,
      startedBy: actor.id,
    });
    if (fields.dryRun) {
      const note: KeptUpload = {
        names: files.map((f) => f.filename),
        sendPasswordLinks: fields.sendPasswordLinks,
      };
      await writeFile(path.join(folder, KEPT_NOTE), JSON.stringify(note));
      await rename(folder, this.keptFolder(journal.id, run.id));
    } else await this.discard(folder);
    return this.present(journal.id, run, [journal]);
  }

  /** A finished dry run again, for real, with the files it was given (while they are kept). */
  async runForReal(actor: Actor, id: number): Promise<ImportRunView> {
    const found = await this.find(id);
    if (!found) throw notFound('No such import.');
    const { journalId, run: dry } = found;
    if (!dry.dryRun) throw conflict('This import was run for real already: only a dry run is run again.');
    if (dry.status !== 'done') throw conflict('The dry run has not finished.');
    const kept = await this.kept(journalId, dry.id);
    if (!kept) throw conflict(UPLOAD_AGAIN);
    const run = await this.deps.ojs.startImport(journalId, {
      files: kept.files,
      oldPath: dry.oldPath,
      dryRun: false,
      sendPasswordLinks: kept.sendPasswordLinks,
      filesFrom: null,
      startedBy: actor.id,
    });
    // The real run has its copy: the dry run's is done with.
    await this.discard(this.keptFolder(journalId, dry.id));
    return this.present(journalId, run, await this.deps.journalAdmin.list());
  }

  async get(id: number): Promise<ImportRunView> {
    const found = await this.find(id);
    if (!found) throw notFound('No such import.');
    return this.present(found.journalId, found.run, await this.deps.journalAdmin.list());
  }

  /** Every run of every journal, newest first. */
  async list(): Promise<ImportRunView[]> {
    const journals = await this.deps.journalAdmin.list();
    const all = await Promise.all(
      journals.map(async (j) =>
        Promise.all(
          (await withJournal(j.id, () => this.deps.ojs.runs())).map((run) =>
            this.present(j.id, run, journals),
          ),
        ),
      ),
    );
    return all.flat().sort((a, b) => b.id - a.id);
  }

  /** A run and its journal: runs are each journal's (row-level security), the site admin's page sees them all. */
  private async find(id: number): Promise<{ journalId: number; run: ImportRun } | null> {
    for (const journal of await this.deps.journalAdmin.list()) {
      const run = await withJournal(journal.id, () => this.deps.ojs.run(id));
      if (run) return { journalId: journal.id, run };
    }
    return null;
  }

  private async journalFor(actor: Actor, fields: ImportFields): Promise<JournalSummary> {
    if (fields.journal !== undefined) {
      // Its path, its domain, or (the journal at the site's root has neither) its id.
      const journal = (await this.deps.journalAdmin.list()).find(
        (j) => j.path === fields.journal || j.domain === fields.journal || String(j.id) === fields.journal,
      );
      if (!journal)
        throw invalid('There is no journal at that path.', { journal: 'There is no journal at that path.' });
      return journal;
    }
    return this.deps.journalAdmin.create(
      { title: fields.newTitle, path: fields.newPath, editor: actor.username },
      actor,
    );
  }

  private keptFolder(journalId: number, runId: number) {
    return path.join(this.root, `kept-${journalId}-${runId}`);
  }

  /** A kept dry run's files, in the order they were uploaded, with their names; null when they are gone. */
  private async kept(
    journalId: number,
    runId: number,
  ): Promise<{ files: Array<{ path: string; name: string }>; sendPasswordLinks: boolean } | null> {
    const dir = this.keptFolder(journalId, runId);
    try {
      const note = JSON.parse(await readFile(path.join(dir, KEPT_NOTE), 'utf8')) as KeptUpload;
      const stored = (await readdir(dir))
        .filter((name) => name !== KEPT_NOTE)
        .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
      if (stored.length !== note.names.length) return null;
      return {
        files: stored.map((name, i) => ({ path: path.join(dir, name), name: note.names[i] })),
        sendPasswordLinks: note.sendPasswordLinks,
      };
    } catch {
      return null;
    }
  }

  /** Kept dry runs past their day, and uploads a crash left half-way, are removed. */
  private async sweep(): Promise<void> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const now = this.deps.clock.now();
    for (const name of names) {
      if (!name.startsWith('kept-') && !name.startsWith('upload-')) continue;
      const info = await stat(path.join(this.root, name)).catch(() => null);
      if (info && now - info.mtimeMs > KEPT_FOR_MS) await this.discard(path.join(this.root, name));
    }
  }

  private async present(
    journalId: number,
    run: ImportRun,
    journals: JournalSummary[],
  ): Promise<ImportRunView> {
    const journal = journals.find((j) => j.id === journalId);
    return {
      id: run.id,
      journal: { id: journalId, title: journal?.title ?? `Journal ${journalId}`, url: journal?.url ?? '' },
      status: run.status,
      dryRun: run.dryRun,
      oldPath: run.oldPath,
      files: run.files,
      total: run.total,
      done: run.done,
      current: run.current,
      report: run.report,
      error: run.error,
      filesKept: run.dryRun && run.status === 'done' ? (await this.kept(journalId, run.id)) !== null : false,
      createdAt: iso(run.createdAt),
      finishedAt: run.finishedAt ? iso(run.finishedAt) : null,
    };
  }
}

export const UPLOAD_AGAIN =
  'The files of this dry run are no longer on the server: upload them again, without “dry run”.';

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
