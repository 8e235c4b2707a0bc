import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, fixture } from '../testing/harness.ts';
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
