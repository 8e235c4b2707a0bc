import { inflateRawSync } from 'node:zlib';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDITORIAL_BOARD_KEY,
  PAGE_SLUGS,
  SPECIAL_ISSUES_KEY,
  pageKey,
  specialIssuesSchema,
} from '../../common/content.ts';
import { defaultPages } from '../../content/pages/index.ts';
import { specialIssues as seededIssues } from '../../content/special-issues.ts';
import { seed } from '../seed/seed.ts';
import { JOURNAL_KEY } from '../settings/service.ts';
import { settings } from '../settings/tables.ts';
import { type TestContext, createTestContext } from '../testing/harness.ts';
import { fillPlaceholders, renderPage, sanitize, slugify } from './markdown.ts';
import { specialIssueStatus } from './service.ts';
import { crc32 } from './zip.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

describe('special issues', () => {
  it('are open through the whole deadline day (UTC) and closed from the next day', () => {
    expect(specialIssueStatus('2025-07-15', new Date('2025-07-14T12:00:00Z'))).toBe('Open');
    expect(specialIssueStatus('2025-07-15', new Date('2025-07-15T00:00:00Z'))).toBe('Open');
    expect(specialIssueStatus('2025-07-15', new Date('2025-07-15T23:59:59.999Z'))).toBe('Open');
    expect(specialIssueStatus('2025-07-15', new Date('2025-07-16T00:00:00Z'))).toBe('Closed');
    // Month and year ends.
    expect(specialIssueStatus('2025-12-31', new Date('2025-12-31T23:00:00Z'))).toBe('Open');
    expect(specialIssueStatus('2025-12-31', new Date('2026-01-01T00:00:00Z'))).toBe('Closed');
  });

  it("seeds the spec's four calls, by deadline, with their status at a pinned date", async () => {
    const status = async (iso: string) =>
      (await ctx.services.content.specialIssues(new Date(iso))).map((s) => [s.deadline, s.status]);

    expect(await status('2025-07-15T18:00:00Z')).toEqual([
      ['2025-07-15', 'Open'],
      ['2025-08-15', 'Open'],
      ['2025-11-20', 'Open'],
      ['2026-02-26', 'Open'],
    ]);
    expect(await status('2025-07-16T00:00:00Z')).toEqual([
      ['2025-07-15', 'Closed'],
      ['2025-08-15', 'Open'],
      ['2025-11-20', 'Open'],
      ['2026-02-26', 'Open'],
    ]);
    expect(await status('2025-11-21T09:00:00Z')).toEqual([
      ['2025-07-15', 'Closed'],
      ['2025-08-15', 'Closed'],
      ['2025-11-20', 'Closed'],
      ['2026-02-26', 'Open'],
    ]);
    // Today (2026-11-22): every call has closed.
    expect((await status('2026-11-22T10:00:00Z')).every(([, s]) => s === 'Closed')).toBe(true);

    const [first] = await ctx.services.content.specialIssues(new Date('2025-01-01T00:00:00Z'));
    expect(first.title).toBeTruthy();
    expect(first.guestEditors.length).toBeGreaterThan(0);
  });

  it('rejects a list with an impossible date or a repeated id', () => {
    const [one] = seededIssues;
    expect(specialIssuesSchema.safeParse([{ ...one, deadline: '2025-02-30' }]).success).toBe(false);
    expect(specialIssuesSchema.safeParse([one, one]).success).toBe(false);
    expect(specialIssuesSchema.safeParse(seededIssues).success).toBe(true);
  });
});

describe('pages', () => {
  it('fills the placeholders from the journal settings', async () => {
    const journal = await ctx.services.settings.journal();
    for (const slug of PAGE_SLUGS) {
      const page = await ctx.services.content.page(slug);
      expect(page, slug).not.toBeNull();
      expect(page!.title, slug).toMatch(/\S/);
      expect(page!.description.length, slug).toBeGreaterThan(40);
      expect(page!.html, slug).not.toContain('{{');
      expect(page!.html, slug).not.toMatch(/<h1[\s>]/);
    }
    const overview = (await ctx.services.content.page('overview'))!;
    expect(overview.html).toContain(journal.issnOnline);
    expect(overview.html).toContain(journal.name);
    expect(overview.html).toContain(journal.publisherAddress);
    expect(overview.html).toContain(`href="mailto:${journal.email}"`);
    expect(overview.html).toContain('Last updated: March 18, 2025');
    expect((await ctx.services.content.page('about'))!.html).toContain('It appears quarterly');
  });

  it('follows a change of the journal settings (one source for name and ISSN)', async () => {
    const journal = await ctx.services.settings.journal();
    await ctx.services.settings.set(ctx.services.db, JOURNAL_KEY, { ...journal, issnOnline: '2049-3630' });
    try {
      expect((await ctx.services.content.page('overview'))!.html).toContain('2049-3630');
    } finally {
      await ctx.services.settings.set(ctx.services.db, JOURNAL_KEY, journal);
    }
  });

  it('gives headings ids, unique within the page, and leaves unknown placeholders visible', () => {
    const page = renderPage('# Title\n\nIntro.\n\n## Peer-review process\n\n## Peer-review process\n\n### Q&A: "Why?"');
    expect(page.title).toBe('Title');
    expect(page.description).toBe('Intro.');
    expect(page.html).toContain('<h2 id="peer-review-process">');
    expect(page.html).toContain('<h2 id="peer-review-process-2">');
    expect(page.html).toContain('<h3 id="qa-why">');
    expect(slugify('Indexing & Abstracting')).toBe('indexing-abstracting');
    expect(fillPlaceholders('{{journal.nope}} {{journal.name | shout}}', new Map([['journal.name', 'J']]))).toBe(
      '{{journal.nope}} {{journal.name | shout}}',
    );
  });

  it('strips scripts, event handlers and javascript: links', () => {
    const md = [
      '# Title',
      '',
      'Text <script>alert(1)</script> and <img src="x.png" alt="x" onerror="alert(2)">.',
      '',
      '<a href="javascript:alert(3)" onclick="alert(4)">link</a> <iframe src="https://evil.example"></iframe>',
      '',
      '[md link](javascript:alert(5)) <span class="badge" style="color:red" onmouseover="x()">OK</span>',
    ].join('\n');
    const { html } = renderPage(md);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/alert\(1\)/);
    expect(html).not.toMatch(/onerror|onclick|onmouseover/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/<iframe|style=/i);
    expect(html).toContain('<img src="x.png" alt="x" />');
    expect(html).toContain('<span class="badge">OK</span>');
    expect(sanitize('<p onerror="x()">a</p><svg onload="x()"></svg>')).toBe('<p>a</p>');
  });

  it('keeps the markup a page may use: tables with column headers, lists, links, anchors', () => {
    const { html } = renderPage('# T\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n\n- [x](/about#scope)\n- [m](mailto:a@b.example)');
    expect(html).toContain('<th scope="col">A</th>');
    expect(html).toContain('<a href="/about#scope">x</a>');
    expect(html).toContain('<a href="mailto:a@b.example">m</a>');
  });

  it('shows a link that stands alone and points at a file as a download button', () => {
    const { html } = renderPage('# T\n\n[Form (PDF)](/copyright-form.pdf)\n\nSee [the form](/copyright-form.pdf).');
    expect(html).toContain('<p class="download"><a class="download__link" href="/copyright-form.pdf">Form (PDF)</a></p>');
    expect(html).toContain('<p>See <a href="/copyright-form.pdf">the form</a>.</p>');
    // Classes outside the allow-list are dropped.
    expect(renderPage('# T\n\n<a class="evil" href="/x">x</a>').html).toContain('<a href="/x">x</a>');
  });
});

describe('editorial board', () => {
  it('lists the sections in order, each member with affiliation, research areas and e-mail', async () => {
    const sections = await ctx.services.content.editorialBoard();
    expect(sections.map((s) => s.heading)).toEqual([
      'Editor-in-Chief',
      'Associate Editors-in-Chief',
      'Associate Editors',
      'Editorial Board Members',
    ]);
    for (const member of sections.flatMap((s) => s.members)) {
      expect(member.affiliation).toBeTruthy();
      expect(member.researchAreas.length).toBeGreaterThan(0);
      expect(member.email).toMatch(/\.example$/);
    }
  });
});

describe('seeding the content', () => {
  it('stores every page, the board and the special issues', async () => {
    const rows = await ctx.services.db.select().from(settings).where(like(settings.key, 'content.%'));
    expect(rows.map((r) => r.key).sort()).toEqual(
      [...PAGE_SLUGS.map(pageKey), EDITORIAL_BOARD_KEY, SPECIAL_ISSUES_KEY].sort(),
    );
    expect(await ctx.services.content.pageSource('apc')).toBe(defaultPages().apc.trim());
  });

  it('is idempotent and never overwrites an edited page', async () => {
    const { services } = ctx;
    const edited = '# Article Processing Charge\n\nEdited by the office: {{journal.abbreviation}} charges nothing.';
    await services.content.savePage(services.db, 'apc', edited);
    const before = await services.db.select().from(settings).where(like(settings.key, 'content.%'));

    await seed(services, { demo: false });
    await seed(services, { demo: false });

    const after = await services.db.select().from(settings).where(like(settings.key, 'content.%'));
    expect(after.map((r) => [r.key, r.value]).sort()).toEqual(before.map((r) => [r.key, r.value]).sort());
    expect(await services.content.pageSource('apc')).toBe(edited);
    expect((await services.content.page('apc'))!.html).toContain('Edited by the office: CJEI charges nothing.');
  });

  it('adds content missing from an older data folder on the next start', async () => {
    const { services } = ctx;
    await services.db.delete(settings).where(eq(settings.key, pageKey('ethics')));
    await services.db.delete(settings).where(eq(settings.key, SPECIAL_ISSUES_KEY));
    expect(await services.content.page('ethics')).toBeNull();

    await seed(services, { demo: false });

    expect((await services.content.page('ethics'))!.title).toBe('Publication Ethics');
    expect(await services.content.specialIssues(new Date())).toHaveLength(4);
  });
});

describe('downloads', () => {
  it('generates the copyright form as a PDF named after the journal', async () => {
    const form = await ctx.services.content.copyrightForm();
    expect(Buffer.from(form.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(form.filename).toBe('CJEI-copyright-form.pdf');
    expect(form.mediaType).toBe('application/pdf');
  });

  it('generates a Word template that is a well-formed ZIP of Office XML parts', async () => {
    const docx = (await ctx.services.content.template('manuscript-template.docx'))!;
    expect(docx.filename).toBe('CJEI-manuscript-template.docx');
    const parts = readZip(Buffer.from(docx.bytes));
    expect([...parts.keys()]).toEqual(
      expect.arrayContaining(['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'word/styles.xml']),
    );
    const document = parts.get('word/document.xml')!.toString('utf8');
    expect(document).toContain('<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"');
    expect(document).toContain('Keywords: ');
    expect(parts.get('word/header1.xml')!.toString('utf8')).toContain('3049-4176');
  });

  it('generates a LaTeX template with the journal layout', async () => {
    const tex = Buffer.from((await ctx.services.content.template('manuscript-template.tex'))!.bytes).toString('utf8');
    expect(tex).toContain('\\documentclass[12pt,a4paper]{article}');
    expect(tex).toContain('\\usepackage[margin=2.54cm]{geometry}');
    expect(tex).toContain('ISSN 3049-4176');
    expect(tex).toContain('\\end{document}');
    expect(await ctx.services.content.template('../etc/passwd')).toBeNull();
  });
});

/** Reads a ZIP's entries from its central directory, checking each entry's CRC. */
function readZip(buf: Buffer): Map<string, Buffer> {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    expect(buf.readUInt32LE(at)).toBe(0x02014b50);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const size = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const packed = buf.subarray(dataStart, dataStart + size);
    const data = method === 8 ? inflateRawSync(packed) : packed;
    expect(crc32(data)).toBe(crc);
    out.set(name, data);
    at += 46 + nameLength;
  }
  return out;
}
