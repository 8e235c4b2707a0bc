import { type WriteStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import Busboy from '@fastify/busboy';
import { describeFsError, fsErrorCode } from '../storage.ts';
import { formatBytes } from '../../common/upload-rules.ts';
import { HttpError, badRequest, payloadTooLarge, unsupportedMediaType } from './errors.ts';

/**
 * The one reader of form bodies (application/x-www-form-urlencoded and multipart/form-data), for page
 * actions and for the API's uploads alike. It reads as the body streams in and stops at its limits, so no
 * body, chunked or not, costs more memory than the limits allow:
 *
 * - the text fields together may hold `maxTextBytes` (a plain form's whole body is text);
 * - only the file fields named in `files` are taken, one file each, each up to its own limit;
 * - past a limit, a file's remaining bytes are dropped unread-into-memory, and the text fields after it are
 *   still read (so a refused upload comes back with what was typed), until the body has gone past `hardCap`
 *   bytes in all: then reading stops and the connection is closed after the answer;
 * - the file fields named in `toDisk` are not held in memory at all: each of their files (one or more per
 *   field) streams into a file of its own in the rule's folder as it arrives (the body is read only as fast as
 *   the disk takes it), up to the rule's total; past it, or when the disk fails, reading stops and every file
 *   this body wrote is removed (413, or 507 for a full disk), so a refused upload leaves nothing behind.
 */
export interface FormBodyLimits {
  /** Every text field together, in bytes (names included). */
  maxTextBytes: number;
  /** Accepted file fields and each one's limit; any other file part is refused. */
  files?: Record<string, { maxBytes: number; tooLarge?: string }>;
  /** File fields streamed to disk, never to memory (large uploads: an OJS export of gigabytes). */
  toDisk?: Record<string, DiskFileRule>;
  /** How many text fields at most. */
  maxFields?: number;
  /** The refusal when the text is too large (the form's own words). */
  tooLarge?: string;
}

export interface DiskFileRule {
  /** The folder each file is written into (it must exist); the caller owns it. */
  dir: string;
  /** All of this field's files together, in bytes. */
  maxBytes: number;
  /** How many files this field may carry. */
  maxFiles: number;
  tooLarge?: string;
  /** Opens each file for writing (tests pass one that fails as a full disk does). */
  createStream?: (file: string) => WriteStream;
}

/** A file written to disk by a `toDisk` field: where, its name as sent, and its size. */
export interface SavedFile {
  field: string;
  filename: string;
  type: string;
  path: string;
  size: number;
}

export const DISK_FULL =
  'The server’s disk is full: the upload could not be stored. Nothing was kept; please try again later.';

export interface FormFile {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

export interface FormBody {
  /** Each text field's values, in the order they came. */
  fields: Map<string, string[]>;
  /** Each chosen file (a file input left empty is absent). */
  files: Map<string, FormFile>;
  /** The files of `toDisk` fields, in the order they came (all of them removed again when the body is refused). */
  saved: SavedFile[];
  /** Set when the body broke a limit: what was read until then is still in `fields`. */
  refused?: HttpError;
}

/** Content types a form arrives in; anything else is refused with 415 before a byte is read. */
export function formContentType(header: string | null | undefined): 'urlencoded' | 'multipart' | null {
  const type = (header ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return 'urlencoded';
  if (type === 'multipart/form-data') return 'multipart';
  return null;
}

export const NOT_A_FORM =
  'This form must be sent as a web form (application/x-www-form-urlencoded or multipart/form-data).';
export const MALFORMED = 'The form was incomplete or malformed. Please try again.';

/** Beyond this many times the limits, an oversize body is not read on (its typed fields are then lost). */
const READ_ON_UP_TO = 4;

export async function readFormBody(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | null | undefined,
  limits: FormBodyLimits,
): Promise<FormBody> {
  const kind = formContentType(contentType);
  if (!kind) throw unsupportedMediaType(NOT_A_FORM);
  const fields = new Map<string, string[]>();
  const files = new Map<string, FormFile>();
  const saved: SavedFile[] = [];
  const result: FormBody = { fields, files, saved };
  if (!body) return result;

  const fileRules = limits.files ?? {};
  const diskRules = limits.toDisk ?? {};
  const diskBytes = Object.values(diskRules).reduce((sum, r) => sum + r.maxBytes, 0);
  /** Files being written: the body is done only when each has reached the disk (or failed). */
  const writing: Promise<void>[] = [];
  /** Every file written or begun, to remove when the body is refused. */
  const written: string[] = [];
  /** Files still open: closed at once when reading stops early. */
  const open = new Set<WriteStream>();
  const fileLimit = Math.max(0, ...Object.values(fileRules).map((r) => r.maxBytes));
  // On the wire, text is percent-encoded (up to three bytes per byte) and parts are framed.
  const inMemory =
    3 * limits.maxTextBytes + Object.values(fileRules).reduce((sum, r) => sum + r.maxBytes, 0) + 64 * 1024;
  const allowed = inMemory + diskBytes;
  // A body past a file streamed to disk is not read on (it may be gigabytes): the answer comes at once.
  const hardCap = diskBytes > 0 ? allowed : allowed * READ_ON_UP_TO;
  const textTooLarge = () =>
    payloadTooLarge(
      limits.tooLarge ?? `The form is too large: at most ${formatBytes(limits.maxTextBytes)} of text.`,
    );
  const refuse = (err: HttpError) => {
    result.refused ??= err;
  };

  let textBytes = 0;
  let failure: HttpError | null = null;
  let stop = false;
  let parser: InstanceType<typeof Busboy>;
  try {
    parser = newParser();
  } catch {
    // No boundary in a multipart type, an unknown charset: not a form that can be read.
    throw badRequest(MALFORMED);
  }
  function newParser() {
    return new Busboy({
      headers: { 'content-type': contentType as string },
      defCharset: 'utf8',
      limits: {
        fieldNameSize: 200,
        fieldSize: limits.maxTextBytes,
        fields: limits.maxFields ?? 500,
        // One more than accepted, so that a second file in one field is seen and refused.
        files:
          Object.keys(fileRules).length + Object.values(diskRules).reduce((n, r) => n + r.maxFiles, 0) + 1,
        fileSize: Math.max(fileLimit, ...Object.values(diskRules).map((r) => r.maxBytes)) + 1,
        headerPairs: 100,
      },
    });
  }
  parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
    textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (valueTruncated || textBytes > limits.maxTextBytes) {
      refuse(textTooLarge());
      stop = true;
      return;
    }
    const list = fields.get(name);
    if (list) list.push(value);
    else fields.set(name, [value]);
  });
  parser.on(
    'file',
    (name: string, stream: NodeJS.ReadableStream, filename: string, _enc: string, mime: string) => {
      if (Object.hasOwn(diskRules, name)) {
        toDisk(name, diskRules[name], stream, filename, mime);
        return;
      }
      const rule = fileRules[name];
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      stream.on('data', (chunk: Buffer) => {
        if (over || failure) return;
        size += chunk.length;
        if (rule && size > rule.maxBytes) {
          over = true;
          chunks.length = 0;
          refuse(
            payloadTooLarge(
              rule.tooLarge ?? `The file is too large: the limit is ${formatBytes(rule.maxBytes)}.`,
            ),
          );
          return;
        }
        if (rule) chunks.push(chunk);
      });
      // A body cut off inside a file fails the file's stream as well as the parser.
      stream.on('error', () => {
        failure ??= badRequest(MALFORMED);
      });
      stream.on('end', () => {
        if (over || failure) return;
        // A file input left empty arrives as a part with no name and no bytes: not chosen.
        if (size === 0 && !filename) return;
        if (!rule) {
          failure ??= badRequest(`Unexpected file field "${name}".`, { [name]: 'No file is expected here.' });
          return;
        }
        if (files.has(name)) {
          failure ??= badRequest(`Send one file only in "${name}".`, { [name]: 'Choose one file only.' });
          return;
        }
        files.set(name, {
          field: name,
          filename: filename ?? '',
          type: mime ?? '',
          data: Buffer.concat(chunks, size),
        });
      });
    },
  );
  /** How many bytes and files each `toDisk` field has written so far. */
  const diskUse = new Map<string, { bytes: number; files: number }>();
  function toDisk(
    name: string,
    rule: DiskFileRule,
    stream: NodeJS.ReadableStream,
    filename: string,
    mime: string,
  ) {
    const use = diskUse.get(name) ?? { bytes: 0, files: 0 };
    diskUse.set(name, use);
    // A file input left empty: a part with no name (its bytes, none, are drained).
    if (!filename) {
      stream.resume();
      return;
    }
    if (stop || failure || result.refused) {
      stream.resume();
      return;
    }
    use.files += 1;
    if (use.files > rule.maxFiles) {
      failure ??= badRequest(`Send at most ${rule.maxFiles} files in "${name}".`, {
        [name]: `Choose at most ${rule.maxFiles} files.`,
      });
      stop = true;
      stream.resume();
      return;
    }
    // The name as sent is kept for the record; on disk, a safe name of our own in the rule's folder.
    const file = path.join(rule.dir, `${written.length + 1}-${safeName(filename)}`);
    written.push(file);
    const out = rule.createStream ? rule.createStream(file) : createWriteStream(file, { flags: 'wx' });
    open.add(out);
    let size = 0;
    let over = false;
    stream.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      use.bytes += chunk.length;
      if (use.bytes > rule.maxBytes) {
        over = true;
        refuse(
          payloadTooLarge(
            rule.tooLarge ?? `The upload is too large: the limit is ${formatBytes(rule.maxBytes)}.`,
          ),
        );
        stop = true;
        stream.unpipe(out);
        out.destroy();
        stream.resume();
      }
    });
    stream.on('error', () => {
      failure ??= badRequest(MALFORMED);
      out.destroy();
    });
    stream.pipe(out);
    writing.push(
      new Promise<void>((resolve) => {
        out.on('error', (err) => {
          failure ??= diskFailure(err);
          stop = true;
          stream.unpipe(out);
          stream.resume();
          resolve();
        });
        out.on('close', () => {
          open.delete(out);
          if (!over && !failure && !stop)
            saved.push({ field: name, filename, type: mime ?? '', path: file, size });
          resolve();
        });
      }),
    );
  }

  parser.on('filesLimit', () => {
    failure ??= badRequest('Too many files in this form.');
  });
  parser.on('fieldsLimit', () => {
    refuse(textTooLarge());
    stop = true;
  });

  const finished = new Promise<void>((resolve, reject) => {
    parser.on('finish', resolve);
    parser.on('error', reject);
  });
  finished.catch(() => {}); // observed below; an early stop must not leave it unhandled

  try {
    const answer = await readAll(body);
    if (answer.refused) await removeAll();
    return answer;
  } catch (err) {
    await removeAll();
    throw err;
  }

  async function removeAll() {
    await Promise.all(writing);
    await Promise.all(written.map((file) => rm(file, { force: true }).catch(() => {})));
    saved.length = 0;
  }

  async function readAll(source: ReadableStream<Uint8Array>): Promise<FormBody> {
    let read = 0;
    const reader = source.getReader();
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        read += next.value.byteLength;
        if (read > allowed) refuse(textTooLarge());
        if (read > hardCap || stop || failure) {
          stop = true;
          break;
        }
        if (!parser.write(next.value)) await drained(parser);
      }
    } catch {
      throw badRequest(MALFORMED);
    }
    // A body already refused for its size is answered so (413), whatever else went wrong after the limit.
    if (stop) {
      await reader.cancel().catch(() => {});
      parser.destroy();
      for (const out of open) out.destroy();
      if (failure && !result.refused) throw failure;
      return result;
    }
    parser.end();
    try {
      await finished;
    } catch {
      await Promise.all(writing);
      if (result.refused) return result;
      throw failure ?? badRequest(MALFORMED);
    }
    await Promise.all(writing);
    if (result.refused) return result;
    if (failure) throw failure;
    return result;
  }
}

/** A file-system failure while writing an upload: a full disk is the server's (507), in words; others rethrown. */
function diskFailure(err: unknown): HttpError {
  const code = fsErrorCode(err);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new HttpError(507, DISK_FULL);
  return new HttpError(
    503,
    `The server could not store the upload: ${describeFsError(err)}. Nothing was kept.`,
  );
}

/** A file name safe in a folder of ours: letters, digits, dot, dash and underscore, at most 80 characters. */
function safeName(filename: string): string {
  const base = path.basename(filename.replace(/\\/g, '/'));
  const clean = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return (clean || 'upload').slice(-80);
}

/** Until a writable can take more, or has failed or closed (then no 'drain' would ever come). */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('error', done);
    stream.on('close', done);
  });
}

/**
 * A Node request body as a Web stream that is pulled only as fast as it is read (never buffered ahead);
 * cancelling it pauses the socket.
 */
export function pullStream(raw: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = raw[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else {
            const chunk = next.value as Buffer;
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          }
        } catch (err) {
          controller.error(err);
        }
      },
      cancel() {
        raw.pause();
      },
    },
    { highWaterMark: 0 },
  );
}
