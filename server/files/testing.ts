/** Files made from the fixture paper for tests: protected Word files, and files whose own properties name people. */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { deflateRawSync, constants as zlibConstants, crc32 as zlibCrc32 } from 'node:zlib';
import { PDFDict, PDFDocument, PDFHexString, PDFName } from 'pdf-lib';
import { readZipDirectory, readZipEntry, zip } from '../content/zip.ts';
import { CompoundFile } from './document-properties.ts';
import { textPdf } from '../similarity/testing.ts';
import { fixture } from '../testing/harness.ts';

/** What Word writes for a protected .docx: an OLE container with an "EncryptedPackage" stream (its name in UTF-16). */
export function encryptedDocx(): Buffer {
  const ole = Buffer.from(fixture('manuscript.doc').subarray(0, 2048));
  return Buffer.concat([ole, Buffer.from('EncryptedPackage', 'utf16le'), Buffer.alloc(512)]);
}

/** The legacy .doc with its File Information Block's "encrypted" flag set, as Word 97-2003 writes it. */
export function encryptedDoc(): Buffer {
  const data = Buffer.from(fixture('manuscript.doc'));
  for (let at = 512; at + 12 <= data.length; at += 512) {
    if (data.readUInt16LE(at) === 0xa5ec) {
      data.writeUInt16LE(data.readUInt16LE(at + 0x0a) | 0x0100, at + 0x0a);
      return data;
    }
  }
  throw new Error('no File Information Block found in manuscript.doc');
}

/**
 * The fixture paper as a .docx whose own properties name people, as Word leaves them: author and last editor,
 * company and manager, a custom property with an e-mail address (and a reference manager's, which names no
 * one), a comment, tracked changes by two people, the people list, and a template path in the author's home.
 */
export function docxWithPeople(): Buffer {
  const source = fixture('manuscript.docx');
  const directory = readZipDirectory(source);
  const parts = new Map(
    directory.entries.map((e) => [e.name, readZipEntry(source, e, 1 << 20).toString('utf8')]),
  );
  const edit = (name: string, change: (xml: string) => string) =>
    parts.set(name, change(parts.get(name) ?? ''));
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const W15 = 'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"';

  edit('docProps/core.xml', (xml) =>
    xml
      .replace('<dc:creator></dc:creator>', '<dc:creator>Jane Doe</dc:creator>')
      .replace(
        '<cp:lastModifiedBy></cp:lastModifiedBy>',
        '<cp:lastModifiedBy>John Smith</cp:lastModifiedBy>',
      ),
  );
  edit('docProps/app.xml', (xml) =>
    xml.replace(
      '</Properties>',
      '<Manager>Prof. Ada Lovelace</Manager><Company>University of Somewhere &amp; Co</Company></Properties>',
    ),
  );
  const property = (pid: number, name: string, value: string) =>
    `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="${pid}" name="${name}"><vt:lpwstr>${value}</vt:lpwstr></property>`;
  edit('docProps/custom.xml', (xml) =>
    xml.replace(
      '</Properties>',
      `${property(2, '_AuthorEmail', 'jane.doe@somewhere.example')}${property(3, 'ZOTERO_PREF_1', '&lt;data data-version="3"/&gt;')}</Properties>`,
    ),
  );
  edit('word/document.xml', (xml) =>
    xml.replace(
      '<w:sectPr>',
      '<w:p><w:ins w:id="90" w:author="John Smith" w:date="2026-01-05T10:00:00Z"><w:r><w:t>An inserted sentence.</w:t></w:r></w:ins>' +
        "<w:del w:id='91' w:author='Jane Doe' w:date='2026-01-05T10:01:00Z'><w:r><w:delText>A deleted one.</w:delText></w:r></w:del>" +
        '<w:commentRangeStart w:id="0"/><w:r><w:t>A commented sentence.</w:t></w:r><w:commentRangeEnd w:id="0"/>' +
        '<w:r><w:commentReference w:id="0"/></w:r></w:p><w:sectPr>',
    ),
  );
  parts.set(
    'word/comments.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments ${W}><w:comment w:id="0" w:author="Jane Doe" w:date="2026-01-05T10:02:00Z" w:initials="JD"><w:p><w:r><w:t>Cite our earlier paper here.</w:t></w:r></w:p></w:comment></w:comments>`,
  );
  parts.set(
    'word/people.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w15:people ${W15}><w15:person w15:author="Jane Doe"><w15:presenceInfo w15:providerId="AD" w15:userId="S::jane.doe@somewhere.example::4f1c"/></w15:person><w15:person w15:author="John Smith"><w15:presenceInfo w15:providerId="None" w15:userId="John Smith"/></w15:person></w15:people>`,
  );
  parts.set(
    'word/_rels/settings.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="file:///C:\\Users\\jdoe\\AppData\\Roaming\\Microsoft\\Templates\\Normal.dotm" TargetMode="External"/></Relationships>',
  );
  edit('word/_rels/document.xml.rels', (xml) =>
    xml.replace(
      '</Relationships>',
      '<Relationship Id="rId90" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/><Relationship Id="rId91" Type="http://schemas.microsoft.com/office/2011/relationships/people" Target="people.xml"/></Relationships>',
    ),
  );
  edit('[Content_Types].xml', (xml) =>
    xml.replace(
      '</Types>',
      '<Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/><Override PartName="/word/people.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml"/></Types>',
    ),
  );
  return zip([...parts].map(([name, data]) => ({ name, data })));
}

/**
 * A PDF whose properties name people: Info /Author and a custom /Company (in a compressed object stream),
 * XMP with dc:creator and pdf:Author (compressed too) beside the software that made it, and a sticky-note
 * comment by a reviewer of the author's own.
 */
export async function pdfWithPeople(): Promise<Buffer> {
  const doc = await PDFDocument.load(
    await textPdf(
      Array.from({ length: 3 }, () => FIXTURE_PARAGRAPH),
      { title: 'Energy-aware task offloading' },
    ),
  );
  doc.setAuthor('Jane Doe');
  doc.setCreator('Microsoft Word');
  doc.setTitle('Energy-aware task offloading');
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of('Company'), PDFHexString.fromText('University of Somewhere'));
  const xmp = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Author="Jane Doe" xmp:CreatorTool="Microsoft Word">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Energy-aware task offloading</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li><rdf:li>John Smith</rdf:li></rdf:Seq></dc:creator>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
  const metadata = doc.context.flateStream(Buffer.from(xmp, 'utf8'), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(metadata));
  const note = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Text',
    Rect: [72, 700, 92, 720],
    T: PDFHexString.fromText('Rex Reviewer'),
    Contents: PDFHexString.fromText('Tighten this paragraph.'),
  });
  doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(note)]));
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}

const FIXTURE_PARAGRAPH =
  'Battery-powered gateways collect readings from many sensors and decide, for each task, whether to run it locally or offload it to an edge server. The decision trades energy against deadline risk, and a small learned table makes it within microseconds.';

/**
 * The legacy .doc fixture with an Author: its SummaryInformation's Title property (id 2) renamed Author (id 4)
 * and its text overwritten with a name, in place, as a file Word saved with an author would hold it.
 */
export function docWithAuthor(): Buffer {
  const data = Buffer.from(fixture('manuscript.doc'));
  // FMTID_SummaryInformation {F29F85E0-4FF9-1068-AB91-08002B27B3D9} as stored, then the section's offset.
  const fmtid = Buffer.from('e0859ff2f94f6810ab9108002b27b3d9', 'hex');
  const header = data.indexOf(fmtid) - 28;
  const section = header + data.readUInt32LE(header + 44);
  const count = data.readUInt32LE(section + 4);
  for (let i = 0; i < count; i++) {
    if (data.readUInt32LE(section + 8 + i * 8) !== 2) continue;
    data.writeUInt32LE(4, section + 8 + i * 8);
    const value = section + data.readUInt32LE(section + 12 + i * 8);
    const length = data.readUInt32LE(value + 4);
    data.fill(0, value + 8, value + 8 + length);
    data.write('Jane Doe', value + 8, 'latin1');
    return data;
  }
  throw new Error('no Title property in manuscript.doc');
}

/**
 * A compound file (MS-CFB version 3: 512-byte sectors, one FAT sector) holding `streams` in its root storage.
 * Every stream is padded to 4096 bytes so that none belongs in the mini stream.
 */
export function compoundFile(streams: { name: string; data: Buffer }[]): Buffer {
  const SECTOR = 512;
  const FREE = 0xffffffff;
  const END = 0xfffffffe;
  const padded = streams.map((s) => {
    const size = Math.max(4096, Math.ceil(s.data.length / SECTOR) * SECTOR);
    return { name: s.name, data: Buffer.concat([s.data, Buffer.alloc(size - s.data.length)]) };
  });
  const directorySectors = Math.ceil((padded.length + 1) / 4);
  const fat = new Array<number>(SECTOR / 4).fill(FREE);
  fat[0] = 0xfffffffd; // the FAT's own sector
  let next = 1;
  const chain = (count: number) => {
    const start = next;
    for (let i = 0; i < count; i++) fat[next + i] = i === count - 1 ? END : next + i + 1;
    next += count;
    return start;
  };
  const directoryStart = chain(directorySectors);
  const starts = padded.map((s) => chain(s.data.length / SECTOR));
  if (next > fat.length) throw new Error('too many sectors for one FAT sector');

  const header = Buffer.alloc(SECTOR);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c);
  header.writeUInt32LE(directoryStart, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(END, 0x3c);
  header.writeUInt32LE(END, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : FREE, 0x4c + i * 4);

  const fatSector = Buffer.alloc(SECTOR);
  for (const [i, v] of fat.entries()) fatSector.writeUInt32LE(v >>> 0, i * 4);
  const directory = Buffer.alloc(directorySectors * SECTOR);
  const entry = (
    i: number,
    name: string,
    type: number,
    start: number,
    size: number,
    right: number,
    child: number,
  ) => {
    const at = i * 128;
    directory.write(name, at, 'utf16le');
    directory.writeUInt16LE((name.length + 1) * 2, at + 0x40);
    directory[at + 0x42] = type;
    directory[at + 0x43] = 1; // black
    directory.writeUInt32LE(FREE, at + 0x44);
    directory.writeUInt32LE(right, at + 0x48);
    directory.writeUInt32LE(child, at + 0x4c);
    directory.writeUInt32LE(start, at + 0x74);
    directory.writeUInt32LE(size, at + 0x78);
  };
  entry(0, 'Root Entry', 5, END, 0, FREE, padded.length > 0 ? 1 : FREE);
  padded.forEach((s, i) => {
    entry(i + 1, s.name, 2, starts[i], s.data.length, i + 2 <= padded.length ? i + 2 : FREE, FREE);
  });
  for (let i = padded.length + 1; i < directorySectors * 4; i++) {
    directory.writeUInt32LE(FREE, i * 128 + 0x44);
    directory.writeUInt32LE(FREE, i * 128 + 0x48);
    directory.writeUInt32LE(FREE, i * 128 + 0x4c);
  }
  return Buffer.concat([header, fatSector, directory, ...padded.map((s) => s.data)]);
}

/** An extended string table of MS-DOC (0xFFFF, count, no extra data, then each string's length and UTF-16). */
function stringTable(strings: string[]): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt16LE(0xffff, 0);
  head.writeUInt16LE(strings.length, 2);
  return Buffer.concat([head, ...strings.map(xst)]);
}

function xst(text: string): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16LE(text.length);
  return Buffer.concat([length, Buffer.from(text, 'utf16le')]);
}

/**
 * The fixture .doc rebuilt with the name tables Word 97–2003 writes: the associated strings (template path,
 * author, last to save) and the "saved by" list, and, with `reviewed`, the authors of tracked changes and of
 * comments. The tables are appended to the table stream and pointed at from the File Information Block.
 */
export function docWithWordTables({ reviewed }: { reviewed: boolean }): Buffer {
  const source = new CompoundFile(fixture('manuscript.doc'));
  const read = (name: string) => {
    const stream = source.stream(name, Number.POSITIVE_INFINITY);
    if (!stream) throw new Error(`no ${name} in manuscript.doc`);
    return Buffer.from(stream.bytes);
  };
  const word = read('WordDocument');
  let table = read('1Table');
  const blob = (() => {
    const rgLw = 34 + word.readUInt16LE(32) * 2;
    return rgLw + 2 + word.readUInt16LE(rgLw) * 4 + 2;
  })();
  const append = (index: number, data: Buffer) => {
    word.writeUInt32LE(table.length, blob + index * 8);
    word.writeUInt32LE(data.length, blob + index * 8 + 4);
    table = Buffer.concat([table, data]);
  };
  const associated = Array.from({ length: 18 }, () => '');
  associated[1] = 'C:\\Users\\jdoe\\Templates\\Normal.dot';
  associated[2] = 'Energy-aware task offloading';
  associated[6] = 'Jane Doe';
  associated[7] = 'John Smith';
  append(32, stringTable(associated));
  append(71, stringTable(['Jane Doe', 'C:\\Users\\jdoe\\Documents\\paper.doc']));
  if (reviewed) {
    append(51, stringTable(['Unknown', 'John Smith', 'Rex Reviewer']));
    append(36, Buffer.concat([xst('Jane Doe'), xst('Rex Reviewer')]));
  }
  return compoundFile([
    { name: 'WordDocument', data: word },
    { name: '1Table', data: table },
    { name: '\u0005SummaryInformation', data: read('\u0005SummaryInformation') },
    { name: '\u0005DocumentSummaryInformation', data: read('\u0005DocumentSummaryInformation') },
  ]);
}

/**
 * A PDF whose author removed their name with an incremental save, as Acrobat's "Save" does: the last version's
 * Info has no /Author, the version before it (still in the file) names "Jane Doe".
 */
export async function pdfWithEarlierAuthor(): Promise<Buffer> {
  const doc = await PDFDocument.load(await textPdf([FIXTURE_PARAGRAPH, FIXTURE_PARAGRAPH]));
  doc.setAuthor('Jane Doe');
  doc.setTitle('Energy-aware task offloading');
  const first = Buffer.from(await doc.save({ useObjectStreams: false }));
  const text = first.toString('latin1');
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref\s*(\d+)/.exec(text);
  const info = /\/Info (\d+) 0 R/.exec(trailer?.[1] ?? '');
  const root = /\/Root (\d+ 0 R)/.exec(trailer?.[1] ?? '');
  const size = /\/Size (\d+)/.exec(trailer?.[1] ?? '');
  if (!trailer || !info || !root || !size) throw new Error('unexpected trailer');
  const object = `\n${info[1]} 0 obj\n<< /Title (Energy-aware task offloading) /Producer (Acrobat) >>\nendobj\n`;
  const objectAt = first.length + 1;
  const xrefAt = first.length + object.length;
  const update =
    `${object}xref\n${info[1]} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size[1]} /Root ${root[1]} /Info ${info[1]} 0 R /Prev ${trailer[2]} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([first, Buffer.from(update, 'latin1')]);
}

/**
 * owner-locked.pdf (AES-256, no user password: it opens for everyone, changes are restricted) with an
 * incremental update whose Info names "Jane Doe", encrypted with the file's key as a PDF writer would.
 */
export function ownerLockedPdfWithAuthor(): Buffer {
  const source = fixture('owner-locked.pdf');
  const text = source.toString('latin1');
  const hex = (name: string) =>
    Buffer.from(new RegExp(`/${name} <([0-9a-f]+)>`).exec(text)?.[1] ?? '', 'hex');
  const u = hex('U');
  const ue = hex('UE');
  // The file key from the empty user password (ISO 32000-2, algorithms 2.A and 2.B, revision 6).
  const key = createDecipheriv('aes-256-cbc', hashR6(u.subarray(40, 48)), Buffer.alloc(16)).setAutoPadding(
    false,
  );
  const fileKey = Buffer.concat([key.update(ue), key.final()]);
  const iv = Buffer.alloc(16, 7);
  const cipher = createCipheriv('aes-256-cbc', fileKey, iv);
  const author = Buffer.concat([iv, cipher.update('Jane Doe', 'latin1'), cipher.final()]).toString('hex');

  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref\s*(\d+)\s*%%EOF\s*$/.exec(text);
  if (!trailer) throw new Error('unexpected trailer in owner-locked.pdf');
  const object = `\n2 0 obj\n<< /Author <${author}> >>\nendobj\n`;
  const xrefAt = source.length + object.length;
  const update =
    `${object}xref\n2 1\n${String(source.length + 1).padStart(10, '0')} 00000 n \n` +
    `trailer\n<<${trailer[1].replace(/\/Prev \d+/, '')} /Prev ${trailer[2]} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([source, Buffer.from(update, 'latin1')]);
}

/** Algorithm 2.B with an empty password and no user data: the key that decrypts /UE. */
function hashR6(salt: Buffer): Buffer {
  let k = createHash('sha256').update(salt).digest();
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => k));
    const aes = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    const e = Buffer.concat([aes.update(k1), aes.final()]);
    let sum = 0;
    for (const byte of e.subarray(0, 16)) sum += byte;
    k = createHash(['sha256', 'sha384', 'sha512'][sum % 3])
      .update(e)
      .digest();
    if (round >= 63 && e[e.length - 1] <= round + 1 - 32) return k.subarray(0, 32);
  }
}

/**
 * A Word "zip bomb": the fixture paper whose word/document.xml is `inflated` bytes of repeated paragraphs,
 * deflated to a few hundred times less. `declared` is the size its headers give (the real one unless set: a
 * bomb that lies about its size to get past a check of the directory). The deflate stream is one compressed
 * megabyte repeated (each piece flushed to a byte boundary), so a gigabyte's bomb is built in a moment.
 */
export function wordZipBomb({ inflated, declared }: { inflated: number; declared?: number }): Buffer {
  const source = fixture('manuscript.docx');
  const entries = readZipDirectory(source).entries;
  const chunk = Buffer.alloc(1024 * 1024, '<w:p><w:r><w:t>bomb</w:t></w:r></w:p>');
  const pieces = Math.ceil(inflated / chunk.length);
  const piece = deflateRawSync(chunk, { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const packed = Buffer.concat([...Array.from({ length: pieces }, () => piece), deflateRawSync(Buffer.alloc(0))]);
  let crc = 0;
  for (let i = 0; i < pieces; i++) crc = zlibCrc32(chunk, crc);
  const size = pieces * chunk.length;
  const built = zip(
    entries
      .filter((e) => e.name !== 'word/document.xml')
      .map((e) => ({ name: e.name, data: readZipEntry(source, e, 1 << 24) }))
      .concat([{ name: 'word/document.xml', data: Buffer.alloc(0) }]),
  );
  // The last entry (document.xml, empty) is given the bomb's data and sizes.
  const directory = readZipDirectory(built);
  const last = directory.entries[directory.entries.length - 1];
  const local = Buffer.from(built.subarray(last.localStart, last.dataStart));
  const central = Buffer.from(built.subarray(last.centralStart, last.centralEnd));
  for (const [record, base] of [
    [local, 0],
    [central, 2],
  ] as const) {
    record.writeUInt32LE(crc >>> 0, 14 + base);
    record.writeUInt32LE(packed.length, 18 + base);
    record.writeUInt32LE(declared ?? size, 22 + base);
  }
  const before = built.subarray(0, last.localStart);
  const centralStart = before.length + local.length + packed.length;
  const otherCentrals = built.subarray(directory.entries[0].centralStart, last.centralStart);
  const end = Buffer.from(built.subarray(directory.endStart));
  end.writeUInt32LE(otherCentrals.length + central.length, 12);
  end.writeUInt32LE(centralStart, 16);
  return Buffer.concat([before, local, packed, otherCentrals, central, end]);
}

/**
 * A PDF whose author cleared their name with an incremental save that wrote a *new* information dictionary
 * (another object number) and pointed the trailer at it (`dropInfo`: a trailer with no /Info at all): the old
 * one — author, institution, title — is still in the file, referenced by nothing but the earlier trailer.
 */
export async function pdfWithReplacedInfo({ dropInfo = false } = {}): Promise<Buffer> {
  const doc = await PDFDocument.load(await textPdf([FIXTURE_PARAGRAPH, FIXTURE_PARAGRAPH]));
  doc.setAuthor('Jane Doe');
  doc.setTitle('Energy-aware task offloading');
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of('Company'), PDFHexString.fromText('University of Somewhere'));
  const first = Buffer.from(await doc.save({ useObjectStreams: false }));
  const text = first.toString('latin1');
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref\s*(\d+)/.exec(text);
  const root = /\/Root (\d+ 0 R)/.exec(trailer?.[1] ?? '');
  const size = Number(/\/Size (\d+)/.exec(trailer?.[1] ?? '')?.[1]);
  if (!trailer || !root || !size) throw new Error('unexpected trailer');
  const object = `\n${size} 0 obj\n<< /Producer (Acrobat) >>\nendobj\n`;
  const objectAt = first.length + 1;
  const xrefAt = first.length + object.length;
  const update =
    `${object}xref\n${size} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root[1]}${dropInfo ? '' : ` /Info ${size} 0 R`} /Prev ${trailer[2]} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([first, Buffer.from(update, 'latin1')]);
}

/**
 * A PDF of one version (one %%EOF) holding, in a compressed object stream, an information dictionary that
 * nothing refers to: a writer's leftover that the trailer does not point at, with the author's name.
 */
export async function pdfWithUnreferencedInfo(): Promise<Buffer> {
  const doc = await PDFDocument.load(await textPdf([FIXTURE_PARAGRAPH, FIXTURE_PARAGRAPH]));
  doc.setTitle('Energy-aware task offloading');
  doc.context.register(
    doc.context.obj({
      Author: PDFHexString.fromText('Jane Doe'),
      Company: PDFHexString.fromText('University of Somewhere'),
      Title: PDFHexString.fromText('Energy-aware task offloading'),
    }),
  );
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}
