import { describe, expect, it } from 'vitest';
import { addressOrRangeProblem } from '../../common/preservation.ts';
import { decodeManifestPath, encodeManifestPath, humanSize, makeBag, unzipBag, zipBag } from './bagit.ts';
import { checkBag } from './check.ts';
import { addressAllowed } from './service.ts';

const at = new Date('2026-03-04T05:06:07Z');

describe('BagIt bags (RFC 8493)', () => {
  it('percent-encodes %, CR and LF in manifest paths, and reads them back', () => {
    expect(encodeManifestPath('data/a%b\r\nc.txt')).toBe('data/a%25b%0D%0Ac.txt');
    expect(decodeManifestPath('data/a%25b%0D%0Ac%20.txt')).toBe('data/a%b\r\nc%20.txt');
    const bag = makeBag([{ path: 'odd%name\nhere.txt', data: Buffer.from('x') }], [], at);
    expect(bag.get('manifest-sha256.txt')!.toString()).toMatch(/ {2}data\/odd%25name%0Ahere\.txt\n$/);
    expect(checkBag(bag)).toEqual([]);
  });

  it('writes bag-info.txt with the date, Payload-Oxum and Bag-Size, and a tag manifest of the tag files', () => {
    const bag = makeBag(
      [
        { path: 'a.txt', data: Buffer.from('hello') },
        { path: 'b/c.bin', data: Buffer.alloc(2000) },
      ],
      [['Source-Organization', 'Publisher\nof things']],
      at,
    );
    expect(bag.get('bag-info.txt')!.toString()).toBe(
      'Source-Organization: Publisher of things\nBagging-Date: 2026-03-04\nPayload-Oxum: 2005.2\nBag-Size: 2.00 KB\n',
    );
    const tags = bag.get('tagmanifest-sha256.txt')!.toString();
    for (const name of ['bagit.txt', 'bag-info.txt', 'manifest-sha256.txt', 'manifest-sha512.txt'])
      expect(tags).toContain(`  ${name}\n`);
    expect(tags).not.toContain('data/');
    const { root, bag: back } = unzipBag(zipBag(bag, 'issue-1', at));
    expect(root).toBe('issue-1');
    expect(checkBag(back)).toEqual([]);
  });

  it('refuses payload paths that would leave data/', () => {
    for (const p of ['../x', '/etc/passwd', 'a//b', 'a\\b', ''])
      expect(() => makeBag([{ path: p, data: Buffer.from('') }], [], at)).toThrow(/makeBag/);
  });

  it('says sizes as a person reads them', () => {
    expect(humanSize(999)).toBe('999 bytes');
    expect(humanSize(1_500_000)).toBe('1.50 MB');
    expect(humanSize(25_000_000)).toBe('25.0 MB');
  });

  it('finds a bag without a manifest or with a wrong bagit.txt invalid', () => {
    const bag = makeBag([{ path: 'a.txt', data: Buffer.from('a') }], [], at);
    const without = new Map(bag);
    without.delete('manifest-sha256.txt');
    without.delete('manifest-sha512.txt');
    expect(checkBag(without)).toContain('No payload manifest (manifest-sha256.txt or manifest-sha512.txt).');
    without.delete('bagit.txt');
    expect(checkBag(without)).toContain('bagit.txt is missing.');
  });
});

describe('preservation crawlers’ addresses', () => {
  it('checks addresses and CIDR ranges, IPv4 and IPv6', () => {
    for (const ok of ['192.0.2.7', '192.0.2.0/24', '2001:db8::7', '2001:db8::/32', '0.0.0.0/0'])
      expect(addressOrRangeProblem(ok), ok).toBeNull();
    for (const bad of [
      '192.0.2.256',
      '192.0.2.0/33',
      '2001:db8::/129',
      'host.example',
      '192.0.2.0/24/1',
      '1.2.3',
    ])
      expect(addressOrRangeProblem(bad), bad).not.toBeNull();
  });

  it('matches a request’s address against the list', () => {
    const list = ['192.0.2.0/24', '2001:db8::7'];
    expect(addressAllowed(list, '192.0.2.200')).toBe(true);
    expect(addressAllowed(list, '::ffff:192.0.2.1')).toBe(true);
    expect(addressAllowed(list, '192.0.3.1')).toBe(false);
    expect(addressAllowed(list, '2001:db8::7')).toBe(true);
    expect(addressAllowed(list, '2001:db8::8')).toBe(false);
    expect(addressAllowed([], '192.0.2.1')).toBe(false);
  });
});
