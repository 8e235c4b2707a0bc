import { existsSync } from 'node:fs';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../../server/clock.ts';
import { blobPath, sha256 } from '../../server/files/blob-store.ts';
import { S3BlobStore } from '../../server/files/s3-blob-store.ts';
import { storedFiles } from '../../server/files/tables.ts';
import { submissionFiles } from '../../server/submissions/tables.ts';
import { type TestContext, createTestContext, fixture, postMultipart } from '../../server/testing/harness.ts';
import { type TestS3Server, startS3Server } from '../../server/testing/s3-server.ts';

/**
 * Uploads and downloads through the real HTTP layer with the files in an S3-compatible object store
 * (s3rver on loopback): the same headers as on disk, Range requests, and no orphan left by a failed upload.
 */
let s3: TestS3Server;
let t: TestContext;
let store: S3BlobStore;
let author: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  s3 = await startS3Server(['journal']);
  store = new S3BlobStore(s3.options('journal'));
  t = await createTestContext({}, { blobs: () => store });
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  admin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

const pdf = fixture('manuscript.pdf');
const manuscriptFields = {
  title: 'Energy-aware task offloading for battery-powered IoT gateways',
  articleType: 'Research Article',
  keywords: 'IoT, edge computing, offloading, energy',
  abstract: 'We schedule offloading to save energy on gateways.',
  authors: JSON.stringify([{ name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras' }]),
};

async function submitted(): Promise<{ url: string; key: string }> {
  const res = await postMultipart(t.app, '/api/submission/submit', author, manuscriptFields, {
    submissionFile: { name: 'offloading.pdf', data: pdf },
  });
  expect(res.statusCode).toBe(201);
  const id = res.json().id as number;
  const [row] = await t.services.db
    .select({ id: storedFiles.id, key: storedFiles.key })
    .from(submissionFiles)
    .innerJoin(storedFiles, eq(storedFiles.id, submissionFiles.fileId))
    .where(eq(submissionFiles.submissionId, id));
  return { url: `/api/submissions/${id}/files/${row.id}`, key: row.key };
}

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...author, ...headers } });

describe('files in the object store, through the API', () => {
  it('an upload lands in the bucket, not on disk; its download has the same headers as from disk, and the bytes', async () => {
    const { url, key } = await submitted();
    expect(key).toBe(sha256(pdf));
    expect(await store.size(key)).toBe(pdf.length);
    expect(existsSync(path.join(t.dataDir, 'files'))).toBe(false);

    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(pdf)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(pdf.length),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
      etag: `"${key}"`,
    });
    expect(res.headers['content-disposition']).toMatch(/^attachment; .*offloading\.pdf/);
  });

  it('answers a Range with the part asked for (206), a range past the end with 416, and ignores a stale If-Range', async () => {
    const { url, key } = await submitted();
    const first = await get(url, { range: 'bytes=0-99' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${pdf.length}`);
    expect(first.headers['content-length']).toBe('100');
    expect(first.rawPayload.equals(pdf.subarray(0, 100))).toBe(true);

    const last = await get(url, { range: 'bytes=-50' });
    expect(last.statusCode).toBe(206);
    expect(last.rawPayload.equals(pdf.subarray(-50))).toBe(true);

    const rest = await get(url, { range: `bytes=${pdf.length - 10}-`, 'if-range': `"${key}"` });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes ${pdf.length - 10}-${pdf.length - 1}/${pdf.length}`);
    expect(rest.rawPayload.equals(pdf.subarray(-10))).toBe(true);

    const past = await get(url, { range: `bytes=${pdf.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${pdf.length}`);
    expect(past.json().message).toBe('The range asked for starts past the end of the file.');

    const stale = await get(url, { range: 'bytes=0-99', 'if-range': '"another-version"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(pdf)).toBe(true);
    const several = await get(url, { range: 'bytes=0-9,20-29' });
    expect(several.statusCode).toBe(200);
    expect(several.headers['content-length']).toBe(String(pdf.length));
  });

  it("an article's PDF: whole, and by range for a PDF reader; only the whole file counts as a download", async () => {
    const vol = await t.app.inject({
      method: 'POST',
      url: '/api/editor/volume',
      headers: admin,
      payload: { title: 'Volume 1', volume_number: 1, year: 2026 },
    });
    const issue = await t.app.inject({
      method: 'POST',
      url: '/api/editor/issue',
      headers: admin,
      payload: { volume_id: vol.json().volume.id, title: 'Issue 1', description: 'The first issue.' },
    });
    expect(issue.statusCode, issue.body).toBe(201);
    const up = await postMultipart(
      t.app,
      '/api/articles/admin/upload',
      admin,
      {
        title: 'Federated anomaly detection on LoRa sensor networks',
        abstract: 'We study anomaly detection across gateways.',
        keywords: 'IoT, LoRa, anomaly detection, federated learning',
        pages: '1-10',
        doi: '10.5555/cjei.s3.001',
        issue_id: String(issue.json().issue.id),
        authors: JSON.stringify([
          { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University' },
        ]),
      },
      { pdf: { name: 'article.pdf', data: pdf, type: 'application/pdf' } },
    );
    expect(up.statusCode, up.body).toBe(201);
    const url = `/api/articles/${up.json().article.id}/download`;
    const counted: string[] = [];
    const track = t.services.metrics.track.bind(t.services.metrics);
    t.services.metrics.track = (kind, ...rest) => {
      counted.push(kind);
      return track(kind, ...rest);
    };
    try {
      const part = await get(url, { range: 'bytes=100-1123' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-type']).toBe('application/pdf');
      expect(part.rawPayload.equals(pdf.subarray(100, 1124))).toBe(true);
      expect(counted).toEqual([]);
      const whole = await get(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(pdf)).toBe(true);
      expect(whole.headers['content-disposition']).toMatch(/^attachment; filename=".*\.pdf"/);
      expect(counted).toEqual(['download']);
    } finally {
      t.services.metrics.track = track;
    }
  });

  it('a failed upload leaves no object in the bucket; the start-up sweep removes old orphans and keeps named blobs', async () => {
    const before = (await t.blobFiles()).sort();
    const original = t.services.audit.record.bind(t.services.audit);
    t.services.audit.record = async () => {
      throw new Error('simulated failure after the file was stored');
    };
    try {
      const unique = Buffer.concat([pdf, Buffer.from(`\n% ${Date.now()} ${Math.random()}\n%%EOF\n`)]);
      const res = await postMultipart(t.app, '/api/submission/submit', author, manuscriptFields, {
        submissionFile: { name: 'unique.pdf', data: unique },
      });
      expect(res.statusCode).toBe(500);
      expect(await store.size(sha256(unique))).toBeNull();
    } finally {
      t.services.audit.record = original;
    }
    expect((await t.blobFiles()).sort()).toEqual(before);

    // What a process killed between storing and committing leaves: an object no row names.
    const orphan = Buffer.from('an upload whose process died before its commit');
    await store.client.send(
      new PutObjectCommand({ Bucket: 'journal', Key: blobPath(sha256(orphan)), Body: orphan }),
    );
    expect((await t.services.files.sweepLeftovers()).removed).toEqual([]); // young: it may be in flight
    t.clock.advance(2 * HOUR);
    const swept = await t.services.files.sweepLeftovers();
    expect(swept).toEqual({ removed: [blobPath(sha256(orphan))], bytes: orphan.length, failures: [] });
    expect((await t.blobFiles()).sort()).toEqual(before);
  });
});
