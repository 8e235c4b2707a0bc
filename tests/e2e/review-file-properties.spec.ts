import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { expect, loginThroughApi, test } from './fixtures.ts';
import {
  FIXTURES,
  type Question,
  answersFor,
  bearer,
  inviteByApi,
  ok,
  underReview,
  uniqueTag,
} from './review-helpers.ts';

/**
 * Double-anonymous review and the manuscript's own properties, on the desk page (issue 14, decision 0024): a
 * PDF whose Author names its author warns the editor, who sends reviewers a copy without it; the warning
 * then says reviewers get the copy, the reviewer downloads it without the name, and the author's original
 * is as it was.
 */

/** The fixture manuscript with its PDF Author set, as Word's "Save as PDF" writes it. */
async function pdfByAuthor(name: string) {
  const doc = await PDFDocument.load(readFileSync(path.join(FIXTURES, 'manuscript.pdf')));
  doc.setAuthor(name);
  return Buffer.from(await doc.save());
}

const authorOf = async (bytes: Buffer) => (await PDFDocument.load(bytes)).getAuthor();

test('the editor is warned of a PDF naming its author, and sends reviewers a copy without the name', async ({
  page,
  signIn,
  createAccount,
  adminApi,
  baseURL,
  axe,
  screenshots,
}) => {
  const tag = uniqueTag();
  const writer = { name: `Imogen Fairweather ${tag}`, email: `fairweather-${tag}@example.org` };
  const author = await createAccount('author');
  const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
  const s = await underReview(adminApi, authorToken, {
    title: `Named in its properties ${tag}`,
    authors: [{ ...writer, affiliation: 'Fairweather Institute' }],
    file: {
      name: 'fairweather-draft.pdf',
      mimeType: 'application/pdf',
      buffer: await pdfByAuthor(writer.name),
    },
  });
  await signIn('editor');

  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  const panel = page.getByRole('region', { name: 'Peer review' });
  const warning = panel.getByRole('note', {
    name: 'Double-anonymous review: the files reviewers receive name people in their own properties.',
  });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('fairweather-draft.pdf');
  await expect(warning).toContainText(`Author — ${writer.name}`);
  await axe(page);
  await screenshots(page, 'desk-file-properties-warning');

  await warning.getByRole('button', { name: 'Send reviewers copies without these properties' }).click();
  await expect(page.getByRole('status')).toContainText(
    "Reviewers now get a copy without the properties that named people (fairweather-draft-for-reviewers.pdf). The author's files are as they were.",
  );
  await expect(warning).toHaveCount(0);
  const sent = panel.getByRole('note');
  await expect(sent).toContainText(
    'Double-anonymous review: reviewers get a copy without the properties that named people (fairweather-draft-for-reviewers.pdf).',
  );
  await expect(sent.getByRole('button')).toHaveCount(0);
  await axe(page);
  await screenshots(page, 'desk-file-properties-sent');

  // The author's original is as it was, in the submission's files.
  const detail = await ok(adminApi.get(`/api/submissions/${s.id}`));
  const original = detail.files[0] as { id: number; name: string };
  expect(original.name).toBe('fairweather-draft.pdf');
  const own = await adminApi.get(`/api/submissions/${s.id}/files/${original.id}`, {
    headers: bearer(authorToken),
  });
  expect(own.ok()).toBe(true);
  expect(await authorOf(await own.body())).toBe(writer.name);

  // A reviewer who accepts downloads the copy, which names nobody.
  const reviewer = await createAccount('researcher');
  const reviewerToken = await loginThroughApi(baseURL!, reviewer.username, reviewer.password);
  const assignment = await inviteByApi(adminApi, s.id, { userId: reviewer.id });
  const view = await ok(
    adminApi.post(`/api/reviews/${assignment}/accept`, { headers: bearer(reviewerToken) }),
  );
  const [copy] = view.files as { id: number; name: string }[];
  expect(copy.id).not.toBe(original.id);
  const got = await adminApi.get(`/api/reviews/${assignment}/files/${copy.id}`, {
    headers: bearer(reviewerToken),
  });
  expect(got.ok()).toBe(true);
  const bytes = await got.body();
  expect((await authorOf(bytes)) ?? '').toBe('');
  expect(bytes.includes(Buffer.from(writer.name))).toBe(false);
});

test('a reviewer’s attached file naming the reviewer: the editor is warned on the review, the author gets a copy without the name (issue 22)', async ({
  page,
  signIn,
  createAccount,
  adminApi,
  baseURL,
  axe,
  screenshots,
}) => {
  const tag = uniqueTag();
  const author = await createAccount('author');
  const authorToken = await loginThroughApi(baseURL!, author.username, author.password);
  const s = await underReview(adminApi, authorToken, { title: `An attachment that names ${tag}` });
  const reviewer = await createAccount('researcher');
  const reviewerName = `Octavia Redpen ${tag}`;
  const reviewerToken = await loginThroughApi(baseURL!, reviewer.username, reviewer.password);
  const assignment = await inviteByApi(adminApi, s.id, { userId: reviewer.id });
  const view = await ok(
    adminApi.post(`/api/reviews/${assignment}/accept`, { headers: bearer(reviewerToken) }),
  );
  await ok(
    adminApi.post(`/api/reviews/${assignment}/attachment`, {
      headers: bearer(reviewerToken),
      multipart: {
        file: { name: 'notes.pdf', mimeType: 'application/pdf', buffer: await pdfByAuthor(reviewerName) },
      },
    }),
  );
  await ok(
    adminApi.post(`/api/reviews/${assignment}/submit`, {
      headers: bearer(reviewerToken),
      data: {
        recommendation: 'minor-revisions',
        commentsForAuthor: `See my notes. ${tag}`,
        answers: answersFor((view as { questions: Question[] }).questions),
      },
    }),
  );

  await signIn('editor');
  await page.goto(`/editor-dashboard/submissions/${s.id}`);
  const card = page.getByRole('article', { name: /^Review by / });
  const warning = card.getByRole('note', {
    name: 'The attached file names the reviewer in its own properties:',
  });
  await expect(warning).toContainText(`PDF properties: Author — ${reviewerName}`);
  await expect(warning).toContainText('The author receives a copy without these properties');
  await axe(page);
  await warning.scrollIntoViewIfNeeded();
  await screenshots(page, 'desk-review-attachment-properties');

  await ok(
    adminApi.post(`/api/editor/submissions/${s.id}/decision`, {
      data: {
        status: 'revisions_requested',
        revisions: 'minor',
        message: 'Please revise.',
        shareReviews: [assignment],
      },
    }),
  );
  const got = await adminApi.get(`/api/submissions/${s.id}/reviews/${assignment}/attachment`, {
    headers: bearer(authorToken),
  });
  expect(got.ok()).toBe(true);
  const bytes = await got.body();
  expect((await authorOf(bytes)) ?? '').toBe('');
  expect(bytes.includes(Buffer.from(reviewerName))).toBe(false);
});
