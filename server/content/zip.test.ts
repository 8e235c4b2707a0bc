import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ZIP_LIMITS, ZipError, ZipExpandsError, guardZip, readZipDirectory, readZipEntry, replaceZipEntries, zip } from './zip.ts';
import { fixture } from '../testing/harness.ts';
import { wordZipBomb } from '../files/testing.ts';

describe('the ZIP reader', () => {
  it('reads what zip() writes, refuses a ceiling overrun, and a replaced entry round-trips', () => {
    const archive = zip([
      { name: 'a.txt', data: 'alpha' },
      { name: 'b.txt', data: 'bravo'.repeat(100) },
    ]);
    const directory = readZipDirectory(archive);
    expect(directory.entries.map((e) => e.name)).toEqual(['a.txt', 'b.txt']);
    expect(readZipEntry(archive, directory.entries[1], 1000).toString()).toBe('bravo'.repeat(100));
    expect(() => readZipEntry(archive, directory.entries[1], 499)).toThrow(/larger than 499 bytes/);
    const replaced = replaceZipEntries(archive, directory, new Map([['a.txt', Buffer.from('ALPHA!')]]));
    const again = readZipDirectory(replaced);
    expect(readZipEntry(replaced, again.entries[0], 100).toString()).toBe('ALPHA!');
    expect(readZipEntry(replaced, again.entries[1], 1000).toString()).toBe('bravo'.repeat(100));
  });

  it('a stored entry and one with a data descriptor are read and copied', () => {
    // Hand-made: entry 1 stored (method 0), entry 2 deflated with its sizes in a data descriptor (flag 8).
    const stored = Buffer.from('stored text');
    const packed = deflateRawSync(Buffer.from('described text'));
    const base = zip([
      { name: 's.txt', data: stored },
      { name: 'd.txt', data: 'described text' },
    ]);
    const dir = readZipDirectory(base);
    const [s, d] = dir.entries;
    const localS = Buffer.from(base.subarray(s.localStart, s.dataStart));
    localS.writeUInt16LE(0, 8);
    localS.writeUInt32LE(stored.length, 18);
    const localD = Buffer.from(base.subarray(d.localStart, d.dataStart));
    localD.writeUInt16LE(0x0808, 6);
    localD.writeUInt32LE(0, 14);
    localD.writeUInt32LE(0, 18);
    localD.writeUInt32LE(0, 22);
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(d.crc, 4);
    descriptor.writeUInt32LE(packed.length, 8);
    descriptor.writeUInt32LE(14, 12);
    const centralS = Buffer.from(base.subarray(s.centralStart, s.centralEnd));
    centralS.writeUInt16LE(0, 10);
    centralS.writeUInt32LE(stored.length, 20);
    const centralD = Buffer.from(base.subarray(d.centralStart, d.centralEnd));
    centralD.writeUInt16LE(0x0808, 8);
    const offsetD = localS.length + stored.length;
    centralD.writeUInt32LE(offsetD, 42);
    const locals = Buffer.concat([localS, stored, localD, packed, descriptor]);
    const end = Buffer.from(base.subarray(dir.endStart));
    end.writeUInt32LE(centralS.length + centralD.length, 12);
    end.writeUInt32LE(locals.length, 16);
    const archive = Buffer.concat([locals, centralS, centralD, end]);

    const read = readZipDirectory(archive);
    expect(read.entries[1].localEnd - read.entries[1].dataStart).toBe(packed.length + 16);
    expect(readZipEntry(archive, read.entries[0], 100).toString()).toBe('stored text');
    expect(readZipEntry(archive, read.entries[1], 100).toString()).toBe('described text');
    const copy = replaceZipEntries(archive, read, new Map([['s.txt', Buffer.from('new')]]));
    const copied = readZipDirectory(copy);
    expect(readZipEntry(copy, copied.entries[0], 100).toString()).toBe('new');
    expect(readZipEntry(copy, copied.entries[1], 100).toString()).toBe('described text');
    expect(copied.entries[1].flags & 0x08).toBe(8);
  });
});

const MB = 1024 * 1024;

describe('guardZip', () => {
  it('lets a real Word file through', async () => {
    await expect(guardZip(fixture('manuscript.docx'))).resolves.toBeUndefined();
  });

  it('refuses a document.xml that declares a gigabyte, before inflating it', async () => {
    // 40 MB of markup in 40 KB, its headers saying a gigabyte: refused by what the directory declares.
    const bomb = wordZipBomb({ inflated: 40 * MB, declared: 1024 * MB });
    const refused = await guardZip(bomb).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ZipExpandsError);
    expect((refused as Error).message).toMatch(
      /^The file expands too much once uncompressed: its part "word\/document\.xml" declares 1,024 MB \(\d+ times its compressed size\)/,
    );
  });

  it('refuses by the ratio an entry declares, under the size ceiling', async () => {
    const bomb = wordZipBomb({ inflated: 20 * MB });
    expect(20 * MB).toBeLessThan(ZIP_LIMITS.maxXmlBytes);
    await expect(guardZip(bomb)).rejects.toThrow(/"word\/document\.xml" declares 20 MB \(\d{3,} times/);
  });

  it('refuses an entry that inflates past what it declares, stopping there', async () => {
    // Declares 1 MB (a ratio nobody questions), holds 40.
    const bomb = wordZipBomb({ inflated: 40 * MB, declared: 1024 * 1024 - 1 });
    const refused = await guardZip(bomb).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ZipExpandsError);
    expect((refused as Error).message).toMatch(/"word\/document\.xml" expands past what it declares/);
  });

  it('refuses the whole by the total, and a damaged archive as unreadable', async () => {
    const limits = { ...ZIP_LIMITS, maxTotalBytes: 10_000 };
    await expect(guardZip(fixture('manuscript.docx'), limits)).rejects.toThrow(/brings the whole file to/);
    const damaged = Buffer.from(fixture('manuscript.docx').subarray(0, 2000));
    const err = await guardZip(damaged).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZipError);
    expect(err).not.toBeInstanceOf(ZipExpandsError);
  });
});
