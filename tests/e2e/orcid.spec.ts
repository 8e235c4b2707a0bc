import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { MESSAGES } from '../../common/messages.ts';
import { expect, test } from './fixtures.ts';

/**
 * Authors' ORCID iDs (decision 0029), as a person meets them: typed on the submit form (a wrong one refused
 * on its own field), then, once the article is published, the green iD mark after the author's name on the
 * article page, linked to their record, in the page's metadata too; and corrected by an editor.
 */

const MANUSCRIPT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/manuscripts/manuscript.pdf',
);

// ORCID's own documented examples (valid check digits), one ending in X.
const PRIYA = '0000-0002-1694-233X';
const JON = '0000-0002-1825-0097';

const authorGroup = (page: Page, n: number) =>
  page.getByRole('group', { name: new RegExp(`^Author ${n}\\b`) });

async function fillAuthor(
  page: Page,
  n: number,
  a: { name: string; email: string; affiliation: string; superscript: string; orcid: string },
) {
  const group = authorGroup(page, n);
  await group.getByLabel('Full name').fill(a.name);
  await group.getByLabel('Email').fill(a.email);
  await group.getByLabel('Affiliation').fill(a.affiliation);
  await group.getByLabel('Superscript').fill(a.superscript);
  await group.getByLabel('ORCID iD').fill(a.orcid);
}

test('an author gives ORCID iDs on the submit form, and the published article links them', async ({
  page,
  signIn,
  adminApi,
  request,
  axe,
  screenshots,
}) => {
  const me = await signIn('author', 'approved');
  await page.goto('/submission');
  await expect(page.getByText('Drag and drop the file here').first()).toBeVisible();

  const title = `Adaptive duty cycling for soil-moisture sensing ${Date.now().toString(36)}`;
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Article type').selectOption('Research Article');
  await page.getByLabel('Keywords').fill('LoRaWAN, duty cycling, soil moisture');
  await page.getByLabel('Abstract').fill('Sensor nodes report more often only when the soil is drying fast.');
  await page.getByRole('button', { name: 'Add another author' }).click();
  // The address people copy from their record, in lower case: taken, and kept bare.
  await fillAuthor(page, 1, {
    name: 'Priya Raman',
    email: 'priya@example.org',
    affiliation: 'IIT Madras, Chennai, India',
    superscript: '1',
    orcid: `https://orcid.org/${PRIYA.toLowerCase()}`,
  });
  // A mistyped last digit.
  await fillAuthor(page, 2, {
    name: 'Jon Olsen',
    email: 'jon@example.org',
    affiliation: 'NTNU, Trondheim, Norway',
    superscript: '2',
    orcid: '0000-0002-1825-0098',
  });
  await page.getByLabel('Main manuscript file').setInputFiles(MANUSCRIPT);

  await page.getByRole('button', { name: 'Submit manuscript' }).click();
  const message = "This ORCID iD has a wrong check digit: copy it from the author's ORCID record.";
  await expect(page.getByRole('alert')).toContainText(`${MESSAGES.submissionFailedPrefix}${message}`);
  const jonOrcid = authorGroup(page, 2).getByLabel('ORCID iD');
  await expect(jonOrcid).toHaveAccessibleDescription(new RegExp(message.replace(/[.']/g, '.')));
  await expect(jonOrcid).toHaveAttribute('aria-invalid', 'true');
  await expect(authorGroup(page, 1).getByLabel('ORCID iD')).not.toHaveAttribute('aria-invalid', 'true');
  await axe(page);
  await authorGroup(page, 2).scrollIntoViewIfNeeded();
  await screenshots(page, 'orcid-submit-author-rows');

  await jonOrcid.fill(JON);
  await page.getByRole('button', { name: 'Submit manuscript' }).click();
  await expect(page.getByRole('status').filter({ hasText: MESSAGES.submissionSuccess })).toBeVisible();

  // The editors accept it and publish it in a new issue (the manuscript is the final PDF).
  const mine = await request.get('/api/submissions/mine', {
    headers: { authorization: `Bearer ${me.token}` },
  });
  const { id } = ((await mine.json()) as { id: number; title: string }[]).find((s) => s.title === title)!;
  const submission = await (await adminApi.get(`/api/submissions/${id}`)).json();
  expect(submission.authors.map((a: { orcid: string | null }) => a.orcid)).toEqual([PRIYA, JON]);
  // The author's own page of the submission shows the iDs written out, each linked.
  await page.goto(`/my-submissions/${id}`);
  await expect(page.getByRole('link', { name: `ORCID iD of Priya Raman: ${PRIYA}` })).toHaveAttribute(
    'href',
    `https://orcid.org/${PRIYA}`,
  );
  await expect(page.getByRole('link', { name: `ORCID iD of Jon Olsen: ${JON}` })).toBeVisible();
  for (const status of ['under_review', 'accepted']) {
    const res = await adminApi.post(`/api/editor/submissions/${id}/decision`, {
      data: { status, message: `Moved to ${status}.`, confirm: ['accept-without-review'] },
    });
    expect(res.status()).toBe(200);
  }
  const volumeNumber = 3000 + Math.floor(Math.random() * 1_000_000_000);
  const volume = await adminApi.post('/api/editor/volume', {
    data: { title: `Volume ${volumeNumber}`, volume_number: volumeNumber, year: 2026 },
  });
  const issue = await adminApi.post('/api/editor/issue', {
    data: { title: 'Issue 1', description: 'ORCID iDs.', volume_id: (await volume.json()).volume.id },
  });
  const published = await adminApi.post(`/api/editor/submissions/${id}/publish`, {
    multipart: {
      issue_id: String((await issue.json()).issue.id),
      pages: '1-8',
      doi: `10.5555/e2e.orcid.${volumeNumber}`,
    },
  });
  expect(published.status()).toBe(201);
  const { articleId } = await published.json();

  await page.goto(`/article/${articleId}`);
  const byline = page.getByRole('region', { name: 'Authors' });
  const priya = byline.getByRole('link', { name: 'ORCID iD of Priya Raman' });
  await expect(priya).toHaveAttribute('href', `https://orcid.org/${PRIYA}`);
  await expect(byline.getByRole('link', { name: 'ORCID iD of Jon Olsen' })).toHaveAttribute(
    'href',
    `https://orcid.org/${JON}`,
  );
  // The mark is drawn, not an image to fetch, and sits right after the name.
  await expect(priya.locator('svg.orcid-mark')).toBeVisible();
  await expect(byline.getByRole('listitem').first()).toContainText('Priya Raman');
  // For machines: Highwire tags (in author order) and schema.org.
  await expect(page.locator('meta[name="citation_author_orcid"]')).toHaveCount(2);
  expect(
    await page
      .locator('meta[name="citation_author_orcid"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('content'))),
  ).toEqual([`https://orcid.org/${PRIYA}`, `https://orcid.org/${JON}`]);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
  expect(jsonLd.author.map((a: { sameAs?: string }) => a.sameAs)).toEqual([
    `https://orcid.org/${PRIYA}`,
    `https://orcid.org/${JON}`,
  ]);
  await axe(page);
  await screenshots(page, 'orcid-article');

  // An editor corrects the iDs on the dashboard: a wrong one is refused on its field, an empty one removes it.
  await signIn('editor', 'approved');
  await page.goto(`/editor-dashboard/articles?edit=${articleId}`);
  const form = page.getByRole('form', { name: /^Edit “/ });
  await expect(form.getByLabel('Author 1 ORCID iD')).toHaveValue(PRIYA);
  await form.getByLabel('Author 2 ORCID iD').fill('0000-0002-1825');
  await form.getByRole('button', { name: 'Save the article' }).click();
  await expect(form.getByLabel('Author 2 ORCID iD')).toHaveAccessibleDescription(/four groups of four/);
  await axe(page);
  await screenshots(page, 'orcid-dashboard-edit');
  await form.getByLabel('Author 2 ORCID iD').fill('');
  // The article's own facts (issue 26): a wrong year refused on its field, then a subtitle and a licence.
  await form.getByLabel('Copyright year').fill('24');
  await form.getByRole('button', { name: 'Save the article' }).click();
  await expect(form.getByLabel('Copyright year')).toHaveAccessibleDescription(/four digits/);
  await form.getByLabel('Subtitle').fill('Notes from three rainy seasons');
  await form.getByLabel('Licence URL').fill('https://creativecommons.org/licenses/by-nc/4.0/');
  await form.getByLabel('Copyright holder').fill('The authors');
  await form.getByLabel('Copyright year').fill('2025');
  await axe(page);
  await screenshots(page, 'article-facts-edit');
  await form.getByRole('button', { name: 'Save the article' }).click();
  await expect(page.getByRole('status')).toContainText('updated.');
  await expect(form.getByLabel('Subtitle')).toHaveValue('Notes from three rainy seasons');
  await page.goto(`/article/${articleId}`);
  await expect(page.getByRole('link', { name: 'ORCID iD of Priya Raman' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'ORCID iD of Jon Olsen' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Notes from three rainy seasons');
  await expect(page.getByRole('link', { name: 'CC BY-NC 4.0' }).first()).toHaveAttribute(
    'href',
    'https://creativecommons.org/licenses/by-nc/4.0/',
  );
  await expect(page.getByText('Copyright © 2025 The authors.')).toBeVisible();
});
