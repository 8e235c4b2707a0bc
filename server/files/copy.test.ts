import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestS3Server, startS3Server } from '../testing/s3-server.ts';
import { LocalBlobStore, blobPath, sha256 } from './blob-store.ts';
import { type CopyCounts, copyBlobs, progressLine } from './copy.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** `files copy` between the local store and an S3-protocol server (s3rver) on loopback, both ways. */
let s3: TestS3Server;
let bucket = 0;
const freshS3 = () => new S3BlobStore(s3.options('copies', { prefix: `run-${++bucket}/` }));
const freshLocal = () =>
  new LocalBlobStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'colophon-copy-')), 'files'));
const filesUnder = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);

beforeAll(async () => {
  s3 = await startS3Server(['copies']);
}, 60_000);
afterAll(async () => {
  await s3?.stop();
});

const read = async (store: { read(key: string): Promise<NodeJS.ReadableStream> }, key: string) => {
  const chunks: Buffer[] = [];
  for await (const c of await store.read(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

async function fill(store: LocalBlobStore | S3BlobStore, n: number) {
  const blobs: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const data = randomBytes(1000 + i * 20_000);
    await store.put(data);
    blobs.push(data);
  }
  return blobs;
}

describe('copyBlobs', () => {
  it('copies every local blob to S3, checked; a second run finds them all there', async () => {
    const local = freshLocal();
    const remote = freshS3();
    const blobs = await fill(local, 5);
    const seen: CopyCounts[] = [];
    const first = await copyBlobs(local, remote, { onProgress: (c) => seen.push(c) });
    expect(first).toMatchObject({
      total: 5,
      copied: 5,
      skipped: 0,
      failed: 0,
      failures: [],
      interrupted: false,
    });
    expect(first.bytesTotal).toBe(blobs.reduce((n, b) => n + b.length, 0));
    for (const b of blobs) expect((await read(remote, sha256(b))).equals(b)).toBe(true);
    expect(seen.map((c) => c.done)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(progressLine(seen[5])).toMatch(/^\[#{24}\] 100% {2}5\/5 files, .* \(0 already there, 0 failed\)$/);

    const again = await copyBlobs(local, remote);
    expect(again).toMatchObject({ total: 5, copied: 0, skipped: 5, failed: 0 });
  });

  it('resumes after an interruption: what was copied is skipped, the rest copied', async () => {
    const local = freshLocal();
    const remote = freshS3();
    await fill(local, 6);
    const stop = new AbortController();
    const cut = await copyBlobs(local, remote, {
      concurrency: 1,
      signal: stop.signal,
      onProgress: (c) => c.done === 2 && stop.abort(),
    });
    expect(cut).toMatchObject({ total: 6, done: 2, copied: 2, interrupted: true });
    let there = 0;
    for await (const _ of remote.list()) there++;
    expect(there).toBe(2);

    const resumed = await copyBlobs(local, remote);
    expect(resumed).toMatchObject({ total: 6, copied: 4, skipped: 2, failed: 0, interrupted: false });
  });

  it('refuses a damaged local blob (its bytes no longer hash to its name) and copies the rest', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'colophon-copy-'));
    const local = new LocalBlobStore(root);
    const remote = freshS3();
    const [damaged, ...rest] = await fill(local, 3);
    const key = sha256(damaged);
    const flipped = Buffer.from(damaged);
    flipped[500] ^= 0xff;
    writeFileSync(path.join(root, blobPath(key)), flipped);

    const result = await copyBlobs(local, remote);
    expect(result).toMatchObject({ total: 3, copied: 2, failed: 1 });
    expect(result.failures).toEqual([
      { key, error: `The blob ${key} is damaged: its bytes do not hash to its name.` },
    ]);
    expect(await remote.size(key)).toBeNull();
    for (const b of rest) expect(await remote.size(sha256(b))).toBe(b.length);
  });

  it('copies S3 back to local: checked, a damaged object refused with no file left, a short copy replaced', async () => {
    const remote = freshS3();
    const root = mkdtempSync(path.join(os.tmpdir(), 'colophon-copy-'));
    const local = new LocalBlobStore(root);
    const blobs = await fill(remote, 3);
    // An object whose bytes are not those its name says (written behind the store's back).
    const claimed = sha256(Buffer.from('what the name promises'));
    await remote.client.send(
      new PutObjectCommand({
        Bucket: 'copies',
        Key: `run-${bucket}/${blobPath(claimed)}`,
        Body: 'something else',
      }),
    );
    // A blob already in the destination, cut short (by a disk that filled up, say).
    await local.putStream(sha256(blobs[0]), blobs[0].length, (await remote.read(sha256(blobs[0]))) as never);
    writeFileSync(path.join(root, blobPath(sha256(blobs[0]))), blobs[0].subarray(0, 10));

    const result = await copyBlobs(remote, local);
    expect(result).toMatchObject({ total: 4, copied: 3, skipped: 0, failed: 1 });
    expect(result.failures[0].error).toContain(`The blob ${claimed} is damaged`);
    for (const b of blobs) expect((await read(local, sha256(b))).equals(b)).toBe(true);
    expect(await local.size(claimed)).toBeNull();
    expect(filesUnder(root).sort()).toEqual(blobs.map(sha256).sort()); // no .tmp left behind
  });
});
