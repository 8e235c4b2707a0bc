/**
 * The property scan and the copy without names, through the public entry (document-properties.ts), for .docx,
 * PDF and .doc alike. One file (about 550 lines): the same rules (what names a person, what a copy keeps) are
 * checked across the three kinds side by side.
 */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readZipDirectory, readZipEntry, replaceZipEntries, zip } from '../content/zip.ts';
import { extractText } from '../similarity/extract.ts';
import { fixture } from '../testing/harness.ts';
import type { DetectedKind } from './content-type.ts';
import {
  describeProperty,
  isPersonalCustomProperty,
  personalProperties,
  withoutPersonalProperties,
} from './document-properties.ts';
import {
  docWithAuthor,
  docWithWordTables,
  docxWithPeople,
  encryptedDoc,
  encryptedDocx,
  ownerLockedPdfWithAuthor,
  pdfWithEarlierAuthor,
  pdfWithPeople,
  pdfWithReplacedInfo,
  pdfWithUnreferencedInfo,
} from './testing.ts';

const described = async (bytes: Buffer, type: DetectedKind) =>
  (await personalProperties(bytes, type)).properties.map(describeProperty);

/** The copy, which must exist. */
async function copyOf(bytes: Buffer, type: DetectedKind): Promise<Buffer> {
  const copy = await withoutPersonalProperties(bytes, type);
  if (!copy.ok) throw new Error(`no copy: ${copy.message}`);
  return copy.bytes;
}

/** How pdf-lib writes a text string: UTF-16BE in a hex string, in capitals. */
const utf16Hex = (text: string) => Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase();

function entryText(docx: Buffer, name: string): string {
  const entry = readZipDirectory(docx).entries.find((e) => e.name === name);
  if (!entry) throw new Error(`no ${name}`);
  return readZipEntry(docx, entry, 1 << 20).toString('utf8');
}

describe('the fixture manuscripts, as LibreOffice and pdfTeX wrote them', () => {
  it.each([
    ['manuscript.docx', 'docx'],
    ['manuscript.doc', 'doc'],
    ['manuscript.pdf', 'pdf'],
    ['twocolumn.pdf', 'pdf'],
    ['scanned.pdf', 'pdf'],
    ['owner-locked.pdf', 'pdf'],
  ] as const)('%s names no one (the software that made it is not a person)', async (name, type) => {
    expect(await personalProperties(fixture(name), type)).toEqual({
      properties: [],
      removable: true,
      problem: null,
    });
    // With nothing to remove, the copy is the same bytes (a new buffer).
    const copy = await withoutPersonalProperties(fixture(name), type);
    expect(copy.ok && copy.bytes.equals(fixture(name))).toBe(true);
  });

  it('the fixture .docx given an author in its own properties: found, and the copy keeps every other entry byte for byte', async () => {
    const source = fixture('manuscript.docx');
    const directory = readZipDirectory(source);
    const core = entryText(source, 'docProps/core.xml').replace(
      '<dc:creator></dc:creator>',
      '<dc:creator>Priya Raman</dc:creator>',
    );
    const withAuthor = replaceZipEntries(
      source,
      directory,
      new Map([['docProps/core.xml', Buffer.from(core)]]),
    );
    expect(await described(withAuthor, 'docx')).toEqual(['Document properties: Author — Priya Raman']);

    const copy = await copyOf(withAuthor, 'docx');
    expect(entryText(copy, 'docProps/core.xml')).toBe(core.replace('Priya Raman', ''));
    const before = readZipDirectory(withAuthor);
    const after = readZipDirectory(copy);
    expect(after.entries.map((e) => e.name)).toEqual(before.entries.map((e) => e.name));
    for (const [i, entry] of before.entries.entries()) {
      if (entry.name === 'docProps/core.xml') continue;
      const kept = after.entries[i];
      expect(
        copy
          .subarray(kept.localStart, kept.localEnd)
          .equals(withAuthor.subarray(entry.localStart, entry.localEnd)),
      ).toBe(true);
    }
    expect((await extractText(copy)).text).toBe((await extractText(source)).text);
  });
  it.each(['manuscript.pdf', 'twocolumn.pdf'])(
    '%s given an author: found, and the rewritten copy reads the same',
    async (name) => {
      const doc = await PDFDocument.load(fixture(name), { updateMetadata: false });
      doc.setAuthor('Priya Raman');
      const withAuthor = Buffer.from(await doc.save());
      expect(await described(withAuthor, 'pdf')).toEqual(['PDF properties: Author — Priya Raman']);
      const copy = await copyOf(withAuthor, 'pdf');
      expect((await PDFDocument.load(copy)).getPageCount()).toBe(doc.getPageCount());
      expect((await extractText(copy)).text).toBe((await extractText(fixture(name))).text);
    },
  );
});

describe('a .docx whose properties, comments and tracked changes name people', () => {
  it('lists each property once, in words an editor understands', async () => {
    expect(await described(docxWithPeople(), 'docx')).toEqual([
      'Document properties: Author — Jane Doe',
      'Document properties: Last modified by — John Smith',
      'Document properties: Manager — Prof. Ada Lovelace',
      'Document properties: Company — University of Somewhere & Co',
      'Custom properties: _AuthorEmail — jane.doe@somewhere.example',
      'Tracked changes: Author — John Smith',
      'Tracked changes: Author — Jane Doe',
      'Comments: Author — Jane Doe',
      'Comments: Initials — JD',
      'People who commented or edited: Author — Jane Doe',
      'People who commented or edited: Account — S::jane.doe@somewhere.example::4f1c',
      'People who commented or edited: Author — John Smith',
      'People who commented or edited: Account — John Smith',
      'Document properties: Template — file:///C:\\Users\\jdoe\\AppData\\Roaming\\Microsoft\\Templates\\Normal.dotm',
    ]);
  });

  it('the copy names no one, keeps two people apart as "Anonymous 1" and "Anonymous 2", and still opens with its text', async () => {
    const original = docxWithPeople();
    const input = Buffer.from(original);
    const result = await withoutPersonalProperties(input, 'docx');
    if (!result.ok) throw new Error(result.message);
    expect(input.equals(original)).toBe(true); // the author's file is untouched
    expect(result.removed).toEqual((await personalProperties(original, 'docx')).properties);

    const copy = result.bytes;
    expect(await personalProperties(copy, 'docx')).toEqual({
      properties: [],
      removable: true,
      problem: null,
    });
    for (const name of [...readZipDirectory(copy).entries.map((e) => e.name)]) {
      const text = entryText(copy, name);
      for (const trace of ['Jane', 'John Smith', 'jdoe', 'somewhere', 'Lovelace', '"JD"'])
        expect(text).not.toContain(trace);
    }
    const document = entryText(copy, 'word/document.xml');
    expect(document).toContain('<w:ins w:id="90" w:author="Anonymous 1" w:date="2026-01-05T10:00:00Z">');
    expect(document).toContain(`<w:del w:id='91' w:author="Anonymous 2" w:date='2026-01-05T10:01:00Z'>`);
    expect(entryText(copy, 'word/comments.xml')).toContain(
      'w:author="Anonymous 2" w:date="2026-01-05T10:02:00Z" w:initials="A2"',
    );
    expect(entryText(copy, 'word/people.xml')).toContain(
      '<w15:person w15:author="Anonymous 2"><w15:presenceInfo w15:providerId="None" w15:userId="Anonymous 2"/>',
    );
    expect(entryText(copy, 'word/_rels/settings.xml.rels')).toContain('Target="Normal.dotm"');
    // A reference manager's setting names no one and stays.
    expect(entryText(copy, 'docProps/custom.xml')).toContain('name="ZOTERO_PREF_1"');
    expect(entryText(copy, 'docProps/custom.xml')).not.toContain('_AuthorEmail');

    const text = (await extractText(copy)).text;
    expect(text).toContain('An inserted sentence.');
    expect(text).toBe((await extractText(original)).text);
  });

  it('a part written in UTF-16 with accented names and character references: read, and rewritten in UTF-16', async () => {
    const source = fixture('manuscript.docx');
    const core = entryText(source, 'docProps/core.xml')
      .replace('encoding="UTF-8"', 'encoding="UTF-16"')
      .replace('<dc:creator></dc:creator>', '<dc:creator>Jos&#233; M\u00fcller</dc:creator>');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(core, 'utf16le')]);
    const docx = replaceZipEntries(source, readZipDirectory(source), new Map([['docProps/core.xml', utf16]]));
    expect(await described(docx, 'docx')).toEqual(['Document properties: Author — José Müller']);
    const copy = await copyOf(docx, 'docx');
    const entry = readZipDirectory(copy).entries.find((e) => e.name === 'docProps/core.xml');
    if (!entry) throw new Error('no core.xml');
    const rewritten = readZipEntry(copy, entry, 1 << 20);
    expect([...rewritten.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(rewritten.toString('utf16le')).toContain('<dc:creator></dc:creator>');
  });

  it('one person only is "Anonymous", initials "A"', async () => {
    const source = docxWithPeople();
    const directory = readZipDirectory(source);
    const document = entryText(source, 'word/document.xml').replaceAll('John Smith', 'Jane Doe');
    const people = entryText(source, 'word/people.xml').replace(
      /<w15:person w15:author="John Smith">.*?<\/w15:person>/,
      '',
    );
    const single = replaceZipEntries(
      source,
      directory,
      new Map([
        ['word/document.xml', Buffer.from(document)],
        ['word/people.xml', Buffer.from(people)],
      ]),
    );
    const copy = await copyOf(single, 'docx');
    expect(entryText(copy, 'word/comments.xml')).toContain(
      'w:author="Anonymous" w:date="2026-01-05T10:02:00Z" w:initials="A"',
    );
    expect(entryText(copy, 'word/document.xml')).not.toMatch(/Anonymous \d/);
  });
});

describe('a .docx holding parts nothing refers to (issue 22)', () => {
  const source = fixture('manuscript.docx');
  const entries = () =>
    readZipDirectory(source).entries.map((e) => ({ name: e.name, data: readZipEntry(source, e, 1 << 20) }));
  const oldCore = (name: string) =>
    entryText(source, 'docProps/core.xml').replace(
      '<dc:creator></dc:creator>',
      `<dc:creator>${name}</dc:creator>`,
    );
  /** Every entry inflated, as text: what anyone unzipping the copy can read. */
  const everything = (docx: Buffer) =>
    readZipDirectory(docx)
      .entries.map((e) => readZipEntry(docx, e, 1 << 24).toString('latin1'))
      .join('\n');

  it('a properties part that no relationship reaches: listed, and left out of the copy with its content type', async () => {
    const parts = entries();
    const types = parts.find((p) => p.name === '[Content_Types].xml')!;
    types.data = Buffer.from(
      types.data
        .toString('utf8')
        .replace(
          '</Types>',
          '<Override PartName="/docProps/core-old.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>',
        ),
    );
    const docx = zip([...parts, { name: 'docProps/core-old.xml', data: oldCore('Jane Doe') }]);
    expect(await described(docx, 'docx')).toEqual(['Document properties (unused part): Author — Jane Doe']);
    const copy = await copyOf(docx, 'docx');
    expect(readZipDirectory(copy).entries.map((e) => e.name)).toEqual(parts.map((p) => p.name));
    expect(everything(copy)).not.toContain('Jane Doe');
    expect(entryText(copy, '[Content_Types].xml')).not.toContain('core-old');
    expect(await described(copy, 'docx')).toEqual([]);
    expect((await extractText(copy)).text).toBe((await extractText(source)).text);
  });

  it('an earlier record of a part, still in the bytes but no longer in the directory: read, and not in the copy', async () => {
    const parts = entries();
    // An archive updated by appending: the old core.xml's record stays first, the directory names the new one.
    const built = zip([{ name: 'docProps/core.xml', data: oldCore('Jane Doe') }, ...parts]);
    const directory = readZipDirectory(built);
    const [stale, ...named] = directory.entries;
    const centrals = Buffer.concat(named.map((e) => built.subarray(e.centralStart, e.centralEnd)));
    const end = Buffer.from(built.subarray(directory.endStart));
    end.writeUInt16LE(named.length, 8);
    end.writeUInt16LE(named.length, 10);
    end.writeUInt32LE(centrals.length, 12);
    const docx = Buffer.concat([built.subarray(0, stale.centralStart), centrals, end]);
    expect(readZipDirectory(docx).entries.map((e) => e.name)).toEqual(parts.map((p) => p.name));
    expect(everything(docx)).not.toContain('Jane Doe'); // what the directory shows

    expect(await described(docx, 'docx')).toEqual(['Document properties (unused part): Author — Jane Doe']);
    const copy = await copyOf(docx, 'docx');
    expect(copy.length).toBeLessThan(docx.length - stale.compressedSize);
    expect(copy.includes(built.subarray(stale.dataStart, stale.localEnd))).toBe(false);
    expect(await described(copy, 'docx')).toEqual([]);
  });
});

describe('a PDF whose properties name people', () => {
  it('finds Info /Author and /Company inside compressed object streams, XMP creators and authors, and comment authors, not the software', async () => {
    const pdf = await pdfWithPeople();
    expect(pdf.includes('Jane Doe')).toBe(false); // all of it compressed or hex-encoded: found by parsing, not by search
    expect(await described(pdf, 'pdf')).toEqual([
      'PDF properties: Author — Jane Doe',
      'PDF properties: Company — University of Somewhere',
      'PDF metadata (XMP): Creator — Jane Doe',
      'PDF metadata (XMP): Creator — John Smith',
      'PDF metadata (XMP): Author — Jane Doe',
      'PDF comments: Author — Rex Reviewer',
    ]);
  });

  it('the copy is a rewrite without them (no earlier revision left in the file), keeps title and software, and still opens', async () => {
    const original = await pdfWithPeople();
    const input = Buffer.from(original);
    const copy = await copyOf(input, 'pdf');
    expect(input.equals(original)).toBe(true);
    expect(await personalProperties(copy, 'pdf')).toEqual({ properties: [], removable: true, problem: null });

    const raw = copy.toString('latin1');
    for (const name of ['Jane Doe', 'John Smith', 'Rex Reviewer', 'Somewhere']) {
      expect(raw).not.toContain(name);
      expect(raw).not.toContain(utf16Hex(name));
    }
    expect(raw).toContain('xmp:CreatorTool="Microsoft Word"');
    const doc = await PDFDocument.load(copy);
    expect(doc.getAuthor()).toBeUndefined();
    expect(doc.getTitle()).toBe('Energy-aware task offloading');
    expect(doc.getCreator()).toBe('Microsoft Word');
    expect((await extractText(copy)).text).toBe((await extractText(original)).text);
  });

  it('a name removed by an incremental save is still in the file: listed as in an earlier version, and gone from the copy', async () => {
    const pdf = await pdfWithEarlierAuthor();
    expect(pdf.toString('latin1')).toContain(utf16Hex('Jane Doe'));
    expect((await PDFDocument.load(pdf)).getAuthor()).toBeUndefined(); // what a PDF reader shows
    expect(await described(pdf, 'pdf')).toEqual(['PDF properties (earlier version): Author — Jane Doe']);
    const copy = await copyOf(pdf, 'pdf');
    expect(copy.toString('latin1')).not.toContain(utf16Hex('Jane Doe'));
    expect(copy.toString('latin1').match(/%%EOF/g)).toHaveLength(1);
    expect((await PDFDocument.load(copy)).getTitle()).toBe('Energy-aware task offloading');
    expect((await extractText(copy)).text).toBe((await extractText(pdf)).text);
  });

  it.each([
    ['points the trailer at a new information dictionary', false],
    ['drops the trailer’s /Info', true],
  ])(
    'an incremental save that %s: the old one is listed, and none of its bytes is in the copy (issue 22)',
    async (_, dropInfo) => {
      const pdf = await pdfWithReplacedInfo({ dropInfo });
      const raw = pdf.toString('latin1');
      expect(raw).toContain(utf16Hex('Jane Doe'));
      expect(raw).toContain(utf16Hex('University of Somewhere'));
      expect(await described(pdf, 'pdf')).toEqual([
        'PDF properties (earlier version): Author — Jane Doe',
        'PDF properties (earlier version): Company — University of Somewhere',
      ]);
      const copy = await copyOf(pdf, 'pdf');
      const written = copy.toString('latin1');
      // The old dictionary is not merely unlinked: author, institution and title are gone from the bytes. (A
      // trailer without /Info leaves pdf-lib with the previous one, its names removed: the title may stay.)
      const gone = [
        'Jane Doe',
        'University of Somewhere',
        ...(dropInfo ? [] : ['Energy-aware task offloading']),
      ];
      for (const text of gone) {
        expect(written).not.toContain(utf16Hex(text));
        expect(written).not.toContain(text);
      }
      expect(written.match(/%%EOF/g)).toHaveLength(1);
      expect(await described(copy, 'pdf')).toEqual([]);
      expect((await extractText(copy)).text).toBe((await extractText(pdf)).text);
    },
  );

  it('an information dictionary nothing refers to, inside a compressed object stream: the check reads it, the copy leaves it out', async () => {
    const pdf = await pdfWithUnreferencedInfo();
    expect(pdf.toString('latin1').match(/%%EOF/g)).toHaveLength(1);
    expect(pdf.toString('latin1')).not.toContain(utf16Hex('Jane Doe')); // compressed
    expect(await described(pdf, 'pdf')).toEqual([
      'PDF properties (earlier version): Author — Jane Doe',
      'PDF properties (earlier version): Company — University of Somewhere',
    ]);
    const copy = await copyOf(pdf, 'pdf');
    expect(copy.toString('latin1')).not.toContain(utf16Hex('Jane Doe'));
    expect(await described(copy, 'pdf')).toEqual([]);
    expect((await PDFDocument.load(copy)).getTitle()).toBe('Energy-aware task offloading');
  });

  it('a PDF that opens for everyone but is protected against changes: its author is found, and the editor told no copy can be made', async () => {
    const pdf = ownerLockedPdfWithAuthor();
    expect(pdf.includes('Jane Doe')).toBe(false); // encrypted with the file's key
    const scan = await personalProperties(pdf, 'pdf');
    expect(scan.properties.map(describeProperty)).toEqual(['PDF properties: Author — Jane Doe']);
    expect(scan.removable).toBe(false);
    expect(scan.problem).toEqual({
      code: 'encrypted',
      message: expect.stringMatching(/protected against changes/),
    });
    expect(await withoutPersonalProperties(pdf, 'pdf')).toMatchObject({ ok: false, code: 'encrypted' });
  });

  it('a PDF protected by a user password cannot be checked: the editor is told, and no copy is made', async () => {
    const encrypted = await personalProperties(fixture('encrypted.pdf'), 'pdf');
    expect(encrypted).toMatchObject({ properties: [], removable: false, problem: { code: 'encrypted' } });
    expect(encrypted.problem?.message).toMatch(/password-protected/);
    expect(await withoutPersonalProperties(fixture('encrypted.pdf'), 'pdf')).toMatchObject({
      ok: false,
      code: 'encrypted',
    });
  });
});

describe('a legacy .doc', () => {
  it('finds the Author in its SummaryInformation; the copy empties it in place and Word files still read', async () => {
    const original = docWithAuthor();
    expect(await described(original, 'doc')).toEqual(['Document properties: Author — Jane Doe']);
    const copy = await copyOf(Buffer.from(original), 'doc');
    expect(copy.length).toBe(original.length);
    expect(copy.includes('Jane Doe')).toBe(false);
    expect(await personalProperties(copy, 'doc')).toEqual({ properties: [], removable: true, problem: null });
    expect((await extractText(copy)).text).toBe((await extractText(fixture('manuscript.doc'))).text);
  });

  it("Word 97's own name tables (associated author, last to save, template path, saved-by list): found, and emptied in the copy", async () => {
    const original = docWithWordTables({ reviewed: false });
    expect(await described(original, 'doc')).toEqual([
      'Document properties: Template — C:\\Users\\jdoe\\Templates\\Normal.dot',
      'Document properties: Author — Jane Doe',
      'Document properties: Last saved by — John Smith',
      'Document properties: Saved by — Jane Doe',
      'Document properties: Saved at — C:\\Users\\jdoe\\Documents\\paper.doc',
    ]);
    const copy = await copyOf(original, 'doc');
    expect(copy.length).toBe(original.length);
    for (const trace of ['Jane Doe', 'John Smith', 'jdoe'])
      expect(copy.includes(Buffer.from(trace, 'utf16le'))).toBe(false);
    // The title in the same table stays.
    expect(copy.includes(Buffer.from('Energy-aware task offloading', 'utf16le'))).toBe(true);
    expect((await extractText(copy)).text).toBe((await extractText(fixture('manuscript.doc'))).text);
  });

  it('a .doc with tracked changes and comments: their authors are listed, and the editor is told they cannot be removed', async () => {
    const scan = await personalProperties(docWithWordTables({ reviewed: true }), 'doc');
    expect(scan.properties.map(describeProperty)).toEqual(
      expect.arrayContaining([
        'Tracked changes: Author — John Smith',
        'Tracked changes: Author — Rex Reviewer',
        'Comments: Author — Jane Doe',
        'Comments: Author — Rex Reviewer',
      ]),
    );
    expect(scan.properties.map(describeProperty)).not.toContain('Tracked changes: Author — Unknown');
    expect(scan.removable).toBe(false);
    expect(scan.problem).toEqual({
      code: 'not_removable',
      message: expect.stringMatching(/legacy Word file \(\.doc\)/),
    });
    expect(await withoutPersonalProperties(docWithWordTables({ reviewed: true }), 'doc')).toMatchObject({
      ok: false,
      code: 'not_removable',
    });
  });

  it('a password-protected Word file is an answer, not an error', async () => {
    for (const data of [encryptedDoc(), encryptedDocx()]) {
      expect((await personalProperties(data, 'doc')).problem?.code).toBe('encrypted');
      expect(await withoutPersonalProperties(data, 'doc')).toMatchObject({ ok: false, code: 'encrypted' });
    }
  });
});

describe('broken, disguised and hostile files: an answer, never an exception', () => {
  it.each([
    ['empty.pdf', 'pdf', 'unreadable'],
    ['truncated.pdf', 'pdf', 'unreadable'],
    ['png-named.pdf', 'pdf', 'unreadable'],
    ['not-a-zip.zip', 'docx', 'unreadable'],
    ['supplementary.zip', 'zip', 'unsupported'],
    ['manuscript.docx', 'pdf', 'unreadable'],
    ['manuscript.pdf', 'docx', 'unreadable'],
  ] as const)('%s read as %s: %s', async (name, type, code) => {
    const scan = await personalProperties(fixture(name), type);
    expect(scan.properties).toEqual([]);
    expect(scan.removable).toBe(false);
    expect(scan.problem?.code).toBe(code);
    expect(scan.problem?.message).toMatch(/\.$/);
    expect(await withoutPersonalProperties(fixture(name), type)).toMatchObject({ ok: false, code });
  });

  it('the stored type may be a media type; content of another kind than stored is unreadable', async () => {
    const docx = docxWithPeople();
    const media = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect((await personalProperties(docx, media)).properties).toHaveLength(14);
    expect((await personalProperties(await pdfWithPeople(), 'application/pdf')).properties).toHaveLength(6);
    expect((await personalProperties(docWithAuthor(), 'application/msword')).properties).toHaveLength(1);
    expect((await personalProperties(docx, 'application/pdf')).problem?.code).toBe('unreadable');
    expect((await personalProperties(docx, 'application/zip')).problem?.code).toBe('unsupported');
    expect((await personalProperties(docx, 'image/png')).problem?.code).toBe('unsupported');
  });

  it('a .docx cut short, or with a part that fails its checksum, is unreadable', async () => {
    const docx = docxWithPeople();
    expect((await personalProperties(docx.subarray(0, docx.length - 200), 'docx')).problem?.code).toBe(
      'unreadable',
    );
    const core = readZipDirectory(docx).entries.find((e) => e.name === 'docProps/core.xml');
    if (!core) throw new Error('no core.xml');
    const damaged = Buffer.from(docx);
    damaged.writeUInt32LE((core.crc + 1) >>> 0, core.centralStart + 16);
    expect((await personalProperties(damaged, 'docx')).problem?.code).toBe('unreadable');
    const garbage = Buffer.concat([Buffer.from('PK\x03\x04word/document.xml'), Buffer.alloc(300, 0xff)]);
    expect((await personalProperties(garbage, 'docx')).problem?.code).toBe('unreadable');
  });

  it('a zip bomb (a part of 80 MB of zeros in a few KB) is refused without inflating it all', async () => {
    const bomb = zip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: Buffer.alloc(80 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const scan = await personalProperties(bomb, 'docx');
    expect(scan.problem?.code).toBe('too_large');
    expect(await withoutPersonalProperties(bomb, 'docx')).toMatchObject({ ok: false, code: 'too_large' });
  });

  it('a .doc whose sector chain loops is unreadable', async () => {
    const doc = Buffer.from(fixture('manuscript.doc'));
    // Every FAT entry of the first FAT sector points to sector 0: every chain loops.
    const firstFat = doc.readUInt32LE(0x4c);
    for (let i = 0; i < 128; i++) doc.writeUInt32LE(0, (firstFat + 1) * 512 + i * 4);
    expect((await personalProperties(doc, 'doc')).problem?.code).toBe('unreadable');
  });
});

describe('damaged at random (a fixed seed): an answer every time, and any copy made names no one', () => {
  /** A small deterministic generator (mulberry32), so a failure can be replayed. */
  function random(seed: number) {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it.each([
    ['docx', () => docxWithPeople()],
    ['doc', () => docWithWordTables({ reviewed: false })],
    ['pdf', () => pdfWithPeople()],
  ] as const)('%s, 25 damaged copies', async (type, make) => {
    const original = await make();
    const next = random(14);
    for (let round = 0; round < 25; round++) {
      const damaged = Buffer.from(original);
      // A few bytes anywhere, then (every other round) a run of bytes in the first part of the file.
      for (let i = 0; i < 8; i++) damaged[Math.floor(next() * damaged.length)] = Math.floor(next() * 256);
      if (round % 2) {
        const start = Math.floor(next() * Math.min(2048, damaged.length - 16));
        damaged.fill(Math.floor(next() * 256), start, start + 16);
      }
      const scan = await personalProperties(damaged, type);
      expect(Array.isArray(scan.properties)).toBe(true);
      const copy = await withoutPersonalProperties(damaged, type);
      if (copy.ok) expect((await personalProperties(copy.bytes, type)).properties).toEqual([]);
      else expect(copy.message).toMatch(/\.$/);
    }
  });
});

describe('which custom properties name a person', () => {
  it.each([
    ['_AuthorEmail', 'jane@x.example', true],
    ['Mendeley User Name_1', 'jdoe', true],
    ['Client', 'ACME Corp', true],
    ['Reviewed', 'see jane.doe@uni.example', true],
    ['Mendeley Recent Style Name 0_1', 'American Psychological Association 7th edition', false],
    ['ZOTERO_PREF_1', '<data data-version="3"/>', false],
    ['Project code', 'X-42', false],
  ])('%s = %s: %s', (name, value, personal) => {
    expect(isPersonalCustomProperty(name, value)).toBe(personal);
  });
});
