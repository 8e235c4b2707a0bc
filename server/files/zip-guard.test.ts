import { describe, expect, it } from 'vitest';
import { ZipError } from '../content/zip.ts';
import { fixture } from '../testing/harness.ts';
import { wordZipBomb } from './testing.ts';
import { ZIP_LIMITS, ZipExpandsError, guardZip } from './zip-guard.ts';

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
