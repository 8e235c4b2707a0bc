import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestS3Server, startS3Server } from '../testing/s3-server.ts';
import {
  BlobDamagedError,
  BlobMissingError,
  BlobStoreUnusableError,
  STORAGE_UNAVAILABLE_MESSAGE,
  StorageUnavailableError,
  blobPath,
  sha256,
} from './blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/**
 * The S3 blob store against a real S3-protocol server (s3rver) on loopback, through the official client.
 */
let s3: TestS3Server;
let store: S3BlobStore;

beforeAll(async () => {
  s3 = await startS3Server(['blobs', 'other']);
  store = new S3BlobStore(s3.options('blobs'));
}, 60_000);
afterAll(async () => {
  await s3?.stop();
});

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const chunked = (data: Buffer, size = 1000) =>
  Readable.from(
    Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size)),
  );

describe('S3BlobStore', () => {
  it('puts bytes under their SHA-256, reads them whole and by range, knows their size, deletes them', async () => {
    const data = randomBytes(70_000);
    const put = await store.put(data);
    expect(put).toEqual({ key: sha256(data), sha256: sha256(data), size: data.length, created: true });
    expect((await store.put(data)).created).toBe(false);

    expect((await read(await store.read(put.key))).equals(data)).toBe(true);
    const part = await read(await store.read(put.key, { start: 1000, end: 1999 }));
    expect(part.equals(data.subarray(1000, 2000))).toBe(true);
    const tail = await read(await store.read(put.key, { start: data.length - 10, end: data.length - 1 }));
    expect(tail.equals(data.subarray(-10))).toBe(true);
    expect(await store.size(put.key)).toBe(data.length);

    await store.delete(put.key);
    expect(await store.size(put.key)).toBeNull();
    await expect(store.read(put.key)).rejects.toBeInstanceOf(BlobMissingError);
    await store.delete(put.key); // deleting what is gone is no error
  });

  it('lists its blobs page by page, under its prefix only, leaving other objects out', async () => {
    const small = new S3BlobStore(s3.options('other', { prefix: 'journal-a/' }), { pageSize: 2 });
    const neighbour = new S3BlobStore(s3.options('other', { prefix: 'journal-b/' }));
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) keys.push((await small.put(Buffer.from(`blob ${i}`))).key);
    await neighbour.put(Buffer.from('a blob of another journal'));
    await small.client.send(
      new PutObjectCommand({ Bucket: 'other', Key: 'journal-a/README.txt', Body: 'not a blob' }),
    );
    await small.client.send(
      new PutObjectCommand({
        Bucket: 'other',
        Key: `journal-a/${keys[0]}`,
        Body: 'a blob name outside its folders',
      }),
    );
    const listed: { key: string; size: number }[] = [];
    for await (const b of small.list()) listed.push(b);
    expect(listed.map((b) => b.key).sort()).toEqual([...keys].sort());
    expect(listed.find((b) => b.key === keys[2])?.size).toBe('blob 2'.length);
  });

  it('putStream stores a stream whose bytes match their name, and refuses a damaged one leaving nothing', async () => {
    const data = randomBytes(300_000);
    const key = sha256(data);
    await store.putStream(key, data.length, chunked(data, 16_384));
    expect((await read(await store.read(key))).equals(data)).toBe(true);

    const damaged = Buffer.from(randomBytes(50_000));
    const claimed = sha256(damaged);
    damaged[49_999] ^= 1; // the very last byte: only the end of the stream can tell
    const err = await store.putStream(claimed, damaged.length, chunked(damaged)).catch((e) => e);
    expect(err).toBeInstanceOf(BlobDamagedError);
    expect(err.message).toContain(claimed);
    expect(await store.size(claimed)).toBeNull();

    const short = await store.putStream(claimed, 50_001, chunked(damaged)).catch((e) => e);
    expect(short).toBeInstanceOf(BlobDamagedError);
    expect(await store.size(claimed)).toBeNull();
  });

  it('sweeps old blobs no row names; keeps named ones and young ones', async () => {
    const sweeper = new S3BlobStore(s3.options('other', { prefix: 'sweep/' }));
    const named = await sweeper.put(Buffer.from('a blob a row names'));
    const orphan = await sweeper.put(Buffer.from('a blob nobody committed'));
    const none = await sweeper.sweep({
      olderThan: new Date(Date.now() - 3_600_000),
      named: async () => new Set(),
    });
    expect(none).toEqual({ removed: [], bytes: 0, failures: [] });

    const asked: string[] = [];
    const swept = await sweeper.sweep({
      olderThan: new Date(Date.now() + 60_000),
      named: async (keys) => {
        asked.push(...keys);
        return new Set([named.key]);
      },
    });
    expect(asked.sort()).toEqual([named.key, orphan.key].sort());
    expect(swept).toEqual({ removed: [blobPath(orphan.key)], bytes: orphan.size, failures: [] });
    expect(await sweeper.size(named.key)).toBe(named.size);
    expect(await sweeper.size(orphan.key)).toBeNull();
  });

  it('checks at start-up: a good bucket passes; a missing bucket and a refused credential are one line each', async () => {
    await store.check();
    const missing = await new S3BlobStore(s3.options('no-such-bucket')).check().catch((e) => e);
    expect(missing).toBeInstanceOf(BlobStoreUnusableError);
    expect(missing.message).toBe(
      `Cannot use the object store: there is no bucket "no-such-bucket" at ${s3.endpoint}. Create it, or set S3_BUCKET to one that exists.`,
    );
    const refused = await new S3BlobStore(s3.options('blobs', { accessKeyId: 'WRONG-KEY' }))
      .check()
      .catch((e) => e);
    expect(refused).toBeInstanceOf(BlobStoreUnusableError);
    expect(refused.message).toMatch(
      new RegExp(
        `^Cannot use the object store: ${s3.endpoint} refused the credentials \\(InvalidAccessKeyId: .*\\)\\. Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY\\.$`,
      ),
    );
    expect(refused.message).not.toContain('\n');
  });

  it('a refused credential on upload is the 503 of a storage fault, logged once with its cause', async () => {
    const logged: Record<string, unknown>[] = [];
    const wrong = new S3BlobStore(s3.options('blobs', { accessKeyId: 'WRONG-KEY' }), {
      log: { error: (o) => logged.push(o as Record<string, unknown>) },
    });
    const err = await wrong.put(randomBytes(100)).catch((e) => e);
    expect(err).toBeInstanceOf(StorageUnavailableError);
    expect(err).toMatchObject({ code: 'unavailable', fault: 'HTTP 403', message: STORAGE_UNAVAILABLE_MESSAGE });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ code: 'HTTP 403' });
  });
});

describe('S3BlobStore when the store does not answer', () => {
  it('start-up says it cannot reach it; an upload is a 503; a download too', async () => {
    const gone = await startS3Server(['blobs']);
    const options = gone.options('blobs');
    const key = (await new S3BlobStore(options).put(Buffer.from('stored before the store went away'))).key;
    await gone.stop();
    const lost = new S3BlobStore(options, { log: { error: () => undefined } });
    const start = await lost.check().catch((e) => e);
    expect(start).toBeInstanceOf(BlobStoreUnusableError);
    expect(start.message).toMatch(
      new RegExp(`^Cannot reach the object store at ${options.endpoint} \\(ECONNREFUSED`),
    );
    expect(await lost.put(Buffer.from('x')).catch((e) => e)).toMatchObject({
      code: 'unavailable',
      fault: 'ECONNREFUSED',
    });
    expect(await lost.read(key).catch((e) => e)).toMatchObject({
      code: 'unavailable',
      message: 'The file store is not answering; please try again later.',
    });
  }, 60_000);
});
