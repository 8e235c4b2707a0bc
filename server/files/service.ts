import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { safeFilename } from '../../common/filenames.ts';
import { eq, inArray } from 'drizzle-orm';
import { type Clock, HOUR, systemClock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { DomainError, notFound } from '../errors.ts';
import { attachmentDisposition } from '../../common/filenames.ts';
import { BlobMissingError, type BlobStore, type ByteRange, type SweepResult } from './blob-store.ts';
import { detectKind } from './content-type.ts';
import {
  type PropertiesProblem,
  type PropertiesScan,
  personalProperties,
  withoutPersonalProperties,
} from './document-properties.ts';
import { parseRange } from './download.ts';
import { storedFiles } from './tables.ts';
import type { CheckedUpload } from './uploads.ts';

/**
 * A checked file that is already on disk with its SHA-256 known (an OJS import's decoded `<embed>`, issue 26):
 * streamed into the store, never read into memory whole.
 */
export interface FileOnDisk {
  filename: string;
  mediaType: string;
  path: string;
  sha256: string;
  size: number;
}

export type StoredFile = typeof storedFiles.$inferSelect;

/**
 * How old a leftover must be before the start-up sweep removes it. An upload writes its blob and commits its
 * row within seconds; an hour leaves a wide margin for one in flight in another process (a CLI command on a
 * PostgreSQL database, say) and costs nothing but a later clean-up.
 */
export const SWEEP_MIN_AGE_MS = HOUR;

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

/** How many files' property scans are kept (each a few names; a long PDF takes pdf.js a quarter second). */
const SCANS_KEPT = 500;

export class FileService {
  /**
   * Property scans by content (sha256 and the type it was stored as): a stored file never changes, so its
   * scan holds for ever. Oldest first (a Map keeps insertion order); a hit moves to the end.
   */
  private readonly scans = new Map<string, Promise<PropertiesScan>>();

  /**
   * Blobs that uploads in progress are using, with how many: a failed upload never deletes a blob that a
   * concurrent upload of the same bytes (content-addressed: the same key) is about to commit a row for.
   */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly db: Db,
    readonly blobs: BlobStore,
    private readonly deps: { clock?: Clock; log?: Logger } = {},
  ) {}

  /**
   * At start-up: removes the blobs no row names and the half-written `.tmp` files that a process killed
   * between an upload's last byte and its commit left behind (the only table naming a blob is
   * stored_files; articles and manuscript versions name stored_files rows). Only files older than
   * SWEEP_MIN_AGE_MS go. Logs what went.
   */
  async sweepLeftovers(): Promise<SweepResult> {
    const now = (this.deps.clock ?? systemClock).now();
    const result = await this.blobs.sweep({
      olderThan: new Date(now - SWEEP_MIN_AGE_MS),
      named: async (keys) => {
        const rows = await this.db
          .selectDistinct({ key: storedFiles.key })
          .from(storedFiles)
          .where(inArray(storedFiles.key, keys));
        return new Set([...rows.map((r) => r.key), ...keys.filter((k) => this.inFlight.has(k))]);
      },
    });
    const log = this.deps.log;
    if (result.removed.length) {
      log?.info(
        { removed: result.removed, bytes: result.bytes },
        `removed ${result.removed.length} leftover upload file(s) (${result.bytes} bytes): blobs no row names and half-written .tmp files`,
      );
    }
    if (result.failures.length)
      log?.warn({ failures: result.failures }, 'the sweep of leftover upload files could not finish');
    return result;
  }

  /**
   * All-or-nothing: the bytes are written first, then `work` runs in one transaction with the file rows.
   * If anything fails, the transaction rolls back and every blob this call created (and nobody else uses)
   * is removed, so no row and no orphan file remain.
   */
  async withStoredFiles<T>(
    uploads: Array<CheckedUpload | FileOnDisk>,
    work: (tx: Tx, files: StoredFile[]) => Promise<T>,
  ): Promise<T> {
    const created: string[] = [];
    const using: string[] = [];
    try {
      const puts: Awaited<ReturnType<BlobStore['put']>>[] = [];
      for (const u of uploads) {
        const put = 'path' in u ? await this.putFromDisk(u) : await this.blobs.put(u.data);
        this.inFlight.set(put.key, (this.inFlight.get(put.key) ?? 0) + 1);
        using.push(put.key);
        if (put.created) created.push(put.key);
        puts.push(put);
      }
      return await this.db.transaction(async (tx) => {
        const rows: StoredFile[] = [];
        for (const [i, u] of uploads.entries()) {
          const [row] = await tx
            .insert(storedFiles)
            .values({
              key: puts[i].key,
              sha256: puts[i].sha256,
              size: puts[i].size,
              mediaType: u.mediaType,
              originalName: safeFilename(u.filename),
            })
            .returning();
          rows.push(row);
        }
        return work(tx, rows);
      });
    } catch (err) {
      this.release(using);
      using.length = 0;
      for (const key of created) {
        if (this.inFlight.has(key)) continue; // another upload of the same bytes is still going on
        const [still] = await this.db
          .select({ id: storedFiles.id })
          .from(storedFiles)
          .where(eq(storedFiles.key, key))
          .limit(1)
          .catch(() => [] as { id: number }[]);
        if (!still) await this.blobs.delete(key).catch(() => undefined);
      }
      throw err;
    } finally {
      this.release(using);
    }
  }

  /** A file on disk into the store by a stream (checked against its SHA-256 on the way). */
  private async putFromDisk(u: FileOnDisk) {
    const key = u.sha256;
    if ((await this.blobs.size(key)) === u.size) return { key, sha256: key, size: u.size, created: false };
    await this.blobs.putStream(key, u.size, createReadStream(u.path));
    return { key, sha256: key, size: u.size, created: true };
  }

  private release(keys: string[]) {
    for (const key of keys) {
      const n = (this.inFlight.get(key) ?? 1) - 1;
      if (n > 0) this.inFlight.set(key, n);
      else this.inFlight.delete(key);
    }
  }

  async get(id: number): Promise<StoredFile> {
    const [row] = await this.db.select().from(storedFiles).where(eq(storedFiles.id, id));
    if (!row) throw notFound('No such file.');
    return row;
  }

  /** A stored file's bytes, whole (for files read through: property scans, copies, text extraction). */
  async bytes(file: StoredFile): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(file)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * The file's own properties that name people (decision 0024), read once per content and kept: the desk
   * page asks on every view of a double-anonymous round, and pdf.js reads a long PDF in a quarter second.
   */
  personalProperties(file: StoredFile): Promise<PropertiesScan> {
    const key = `${file.sha256}:${file.mediaType}`;
    const kept = this.scans.get(key);
    if (kept) {
      this.scans.delete(key);
      this.scans.set(key, kept);
      return kept;
    }
    const scan = this.bytes(file).then((bytes) => personalProperties(bytes, file.mediaType));
    this.scans.set(key, scan);
    // A file that could not be read (missing from storage) is asked again next time.
    scan.catch(() => this.scans.delete(key));
    if (this.scans.size > SCANS_KEPT) this.scans.delete(this.scans.keys().next().value!);
    return scan;
  }

  /**
   * A copy of a stored file without the properties that name people (decision 0024), ready to be stored
   * beside it as "<name>-<suffix>.<ext>": the one way such copies are made, of a manuscript for reviewers and
   * of a reviewer's attached file for the author (decision 0034). The original is not touched.
   */
  async copyWithoutPersonalProperties(
    file: StoredFile,
    suffix: string,
  ): Promise<{ ok: true; upload: CheckedUpload } | ({ ok: false } & PropertiesProblem)> {
    const copy = await withoutPersonalProperties(await this.bytes(file), file.mediaType);
    if (!copy.ok) return copy;
    const dot = file.originalName.lastIndexOf('.');
    const [base, ext] =
      dot > 0 ? [file.originalName.slice(0, dot), file.originalName.slice(dot)] : [file.originalName, ''];
    return {
      ok: true,
      upload: {
        field: 'copy',
        filename: `${base}-${suffix}${ext}`,
        data: copy.bytes,
        kind: detectKind(copy.bytes),
        mediaType: file.mediaType,
      },
    };
  }

  /** The file's bytes (those of `range` only, when given), streamed from the store. */
  async open(file: StoredFile, range?: ByteRange): Promise<Readable> {
    try {
      return await this.blobs.read(file.key, range);
    } catch (err) {
      // A store that does not answer is a 503 (StorageUnavailableError), not a missing file.
      if (!(err instanceof BlobMissingError)) throw err;
      throw notFound('The file is missing from storage. Please tell the editorial office.');
    }
  }

  /**
   * A stored file as a private download named `name`: its type, length and name, and the one range a
   * `Range` header asks for (206; 416 when it starts past the end), unless an `If-Range` names another
   * version. The ETag is the content's SHA-256, so it changes exactly when the bytes do.
   */
  async download(
    file: StoredFile,
    name: string,
    request: { range?: string; ifRange?: string },
  ): Promise<{ status: 200 | 206; headers: Record<string, string>; body: Readable }> {
    const etag = `"${file.sha256}"`;
    const headers: Record<string, string> = {
      'content-type': file.mediaType,
      'content-disposition': attachmentDisposition(name),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
      etag,
    };
    const range = request.ifRange && request.ifRange !== etag ? null : parseRange(request.range, file.size);
    if (range === 'unsatisfiable') {
      // The API's edge answers 416 with Content-Range `bytes */size`, from the detail (decision 0042).
      throw new DomainError(
        'range_not_satisfiable',
        'The range asked for starts past the end of the file.',
        undefined,
        {
          size: file.size,
        },
      );
    }
    if (!range)
      return {
        status: 200,
        headers: { ...headers, 'content-length': String(file.size) },
        body: await this.open(file),
      };
    return {
      status: 206,
      headers: {
        ...headers,
        'content-length': String(range.end - range.start + 1),
        'content-range': `bytes ${range.start}-${range.end}/${file.size}`,
      },
      body: await this.open(file, range),
    };
  }
}
