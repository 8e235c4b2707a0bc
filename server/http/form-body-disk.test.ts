import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DISK_FULL, type DiskFileRule, readFormBody } from './form-body.ts';
import type { HttpError } from './errors.ts';

const BOUNDARY = 'xBOUNDARYx';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

function fieldPart(name: string, value: string) {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}
function fileHead(name: string, filename: string) {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/xml\r\n\r\n`,
  );
}
const END = Buffer.from(`--${BOUNDARY}--\r\n`);

/** A body made as it is read: a file of `size` bytes, in 64 KiB chunks, never whole in memory. */
function streamed(parts: Array<Buffer | { file: string; filename: string; size: number }>) {
  const queue = [...parts];
  let pending: { left: number } | null = null;
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pending) {
        const n = Math.min(pending.left, chunk.length);
        pending.left -= n;
        controller.enqueue(chunk.subarray(0, n));
        if (pending.left === 0) {
          pending = null;
          controller.enqueue(Buffer.from('\r\n'));
        }
        return;
      }
      const next = queue.shift();
      if (!next) {
        controller.enqueue(END);
        controller.close();
        return;
      }
      if (Buffer.isBuffer(next)) controller.enqueue(next);
      else {
        controller.enqueue(fileHead(next.file, next.filename));
        pending = { left: next.size };
        if (next.size === 0) {
          pending = null;
          controller.enqueue(Buffer.from('\r\n'));
        }
      }
    },
  });
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'form-disk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rule = (over: Partial<DiskFileRule> = {}): Record<string, DiskFileRule> => ({
  file: { dir, maxBytes: 1024 * 1024, maxFiles: 3, ...over },
});

describe('form bodies with files streamed to disk', () => {
  it('writes each file of the field into the folder, and reads the text fields around them', async () => {
    const body = await readFormBody(
      streamed([
        fieldPart('journal', 'jeii'),
        { file: 'file', filename: 'native.xml', size: 1000 },
        { file: 'file', filename: 'C:\\exports\\users export.xml', size: 10 },
        fieldPart('dryRun', 'true'),
      ]),
      TYPE,
      { maxTextBytes: 1024, toDisk: rule() },
    );
    expect(body.refused).toBeUndefined();
    expect(body.fields.get('journal')).toEqual(['jeii']);
    expect(body.fields.get('dryRun')).toEqual(['true']);
    expect(body.saved.map((f) => [f.filename, f.size])).toEqual([
      ['native.xml', 1000],
      ['users export.xml', 10],
    ]);
    // Stored under names of our own, inside the folder, whatever the name sent.
    expect((await readdir(dir)).sort()).toEqual(['1-native.xml', '2-users_export.xml']);
    for (const f of body.saved) expect(path.dirname(f.path)).toBe(dir);
    expect((await readFile(body.saved[0].path)).length).toBe(1000);
  });

  it('refuses a body past the limit with 413, and leaves no file behind', async () => {
    const body = await readFormBody(
      streamed([
        { file: 'file', filename: 'small.xml', size: 1000 },
        { file: 'file', filename: 'big.xml', size: 3 * 1024 * 1024 },
      ]),
      TYPE,
      { maxTextBytes: 1024, toDisk: rule({ tooLarge: 'Too large for an import.' }) },
    );
    expect(body.refused?.status).toBe(413);
    expect(body.refused?.message).toBe('Too large for an import.');
    expect(body.saved).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses more files than the field takes (400), leaving none', async () => {
    const err = await readFormBody(
      streamed([
        { file: 'file', filename: 'a.xml', size: 10 },
        { file: 'file', filename: 'b.xml', size: 10 },
      ]),
      TYPE,
      { maxTextBytes: 1024, toDisk: rule({ maxFiles: 1 }) },
    ).catch((e: HttpError) => e);
    expect((err as HttpError).status).toBe(400);
    expect((err as HttpError).errors).toEqual({ file: 'Choose at most 1 files.' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('answers a full disk with 507 in words, and removes what was begun', async () => {
    const err = await readFormBody(streamed([{ file: 'file', filename: 'a.xml', size: 200 * 1024 }]), TYPE, {
      maxTextBytes: 1024,
      // /dev/full fails every write with ENOSPC, as a full disk does.
      toDisk: rule({ createStream: () => createWriteStream('/dev/full') }),
    }).catch((e: HttpError) => e);
    expect((err as HttpError).status).toBe(507);
    expect((err as HttpError).message).toBe(DISK_FULL);
    expect(await readdir(dir)).toEqual([]);
  });

  it('streams 50 MB to disk without holding it: the heap grows by far less than the file', async () => {
    const size = 50 * 1024 * 1024;
    global.gc?.();
    const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    let peak = before;
    const timer = setInterval(() => {
      const now = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
      if (now > peak) peak = now;
    }, 5);
    try {
      const body = await readFormBody(streamed([{ file: 'file', filename: 'native.xml', size }]), TYPE, {
        maxTextBytes: 1024,
        toDisk: rule({ maxBytes: 64 * 1024 * 1024 }),
      });
      expect(body.saved[0].size).toBe(size);
    } finally {
      clearInterval(timer);
    }
    expect(peak - before).toBeLessThan(size / 4);
  });
});
