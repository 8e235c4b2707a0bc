import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Base64Stream, type XmlElement, XmlReadError, readRecords, removeFiles } from './xml.ts';

let tmpDir = '';
beforeEach(() => {
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'ojs-xml-'));
});
afterEach(() => rmSync(tmpDir, { recursive: true, force: true }));

/** The bytes in pieces of `size`, so that names, entities and UTF-8 sequences are cut anywhere. */
async function* pieces(text: string | Buffer, size: number) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(xml: string | Buffer, size = 7, records = ['issue', 'article']) {
  const out: XmlElement[] = [];
  for await (const r of readRecords(pieces(xml, size), { records: new Set(records), tmpDir })) out.push(r);
  return out;
}

async function refusal(xml: string | Buffer, size = 5): Promise<XmlReadError> {
  try {
    await read(xml, size);
  } catch (err) {
    expect(err).toBeInstanceOf(XmlReadError);
    return err as XmlReadError;
  }
  throw new Error('read without a refusal');
}

const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

describe('reading an OJS export as it streams', () => {
  it('hands out each record whole, in order, with paths, attributes, text and its embedded files decoded', async () => {
    const b64 = PDF.toString('base64').replace(/(.{8})/g, '$1\n      ');
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<issues xmlns="http://pkp.sfu.ca" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <issue published="1">
    <issue_identification><volume>3</volume><number>2</number><year>2024</year></issue_identification>
    <articles>
      <article stage="production"><publication><title locale="en">Zürich &amp; Ωmega <![CDATA[<raw>]]></title></publication>
        <submission_file id="7"><file id="9" filesize="${PDF.length}" extension="pdf"><embed encoding="base64">${b64}</embed></file></submission_file>
      </article>
      <article stage="production"><publication><title>Second</title></publication></article>
    </articles>
  </issue>
  <issue><issue_identification><year>2025</year></issue_identification><articles/></issue>
</issues>`;
    const issues = await read(xml, 3);
    expect(issues.map((i) => i.path)).toEqual(['issues/issue', 'issues/issue[2]']);
    expect(issues[0]).toMatchObject({
      name: 'issue',
      ns: 'http://pkp.sfu.ca',
      attrs: { published: '1' },
      line: 3,
    });
    const articles = issues[0].children.find((c) => c.name === 'articles')!.children;
    expect(articles.map((a) => a.path)).toEqual([
      'issues/issue/articles/article',
      'issues/issue/articles/article[2]',
    ]);
    const title = articles[0].children[0].children[0];
    expect(title).toMatchObject({ name: 'title', text: 'Zürich & Ωmega <raw>', attrs: { locale: 'en' } });
    const embed = articles[0].children[1].children[0].children[0];
    expect(embed.name).toBe('embed');
    expect(embed.text).toBe('');
    expect(embed.file).toMatchObject({
      size: PDF.length,
      sha256: createHash('sha256').update(PDF).digest('hex'),
    });
    expect(readFileSync(embed.file!.path).equals(PDF)).toBe(true);
    removeFiles(issues[0]);
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it('keeps a long embedded file out of memory, in pieces, whatever the size of the chunks read', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 1, 0x61);
    big.write('%PDF-1.7');
    const xml = Buffer.concat([
      Buffer.from('<articles xmlns="http://pkp.sfu.ca"><article><file><embed encoding="base64">'),
      Buffer.from(big.toString('base64')),
      Buffer.from('</embed></file></article></articles>'),
    ]);
    const [article] = await read(xml, 65_537, ['article']);
    const embed = article.children[0].children[0];
    expect(embed.file).toMatchObject({
      size: big.length,
      sha256: createHash('sha256').update(big).digest('hex'),
    });
    expect(embed.text).toBe('');
  });

  it('marks an embedded file whose text is not base64, and reads on', async () => {
    const xml = `<articles xmlns="http://pkp.sfu.ca"><article><embed encoding="base64">SGVsbG8*#!</embed></article><article><embed>SGVsbG8=</embed></article></articles>`;
    const [bad, good] = await read(xml, 4, ['article']);
    expect(bad.children[0].file).toMatchObject({ error: 'its contents are not base64' });
    expect(good.children[0].file).toMatchObject({ size: 5 });
    expect(readFileSync(good.children[0].file!.path, 'utf8')).toBe('Hello');
    expect(readdirSync(tmpDir)).toEqual(['embed-2']);
  });

  it('refuses a DOCTYPE: no entity is declared, none expanded (billion laughs, an external entity)', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<issues xmlns="http://pkp.sfu.ca"><issue><title>&lol3;</title></issue></issues>`;
    const one = await refusal(laughs);
    expect(one.message).toMatch(/declares a DOCTYPE/);
    expect(one.line).toBe(3);
    const xxe = `<?xml version="1.0"?><!DOCTYPE issues [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><issues xmlns="http://pkp.sfu.ca"><issue><title>&xxe;</title></issue></issues>`;
    expect((await refusal(xxe)).message).toMatch(/declares a DOCTYPE/);
    // An entity no DOCTYPE declared is an error too, never an empty string.
    const undeclared = '<issues xmlns="http://pkp.sfu.ca"><issue><title>&xxe;</title></issue></issues>';
    const err = await refusal(undeclared);
    expect(err.message).toMatch(/^The file is not well-formed XML: .*entity/i);
    expect(err.where).toBe('issues/issue/title');
  });

  it('says where a file stops being XML, and that a cut-off file is cut off', async () => {
    expect((await refusal('%PDF-1.4 this is not xml')).message).toMatch(/^The file is not XML/);
    expect((await refusal('')).message).toBe('The file is empty: it holds no XML element.');
    const cut = `<issues xmlns="http://pkp.sfu.ca">\n<issue>\n<articles>\n<article>`;
    const err = await refusal(cut);
    expect(err.message).toMatch(/ends before <issues> is closed: it was cut off/);
    expect(err.where).toBe('issues/issue/articles/article');
    const broken = '<issues xmlns="http://pkp.sfu.ca">\n<issue>\n<title>x</titel>\n</issue></issues>';
    const mismatch = await refusal(broken);
    expect(mismatch.line).toBe(3);
    expect(mismatch.message).toMatch(/not well-formed/);
    // Nothing left behind by a refusal in the middle of an embedded file.
    await refusal('<articles xmlns="http://pkp.sfu.ca"><article><embed>SGVsbG8=', 3);
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it('refuses nesting and text far beyond any export', async () => {
    const deep = `<issues>${'<a>'.repeat(60)}${'</a>'.repeat(60)}</issues>`;
    expect((await refusal(deep)).message).toMatch(/nested more than 48 deep/);
    const long = `<issues><issue><title>${'x'.repeat(4 * 1024 * 1024 + 10)}</title></issue></issues>`;
    expect((await refusal(long, 1 << 20)).message).toMatch(/The text of <title> is longer than/);
  });
});

describe('base64 as it streams', () => {
  it('decodes across pieces cut anywhere, and refuses what is not base64', () => {
    const text = Buffer.from('any carnal pleasure.').toString('base64');
    for (let cut = 0; cut <= text.length; cut++) {
      const s = new Base64Stream();
      const a = s.push(text.slice(0, cut)) ?? Buffer.alloc(0);
      const b = s.push(text.slice(cut)) ?? Buffer.alloc(0);
      s.end();
      expect(s.error).toBeNull();
      expect(Buffer.concat([a, b]).toString()).toBe('any carnal pleasure.');
    }
    const bad = new Base64Stream();
    bad.push('QUJD');
    bad.push('RA==QUJD');
    expect(bad.error).toMatch(/padding/);
    const short = new Base64Stream();
    short.push('QUJDR');
    short.end();
    expect(short.error).toMatch(/ends in the middle/);
  });
});

describe('counting records ahead', () => {
  it('counts the elements named, wherever the chunks cut them, and not their longer namesakes', async () => {
    const { countElements } = await import('./xml.ts');
    const xml = `<issues><issue><articles><article stage="x"><article_galley/></article><article>\n</article></articles></issue><issue/></issues>`;
    for (const size of [1, 3, 7, 1000]) {
      expect(await countElements(pieces(xml, size), ['issue', 'article'])).toEqual({ issue: 2, article: 2 });
    }
  });
});
