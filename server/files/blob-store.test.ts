import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDomainError } from '../errors.ts';
import { faultyFs } from '../testing/faulty-fs.ts';
import { LocalBlobStore, STORAGE_UNAVAILABLE_MESSAGE, StorageUnavailableError } from './blob-store.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'colophon-blobs-'));
const filesIn = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);

function capturingLog() {
  const errors: Record<string, unknown>[] = [];
  return {
    errors,
    log: { warn: () => undefined, error: (o: unknown) => errors.push(o as Record<string, unknown>) },
  };
}

describe('LocalBlobStore on a failing disk', () => {
  it.each([
    ['ENOSPC', 'the disk fills up half-way through the write'],
    ['EDQUOT', 'the quota runs out half-way through the write'],
    ['EROFS', 'the folder is on a read-only file system'],
    ['EACCES', 'the folder may not be written'],
  ])('%s (%s): a 503 StorageUnavailableError, the cause logged, no partial file left', async (code) => {
    const root = tmp();
    const faults = faultyFs();
    const { errors, log } = capturingLog();
    const store = new LocalBlobStore(root, { fs: faults.fs, log });
    faults.fail(code);
    const data = Buffer.from(`bytes that do not fit ${code} ${Math.random()}`.repeat(100));
    const err = await store.put(data).catch((e) => e);
    expect(err).toBeInstanceOf(StorageUnavailableError);
    expect(isDomainError(err)).toBe(true);
    expect(err).toMatchObject({
      code: 'unavailable',
      fault: code,
      detail: {},
      storageFault: true,
      message: STORAGE_UNAVAILABLE_MESSAGE,
    });
    expect((err as Error).cause).toMatchObject({ code });
    expect(filesIn(root)).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code });

    // Once the disk is back, the same bytes are stored.
    faults.heal();
    const put = await store.put(data);
    expect(put.created).toBe(true);
    expect(filesIn(root)).toEqual([put.key]);
  });

  it('an error that is not the disk (a bug) is not dressed up as a 503, and still leaves no partial file', async () => {
    const root = tmp();
    const faults = faultyFs();
    const store = new LocalBlobStore(root, {
      fs: {
        ...faults.fs,
        writeFile: async (file, data) => {
          await faults.fs.writeFile(file, (data as Buffer).subarray(0, 10));
          throw new TypeError('a bug');
        },
      },
    });
    await expect(store.put(Buffer.from('some bytes for a bug'))).rejects.toThrow(TypeError);
    expect(filesIn(root)).toEqual([]);
  });
});

const mountWorks =
  spawnSync('unshare', ['--mount', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs "${tmp()}"`]).status === 0;
if (!mountWorks) {
  console.warn(
    '\n*** SKIPPED: the blob store on a really full or read-only disk is NOT tested: `unshare --mount` with a tmpfs mount is not permitted here (it needs root). The injected faults above still run. ***\n',
  );
}

describe.skipIf(!mountWorks)(
  'LocalBlobStore on a real full or read-only tmpfs (a mount namespace of its own)',
  () => {
    const putOn = (mountOptions: string, bytes: number) => {
      const root = tmp();
      const run = spawnSync(
        'unshare',
        [
          '--mount',
          'sh',
          '-c',
          `mount -t tmpfs -o ${mountOptions} tmpfs "$1" && exec "$2" --import tsx server/testing/put-blob.ts "$1" "$3"`,
          'sh',
          root,
          process.execPath,
          String(bytes),
        ],
        { encoding: 'utf8' },
      );
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout.trim().split('\n').pop() as string);
    };

    it('a disk that fills up: ENOSPC, 503, and the partial .tmp is gone', () => {
      const out = putOn('size=64k', 200_000);
      expect(out.error).toMatchObject({ name: 'StorageUnavailableError', code: 'unavailable', fault: 'ENOSPC' });
      expect(out.error.message).toBe(STORAGE_UNAVAILABLE_MESSAGE);
      expect(out.left).toEqual([]);
      expect(out.logged).toEqual(['ENOSPC']);
    }, 30_000);

    it('a read-only disk: EROFS, 503', () => {
      const out = putOn('ro,size=64k', 1000);
      expect(out.error).toMatchObject({ name: 'StorageUnavailableError', code: 'unavailable', fault: 'EROFS' });
      expect(out.left).toEqual([]);
    }, 30_000);
  },
);

describe('LocalBlobStore.sweep', () => {
  it('removes old .tmp files and old blobs no row names; keeps named blobs, young files, and anything else', async () => {
    const root = tmp();
    const store = new LocalBlobStore(root);
    const named = await store.put(Buffer.from('a blob a row names'));
    const orphan = await store.put(Buffer.from('a blob nobody committed'));
    const dir = path.join(root, orphan.key.slice(0, 2), orphan.key.slice(2, 4));
    writeFileSync(path.join(dir, `${orphan.key}.0a1b2c3d4e5f.tmp`), 'half a file');
    mkdirSync(path.join(root, 'zz'), { recursive: true });
    writeFileSync(path.join(root, 'zz', 'not-ours'), 'left alone');

    // Everything is younger than the limit: nothing goes.
    const none = await store.sweep({
      olderThan: new Date(Date.now() - 3_600_000),
      named: async () => new Set(),
    });
    expect(none.removed).toEqual([]);

    const asked: string[][] = [];
    const swept = await store.sweep({
      olderThan: new Date(Date.now() + 60_000),
      named: async (keys) => {
        asked.push(keys);
        return new Set([named.key]);
      },
    });
    expect(asked.flat().sort()).toEqual([named.key, orphan.key].sort());
    expect(swept.removed.sort()).toEqual(
      [
        path.join(dir.slice(root.length + 1), orphan.key),
        path.join(dir.slice(root.length + 1), `${orphan.key}.0a1b2c3d4e5f.tmp`),
      ].sort(),
    );
    expect(swept.bytes).toBe(orphan.size + 'half a file'.length);
    expect(swept.failures).toEqual([]);
    expect(await store.size(named.key)).toBe(named.size);
    expect(await store.size(orphan.key)).toBeNull();
    expect(filesIn(root).sort()).toEqual([named.key, 'not-ours'].sort());
  });

  it('a store that was never written to is swept without a word', async () => {
    const store = new LocalBlobStore(path.join(tmp(), 'files'));
    expect(await store.sweep({ olderThan: new Date(), named: async () => new Set() })).toEqual({
      removed: [],
      bytes: 0,
      failures: [],
    });
  });
});
