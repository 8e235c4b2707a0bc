import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The journal's own pages (spec sections 1, 2 and 9): their words come from the settings table (seeded from
 * content/), are rendered on the server, and must read, navigate and pass axe with or without JavaScript.
 */

const JOURNAL = 'Colophon Journal of Engineering and Informatics';

interface ContentPage {
  path: string;
  h1: string;
  /** The Journal Menu link that is the current page, when the page is in the menu. */
  menu?: string;
  /** Text the page must show. */
  texts: string[];
}

const PAGES: ContentPage[] = [
  {
    path: '/about',
    h1: 'About the Journal',
    texts: ['open-access, peer-reviewed journal', 'ISSN 3049-4176', 'Tamil Nadu, India', 'CC BY 4.0'],
  },
  {
    path: '/overview',
    h1: 'Journal Overview',
    menu: 'Journal Overview',
    texts: [
      '3049-4176',
      'Aims and scope',
      'Quarterly (4 issues a year',
      '2025',
      'English',
      'Online',
      'None: articles are open from the day of publication',
      '27 Sathy Road, Ganapathy, Coimbatore 641006, Tamil Nadu, India',
      '+91 422 254 3187',
      'Ownership and management',
      'Open access policy',
      'digital preservation service',
      'Committee on Publication Ethics (COPE)',
      'Last updated: March 18, 2025',
    ],
  },
  {
    path: '/indexing',
    h1: 'Indexing & Abstracting',
    menu: 'Indexing & Abstracting',
    texts: ['YET TO BE RELEASED', 'being updated', 'Directory of Open Access Journals (DOAJ)'],
  },
  {
    path: '/instructions',
    h1: 'Instructions for Authors',
    menu: 'Instructions for Authors',
    texts: [
      'Research Articles',
      'Review Articles',
      'Editorials',
      'Communications',
      'Letters',
      '4 to 5 keywords',
      'margins of 2.54 cm',
      'at least 300 dpi',
      'IEEE reference style',
      'Word manuscript template (.docx)',
      'LaTeX manuscript template (.tex)',
      'Through the submission portal',
      'By e-mail',
      'Peer-review process',
      'Corrections',
      'Retractions',
      'Withdrawal',
      'Removal',
      'Post-publication discussion',
    ],
  },
  {
    path: '/apc',
    h1: 'Article Processing Charge',
    menu: 'Article Processing Charge',
    texts: [
      'Before 1 June 2025',
      '0 USD',
      '100 USD',
      'Rejected articles are free of charge',
      'no extra charges for the length of the article',
      'US dollars (USD)',
      'payment details are sent to the corresponding author with the letter of acceptance',
      "at the publisher's discretion",
      'Discount vouchers may be given to selected reviewers',
    ],
  },
  {
    path: '/ethics',
    h1: 'Publication Ethics',
    menu: 'Publication Ethics',
    texts: [
      'Committee on Publication Ethics (COPE)',
      'Ethics approval',
      'Informed consent',
      'Research involving humans',
      'Research involving animals',
      'Cell lines',
      'Reporting guidelines',
      'Plagiarism',
      'Duplicate submission',
      'Fabrication and falsification',
      'Citation policy',
      'Investigations and sanctions',
    ],
  },
  {
    path: '/copyright',
    h1: 'Copyright and Licensing',
    texts: ['Download the copyright form (PDF)', 'Before you submit a paper, please download the copyright form'],
  },
  {
    path: '/editorial-board',
    h1: 'Editorial Board',
    menu: 'Editorial Board',
    texts: ['Editor-in-Chief', 'Associate Editors-in-Chief', 'Associate Editors', 'Editorial Board Members'],
  },
  {
    path: '/open-special-issues',
    h1: 'Open Special Issues',
    menu: 'Special Issues (open)',
    texts: ['Propose a special issue'],
  },
  { path: '/closed-special-issues', h1: 'Closed Special Issues', texts: ['15 July 2025'] },
  { path: '/special-issues', h1: 'Special Issues', texts: ['All calls for papers', '26 February 2026'] },
];

/** Every heading's level, in document order. */
async function headingLevels(page: Page): Promise<number[]> {
  return page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((els) => els.map((el) => Number(el.tagName[1])));
}

async function expectContentPage(page: Page, spec: ContentPage) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(spec.h1);
  for (const text of spec.texts) await expect(main, `${spec.path}: "${text}"`).toContainText(text);
  await expect(page).toHaveTitle(`${spec.h1} · ${JOURNAL}`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^.{40,}$/);

  const menu = page.getByRole('navigation', { name: 'Journal Menu' });
  await expect(menu).toBeVisible();
  const current = menu.locator('[aria-current="page"]');
  if (spec.menu) await expect(current).toHaveText(spec.menu);
  else await expect(current).toHaveCount(0);

  // One h1, and no heading skips a level on the way down.
  const levels = await headingLevels(page);
  expect(levels.filter((l) => l === 1), `${spec.path}: one h1`).toHaveLength(1);
  levels.forEach((level, i) => {
    if (i > 0) expect(level, `${spec.path}: heading ${i} skips a level`).toBeLessThanOrEqual(levels[i - 1] + 1);
  });
}

for (const spec of PAGES) {
  test(`${spec.path} renders its content, head and Journal Menu, and passes axe`, async ({ page, axe }) => {
    await page.goto(spec.path);
    await expectContentPage(page, spec);
    await axe(page);
  });

  test(`${spec.path} is complete without JavaScript, and passes axe there too`, async ({ noJsPage, axe }) => {
    await noJsPage.goto(spec.path);
    await expectContentPage(noJsPage, spec);
    await axe(noJsPage);
  });
}

test('the content is in the server HTML, and no Markdown reaches the page', async ({ request }) => {
  const html = await (await request.get('/overview')).text();
  expect(html).toContain('<h1');
  expect(html).toContain('Journal Overview');
  expect(html).toContain('3049-4176');
  expect(html).toContain('id="aims-and-scope"');
  expect(html).not.toContain('{{journal.');
  expect(html).not.toMatch(/^#+ /m);
});

test('pages fit a 360 px screen, with the Journal Menu below the content', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  for (const spec of PAGES) {
    await page.goto(spec.path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${spec.path} scrolls sideways`).toBeLessThanOrEqual(0);
    const h1 = await page.getByRole('heading', { level: 1 }).boundingBox();
    const menu = await page.getByRole('navigation', { name: 'Journal Menu' }).boundingBox();
    expect(menu!.y, `${spec.path}: menu below the content`).toBeGreaterThan(h1!.y);
  }
});

test('headings are linkable sections', async ({ page }) => {
  await page.goto('/instructions#peer-review-process');
  await expect(page.locator('#peer-review-process')).toHaveText('Peer-review process');
  await expect(page.locator('#peer-review-process')).toBeInViewport();
  await page.goto('/about');
  await page.getByRole('main').getByRole('link', { name: 'aims and scope' }).click();
  await expect(page).toHaveURL(/\/overview#aims-and-scope$/);
  await expect(page.getByRole('heading', { name: 'Aims and scope' })).toBeInViewport();
});

test.describe('editorial board', () => {
  test('each member has an affiliation, research areas and a contact e-mail', async ({ page }) => {
    await page.goto('/editorial-board');
    const main = page.getByRole('main');
    const chief = main.getByRole('region', { name: 'Editor-in-Chief' });
    await expect(chief.getByRole('heading', { level: 3 })).toHaveCount(1);
    const members = main.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    expect(await members.count()).toBeGreaterThanOrEqual(10);
    for (const member of await members.all()) {
      await expect(member).toContainText('Research areas:');
      await expect(member.getByRole('link')).toHaveAttribute('href', /^mailto:[^@]+@[\w.-]+\.example$/);
    }
  });
});

test.describe('special issues', () => {
  // Today (2026-11-22 when written) every seeded call has passed its deadline: the pages must say so.
  test('the open page says none is open and links to the closed ones; proposals go by e-mail', async ({ page }) => {
    await page.goto('/open-special-issues');
    const main = page.getByRole('main');
    await expect(main).toContainText('There are no special issues open for submissions at the moment.');
    await expect(main.getByRole('table')).toHaveCount(0);
    await main.getByRole('link', { name: 'closed special issues' }).click();
    await expect(page).toHaveURL(/\/closed-special-issues$/);

    await page.goto('/open-special-issues');
    const proposal = page.getByRole('region', { name: 'Propose a special issue' });
    await expect(proposal.getByRole('link', { name: /@/ })).toHaveAttribute(
      'href',
      /^mailto:[^?]+@[^?]+\?subject=Special%20issue%20proposal$/,
    );
  });

  test('the closed page lists the four past calls, most recent first, all Closed', async ({ page }) => {
    await page.goto('/closed-special-issues');
    const table = page.getByRole('table', { name: /closed/i });
    const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect(rows).toHaveCount(4);
    const deadlines = await table.locator('time').evaluateAll((els) => els.map((el) => el.getAttribute('datetime')));
    expect(deadlines).toEqual(['2026-02-26', '2025-11-20', '2025-08-15', '2025-07-15']);
    for (const row of await rows.all()) {
      await expect(row.getByRole('cell').nth(3)).toHaveText('Closed');
      await expect(row.getByRole('cell').nth(1)).toContainText('Dr.');
    }
    await expect(page.getByRole('main').getByRole('link', { name: 'See all special issues' })).toHaveAttribute(
      'href',
      '/special-issues',
    );
  });

  test('/special-issues lists every call with its deadline and status', async ({ page }) => {
    await page.goto('/special-issues');
    const table = page.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText([
      'Special issue',
      'Guest editors',
      'Submission deadline',
      'Status',
    ]);
    for (const date of ['15 July 2025', '15 August 2025', '20 November 2025', '26 February 2026']) {
      await expect(table.getByRole('row').filter({ hasText: date })).toContainText('Closed');
    }
  });
});

test.describe('downloads', () => {
  test('the copyright form downloads as a PDF', async ({ page }) => {
    await page.goto('/copyright');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the copyright form (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('CJEI-copyright-form.pdf');
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  test('the copyright form is served as an attachment with a PDF type', async ({ request }) => {
    const res = await request.get('/copyright-form.pdf');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    expect(res.headers()['content-disposition']).toMatch(/^attachment; filename="CJEI-copyright-form.pdf"/);
  });

  test('the Word and LaTeX templates download from /instructions', async ({ page, request }) => {
    await page.goto('/instructions');
    const links = page.getByRole('main').getByRole('link', { name: /manuscript template/ });
    const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(hrefs).toEqual(['/templates/manuscript-template.docx', '/templates/manuscript-template.tex']);

    const docx = await request.get(hrefs[0]!);
    expect(docx.headers()['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(docx.headers()['content-disposition']).toContain('filename="CJEI-manuscript-template.docx"');
    expect((await docx.body()).subarray(0, 2).toString('latin1')).toBe('PK');

    const tex = await request.get(hrefs[1]!);
    expect(await tex.text()).toContain('\\usepackage[margin=2.54cm]{geometry}');
    expect((await request.get('/templates/unknown.docx')).status()).toBe(404);
  });
});
