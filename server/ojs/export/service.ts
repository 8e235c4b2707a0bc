import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import type { FileService } from '../../files/service.ts';
import type { FullTextService } from '../../fulltext/service.ts';
import type { SettingsService } from '../../settings/service.ts';
import { type JatsManifest, writeJatsFolder } from './jats-folder.ts';
import { type FilesMode, NativeExport, type NativeCounts } from './native.ts';
import { type Sink, sinkOf } from './sink.ts';
import { writeUsers } from './users.ts';

/**
 * Moving out (issue 26, decision 0068): the journal in scope as OJS 3.4 Native XML (issues and articles with
 * their files), as OJS Users XML (its accounts), and as a folder of JATS. Each is written to a sink or a
 * folder as it is read; `toFolder` is the `export ojs` command's, the sinks the admin's downloads.
 */

interface Deps {
  files: Pick<FileService, 'get' | 'open'>;
  fulltext: Pick<FullTextService, 'jats' | 'readerDocument'>;
  settings: Pick<SettingsService, 'journal'>;
  clock: Clock;
}

export type FolderOptions = { files: 'embed' | 'href'; users: boolean; jats: boolean };

export type FolderResult = {
  native: NativeCounts;
  users: number | null;
  jats: number | null;
  written: string[];
};

/** Writes `relPath` under `dir` through a temporary name, renamed once whole: no half-written file stays. */
async function writeInto(dir: string, relPath: string, data: string | Buffer | Readable): Promise<void> {
  const target = path.join(dir, relPath);
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.part`;
  try {
    const source = typeof data === 'string' || Buffer.isBuffer(data) ? Readable.from([data]) : data;
    await pipeline(source, createWriteStream(tmp));
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** A sink writing `relPath` under `dir`, renamed into place by `done`; removed by `fail`. */
async function fileSink(dir: string, relPath: string) {
  const target = path.join(dir, relPath);
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.part`;
  const out = createWriteStream(tmp);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  const sink = sinkOf(out);
  return {
    sink: {
      write: (piece) => Promise.race([sink.write(piece), failed]),
    } satisfies Sink,
    async done() {
      await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed]);
      await rename(tmp, target);
    },
    async fail() {
      out.destroy();
      await rm(tmp, { force: true });
    },
  };
}

export class OjsExportService {
  constructor(
    private readonly db: Db,
    private readonly deps: Deps,
  ) {}

  /** The journal's issues and articles as Native XML, into `sink`. */
  async native(sink: Sink, files: FilesMode = { mode: 'embed' }): Promise<NativeCounts> {
    return new NativeExport(
      this.db,
      { files: this.deps.files, journal: () => this.deps.settings.journal() },
      files,
    ).write(sink);
  }

  /** The journal's accounts as Users XML, into `sink`. */
  async users(sink: Sink): Promise<{ users: number }> {
    return writeUsers(this.db, sink, await this.deps.settings.journal());
  }

  /** The journal as a folder of JATS, each file given to `write`. */
  async jats(
    write: (relPath: string, data: string | Buffer | Readable) => Promise<void>,
  ): Promise<JatsManifest> {
    const journal = await this.deps.settings.journal();
    return writeJatsFolder(this.db, this.deps, write, {
      journal: journal.name,
      madeAt: new Date(this.deps.clock.now()),
    });
  }

  /**
   * The `export ojs` command's: `dir/issues.xml` (with `dir/files/…` when files are referenced), and
   * `dir/users.xml`, `dir/jats/…` when asked. Each file is written under a temporary name and renamed once
   * whole.
   */
  async toFolder(dir: string, options: FolderOptions): Promise<FolderResult> {
    await mkdir(dir, { recursive: true });
    const written: string[] = [];
    const into = async (name: string, fn: (sink: Sink) => Promise<unknown>) => {
      const f = await fileSink(dir, name);
      try {
        await fn(f.sink);
        await f.done();
      } catch (err) {
        await f.fail();
        throw err;
      }
      written.push(name);
    };
    let native: NativeCounts | undefined;
    await into('issues.xml', async (sink) => {
      native = await this.native(
        sink,
        options.files === 'href'
          ? { mode: 'href', write: (rel, stream) => writeInto(dir, rel, stream) }
          : { mode: 'embed' },
      );
    });
    if (options.files === 'href') written.push('files/');
    let users: number | null = null;
    if (options.users)
      await into('users.xml', async (sink) => {
        users = (await this.users(sink)).users;
      });
    let jats: number | null = null;
    if (options.jats) {
      const manifest = await this.jats((rel, data) => writeInto(path.join(dir, 'jats'), rel, data));
      jats = manifest.articles.length;
      written.push('jats/');
    }
    return { native: native!, users, jats, written };
  }
}
