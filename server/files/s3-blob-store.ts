import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  BLOB_KEY,
  BlobMissingError,
  type BlobStore,
  BlobStoreUnusableError,
  type ByteRange,
  blobPath,
  checkedStream,
  STORAGE_UNREADABLE_MESSAGE,
  StorageUnavailableError,
  type SweepResult,
  sha256,
} from './blob-store.ts';

export interface S3Options {
  /** Unset: AWS S3 itself (the region decides the address). */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the SDK's own chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, ~/.aws, an instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO, Ceph and most self-hosted services). */
  forcePathStyle: boolean;
  /** Put before every object key ("journal-a/"), so that several journals can share one bucket. */
  prefix: string;
}

interface Logger {
  warn?(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * The SDK warns once per process that its releases from 2027 on will need Node 22. The versions the lock
 * file holds run on Node 20, which this project supports; the warning would only add lines to the one-line
 * start-up messages. Set the variable to "false" to see it.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** The error's S3 code (NoSuchKey, AccessDenied, …) or its system code (ECONNREFUSED, …). */
function codeOf(err: unknown): string {
  const e = err as { name?: unknown; Code?: unknown; code?: unknown; errors?: { code?: unknown }[] } | null;
  if (typeof e?.Code === 'string') return e.Code;
  if (typeof e?.code === 'string') return e.code;
  // Node's connection attempts to every address of a name fail as one AggregateError.
  if (typeof e?.errors?.[0]?.code === 'string') return e.errors[0].code;
  // An answer without a body (to HEAD) has no S3 code: its status says what there is to say.
  const status = statusOf(err);
  if (e?.name === 'Unknown' && status) return `HTTP ${status}`;
  return typeof e?.name === 'string' ? e.name : 'Error';
}

const statusOf = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

const MISSING = new Set(['NoSuchKey', 'NotFound']);
const NO_BUCKET = new Set(['NoSuchBucket']);
const REFUSED_CREDENTIALS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'ExpiredToken',
  'TokenRefreshRequired',
  'CredentialsProviderError',
]);

/**
 * Blobs in an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Ceph), as objects named like the
 * local store's files (`prefix` + `ab/cd/abcd…`): a copy of `DATA_DIR/files` made by any S3 tool is a
 * valid store, and the reverse. A PUT is atomic (an object appears whole or not at all), so there are no
 * half-written files to clean up; orphans a killed process left are swept by their LastModified date.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly description: string;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly log?: Logger;
  private readonly pageSize?: number;

  constructor(
    private readonly opts: S3Options,
    /** `pageSize`: keys per listing request (S3's default is 1,000; tests make it small to page). */
    deps: { log?: Logger; pageSize?: number } = {},
  ) {
    this.bucket = opts.bucket;
    this.prefix = opts.prefix;
    this.log = deps.log;
    this.pageSize = deps.pageSize;
    this.description = `the S3 bucket "${opts.bucket}"${opts.prefix ? ` (under ${opts.prefix})` : ''} at ${opts.endpoint ?? `AWS S3 (${opts.region})`}`;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: the SDK's default since 2025 (a CRC in an aws-chunked body)
      // is refused or stored verbatim by many S3-compatible services. Every blob is checked against its
      // SHA-256 name where it matters (copies between stores).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK's warnings go to our log (by default some go to the console). Its `error` is every failed
      // command, an expected 404 included: the store logs the failures that matter itself.
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: (...content: unknown[]) => this.log?.warn?.({ sdk: content }, 'S3 client'),
        error: () => undefined,
      },
      requestHandler: {
        connectionTimeout: 10_000,
        // Between two packets, not for a whole download.
        requestTimeout: 60_000,
        // Each download in progress holds a connection until its reader has it all (the SDK's default is 50).
        httpAgent: { keepAlive: true, maxSockets: 256 },
        httpsAgent: { keepAlive: true, maxSockets: 256 },
      },
    });
  }

  private objectKey(key: string): string {
    return this.prefix + blobPath(key);
  }

  /** A fault of the store (not of the request) as the 503 every caller knows, logged once with its cause. */
  private unavailable(err: unknown, doing: string, key: string, message?: string): StorageUnavailableError {
    const code = codeOf(err);
    this.log?.error(
      { err, code, key, store: this.description },
      `the object store failed while ${doing}: ${code}`,
    );
    return new StorageUnavailableError(code, err, message);
  }

  /** Lists one key: the bucket must exist, the credentials be accepted, and listing allowed (the sweep lists). */
  async check(): Promise<void> {
    try {
      await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, MaxKeys: 1 }),
      );
    } catch (err) {
      throw this.unusable(err);
    }
  }

  private unusable(err: unknown): BlobStoreUnusableError {
    const code = codeOf(err);
    const status = statusOf(err);
    const where = this.opts.endpoint ?? `AWS S3 in ${this.opts.region}`;
    const detail = err instanceof Error && err.message && err.message !== code ? `: ${err.message}` : '';
    if (NO_BUCKET.has(code) || (status === 404 && code !== 'NoSuchKey'))
      return new BlobStoreUnusableError(
        `Cannot use the object store: there is no bucket "${this.bucket}" at ${where}. Create it, or set S3_BUCKET to one that exists.`,
      );
    if (REFUSED_CREDENTIALS.has(code) || (status === 403 && code !== 'AccessDenied'))
      return new BlobStoreUnusableError(
        `Cannot use the object store: ${where} refused the credentials (${code}${detail}). Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`,
      );
    if (code === 'AccessDenied')
      return new BlobStoreUnusableError(
        `Cannot use the object store: the credentials may not list the bucket "${this.bucket}" at ${where} (AccessDenied). They need to list, read, write and delete its objects.`,
      );
    if (status === undefined)
      return new BlobStoreUnusableError(
        `Cannot reach the object store at ${where} (${code}${detail}). Check S3_ENDPOINT${this.opts.endpoint ? '' : ' and S3_REGION'}.`,
      );
    return new BlobStoreUnusableError(
      `Cannot use the object store: the bucket "${this.bucket}" at ${where} answered ${status} ${code}${detail}.`,
    );
  }

  async put(data: Buffer) {
    const key = sha256(data);
    const Key = this.objectKey(key);
    let created = true;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      created = false;
    } catch (err) {
      if (!MISSING.has(codeOf(err)) && statusOf(err) !== 404)
        throw this.unavailable(err, 'looking for a blob', key);
    }
    // Written even when it is there: a new LastModified keeps the start-up sweep of another process from
    // taking it for an orphan while the upload that names it is still to commit, as the local store's
    // touch does. (A copy onto itself would save the bytes, but not every S3-compatible service gives it a
    // new date.) Content-addressed, so the bytes are the same.
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: data,
          ContentLength: data.length,
          ContentType: 'application/octet-stream',
        }),
      );
    } catch (err) {
      throw this.unavailable(err, 'storing a blob', key);
    }
    return { key, sha256: key, size: data.length, created };
  }

  async putStream(key: string, size: number, source: Readable): Promise<void> {
    const body = checkedStream(source, key, size);
    // A refused stream ends the request at once (the client would otherwise wait for the bytes it was
    // promised), one chunk short of what the store would keep.
    const abort = new AbortController();
    body.once('error', (err) => abort.abort(err));
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Body: body,
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
        { abortSignal: abort.signal },
      );
    } catch (err) {
      body.destroy();
      // S3 never keeps an upload cut short of its Content-Length, but some compatible servers (s3rver, the
      // tests' server) keep what arrived, and may finish keeping it after the SDK has given up on the request:
      // a partial object is no blob of this key, whoever wrote it, so it is looked for again a moment later.
      // (A partial object left all the same is harmless: every put writes its key again, and the start-up
      // sweep removes blobs nothing names.)
      for (const wait of [0, 100, 400]) {
        if (wait) await delay(wait);
        const left = await this.size(key).catch(() => null);
        if (left !== null && left !== size) await this.delete(key).catch(() => undefined);
      }
      // The check's own refusal, rather than the SDK's account of the request it cut short.
      const damaged = (body as { errored?: unknown }).errored;
      if (damaged instanceof Error && damaged.name === 'BlobDamagedError') throw damaged;
      throw this.unavailable(err, 'copying a blob in', key);
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (MISSING.has(codeOf(err))) throw new BlobMissingError(key);
      throw this.unavailable(err, 'reading a blob', key, STORAGE_UNREADABLE_MESSAGE);
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return head.ContentLength ?? null;
    } catch (err) {
      if (MISSING.has(codeOf(err)) || statusOf(err) === 404) return null;
      throw this.unavailable(err, 'looking for a blob', key, STORAGE_UNREADABLE_MESSAGE);
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** The blobs under the prefix, with their dates; other objects in the bucket are left out. */
  private async *objects(): AsyncGenerator<{ key: string; size: number; modified: Date; path: string }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix,
          ContinuationToken: token,
          MaxKeys: this.pageSize,
        }),
      );
      for (const o of page.Contents ?? []) {
        const path = o.Key?.slice(this.prefix.length) ?? '';
        const key = path.slice(6);
        if (!BLOB_KEY.test(key) || path !== blobPath(key)) continue;
        yield { key, size: o.Size ?? 0, modified: o.LastModified ?? new Date(), path };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async *list(): AsyncIterable<{ key: string; size: number }> {
    for await (const o of this.objects()) yield { key: o.key, size: o.size };
  }

  async sweep({ olderThan, named }: Parameters<BlobStore['sweep']>[0]): Promise<SweepResult> {
    const result: SweepResult = { removed: [], bytes: 0, failures: [] };
    const sweepBatch = async (batch: { key: string; size: number; path: string }[]) => {
      const keep = await named(batch.map((b) => b.key));
      for (const b of batch) {
        if (keep.has(b.key)) continue;
        try {
          await this.delete(b.key);
          result.removed.push(b.path);
          result.bytes += b.size;
        } catch (err) {
          result.failures.push({ path: b.path, error: codeOf(err) });
        }
      }
    };
    let batch: { key: string; size: number; path: string }[] = [];
    try {
      for await (const o of this.objects()) {
        if (o.modified >= olderThan) continue;
        batch.push(o);
        if (batch.length === 500) {
          await sweepBatch(batch);
          batch = [];
        }
      }
      if (batch.length) await sweepBatch(batch);
    } catch (err) {
      result.failures.push({
        path: '.',
        error: `${codeOf(err)}${err instanceof Error ? `: ${err.message}` : ''}`,
      });
    }
    return result;
  }
}
