import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../clock.ts';
import { type TestContext, createTestContext, fixture } from '../testing/harness.ts';
import { BlobMissingError } from './blob-store.ts';
import { FileService, SWEEP_MIN_AGE_MS } from './service.ts';
import { storedFiles } from './tables.ts';
import type { CheckedUpload } from './uploads.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

const upload = (data: Buffer): CheckedUpload => ({
  field: 'pdf',
  filename: 'same.pdf',
  data,
  kind: 'pdf',
  mediaType: 'application/pdf',
});

describe('FileService.withStoredFiles', () => {
  it('a failed upload does not delete a blob that a concurrent upload of the same bytes goes on to keep', async () => {
    const files = t.services.files;
    const data = Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% ${Date.now()}\n%%EOF\n`)]);
    // Let the first upload fail only once the second has stored the same bytes (and not yet its row). PGlite
    // runs one transaction at a time, which hides the race; the PostgreSQL run of this file shows it.
    let secondStored!: () => void;
    const stored = new Promise<void>((resolve) => {
      secondStored = resolve;
    });
    const put = files.blobs.put.bind(files.blobs);
    let puts = 0;
    files.blobs.put = async (bytes) => {
      const r = await put(bytes);
      if (++puts === 2) secondStored();
      return r;
    };
    try {
      const first = files.withStoredFiles([upload(data)], async () => {
        await stored;
        throw new Error('the first upload fails after its file is stored');
      });
      const second = files.withStoredFiles([upload(data)], async (_tx, [file]) => file);
      await expect(first).rejects.toThrow('the first upload fails');
      const kept = await second;
      expect(await files.blobs.size(kept.key)).toBe(data.length);
      const stream = await files.open(kept);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(data)).toBe(true);
    } finally {
      files.blobs.put = put;
    }
  });

  it('a failed upload alone leaves no blob behind', async () => {
    const files = t.services.files;
    const data = Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% alone ${Date.now()}\n%%EOF\n`)]);
    let key = '';
    await expect(
      files.withStoredFiles([upload(data)], async (_tx, [file]) => {
        key = file.key;
        throw new Error('fails');
      }),
    ).rejects.toThrow('fails');
    expect(await files.blobs.size(key)).toBeNull();
  });
});

describe('FileService.sweepLeftovers (at start-up)', () => {
  it('removes what a killed upload left (old orphan blobs and .tmp files) and logs it; keeps every file a row names and anything young', async () => {
    const store = t.services.files.blobs;
    const root = path.join(t.dataDir, 'files');
    const logged: { obj: { removed?: string[]; bytes?: number }; msg?: string }[] = [];
    const files = new FileService(t.services.db, store, {
      clock: t.clock,
      log: { info: (obj, msg) => logged.push({ obj: obj as never, msg }), warn: () => undefined },
    });
    const pathOf = (key: string) => path.join(root, key.slice(0, 2), key.slice(2, 4), key);
    const unique = (what: string) =>
      Buffer.concat([fixture('manuscript.pdf'), Buffer.from(`\n% ${what} ${Math.random()}\n%%EOF\n`)]);
    const ago = (ms: number) => new Date(t.clock.now() - ms);

    // A committed upload, old.
    const kept = await files.withStoredFiles([upload(unique('kept'))], async (_tx, [file]) => file);
    utimesSync(pathOf(kept.key), ago(3 * HOUR), ago(3 * HOUR));
    // A process killed between the last byte and the commit: its blob is stored, no row names it.
    const orphan = await store.put(unique('orphan'));
    utimesSync(pathOf(orphan.key), ago(2 * HOUR), ago(2 * HOUR));
    // A process killed (or a disk that filled up) in the middle of writing: a .tmp beside.
    const tmpFile = `${pathOf(orphan.key)}.deadbeef0001.tmp`;
    writeFileSync(tmpFile, Buffer.alloc(1000));
    utimesSync(tmpFile, ago(2 * HOUR), ago(2 * HOUR));
    // An upload in flight right now (in this or another process): young, left alone.
    const young = await store.put(unique('young'));
    utimesSync(pathOf(young.key), ago(SWEEP_MIN_AGE_MS - 60_000), ago(SWEEP_MIN_AGE_MS - 60_000));
    const youngTmp = `${pathOf(young.key)}.deadbeef0002.tmp`;
    writeFileSync(youngTmp, 'being written');

    const swept = await files.sweepLeftovers();
    const rel = (p: string) => path.relative(root, p);
    expect(swept.removed.sort()).toEqual([rel(pathOf(orphan.key)), rel(tmpFile)].sort());
    expect(swept.bytes).toBe(orphan.size + 1000);
    expect(existsSync(pathOf(orphan.key))).toBe(false);
    expect(existsSync(tmpFile)).toBe(false);
    expect(await store.size(kept.key)).toBe(kept.size);
    expect(existsSync(pathOf(young.key))).toBe(true);
    expect(existsSync(youngTmp)).toBe(true);
    // Every file of the seed and of the tests above is named by a row: all still there.
    for (const row of await t.services.db.select().from(storedFiles))
      expect(await store.size(row.key)).toBe(row.size);
    expect(logged).toHaveLength(1);
    expect(logged[0].obj.removed?.sort()).toEqual(swept.removed.sort());
    expect(logged[0].msg).toMatch(/removed 2 leftover upload file\(s\)/);

    // Later, the young orphan is old: the next start-up removes it, and says nothing when nothing is left.
    t.clock.advance(2 * HOUR);
    expect((await files.sweepLeftovers()).removed.sort()).toEqual(
      [rel(pathOf(young.key)), rel(youngTmp)].sort(),
    );
    expect((await files.sweepLeftovers()).removed).toEqual([]);
    expect(logged).toHaveLength(2);
  });
});

describe('FileService.personalProperties', () => {
  it('reads a stored file once for its properties, and again for other content or once the file is readable', async () => {
    const files = new FileService(t.services.db, t.services.files.blobs);
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(fixture('manuscript.pdf'));
    doc.setAuthor('Ada Authorname');
    const named = Buffer.from(await doc.save());
    const [a, b] = await files.withStoredFiles(
      [upload(named), upload(fixture('manuscript.pdf'))],
      async (_tx, rows) => rows,
    );
    const read = files.blobs.read.bind(files.blobs);
    let reads = 0;
    files.blobs.read = async (key) => {
      reads++;
      return read(key);
    };
    const first = await files.personalProperties(a);
    expect(first.properties.map((p) => p.value)).toContain('Ada Authorname');
    // The same content again, under another row too: no new read.
    expect(await files.personalProperties(a)).toBe(first);
    expect(await files.personalProperties({ ...a, id: a.id + 1000 })).toBe(first);
    expect(reads).toBe(1);
    expect((await files.personalProperties(b)).properties).toEqual([]);
    expect(reads).toBe(2);

    // A file missing from storage is an error, not kept: once it is back, it is read.
    files.blobs.read = async (key) => {
      throw new BlobMissingError(key);
    };
    const missing = { ...a, sha256: 'f'.repeat(64) };
    await expect(files.personalProperties(missing)).rejects.toThrow(/missing from storage/);
    files.blobs.read = async (key) => {
      reads++;
      return read(key);
    };
    expect((await files.personalProperties({ ...missing, key: a.key })).properties.length).toBeGreaterThan(0);
  });
});
