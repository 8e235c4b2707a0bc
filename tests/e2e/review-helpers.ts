import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * Peer review's browser tests' shared steps (issue 14). The journal has one review form, and a round takes
 * the newest when it opens: reviewer.spec.ts changes it for a few seconds at a time, in parallel with the
 * other specs. So a test that submits a review never assumes its round's form is empty: it answers whatever
 * questions the round asks (`answersFor` through the API, `answerQuestions` on the page).
 */

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/manuscripts');
export const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** The day `days` from today (UTC), as a date field takes it. */
export const dayOffset = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** "24 December 2026", as the pages write a day. */
export const longDay = (day: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
export const manuscriptPdf = () => ({
  name: 'manuscript.pdf',
  mimeType: 'application/pdf',
  buffer: readFileSync(path.join(FIXTURES, 'manuscript.pdf')),
});

/** The link of an invitation e-mail (the journal's address, the assignment and its token). */
export function reviewLink(text: string): { url: string; id: number } {
  const m = /https?:\/\/\S+\/reviews\/(\d+)\?token=[A-Za-z0-9._-]+/.exec(text);
  expect(m, `a review link in:\n${text}`).not.toBeNull();
  return { url: m![0], id: Number(m![1]) };
}

/** Nothing on the page reaches past a 390 px phone's width (a table may scroll inside its own box). */
export async function fitsAPhone(page: Page) {
  const original = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  if (original) await page.setViewportSize(original);
  expect(wide, 'the page is wider than the phone').toBeLessThanOrEqual(390);
}

/** Expects a 2xx answer and returns its JSON. */
export async function ok(res: Promise<APIResponse>) {
  const r = await res;
  expect(r.ok(), `${r.url()}: ${await r.text()}`).toBe(true);
  return r.json();
}

/** A manuscript submitted by `authorToken`'s account and sent to review by `api` (an editor). */
export async function underReview(
  api: APIRequestContext,
  authorToken: string,
  o: {
    title: string;
    file?: { name: string; mimeType: string; buffer: Buffer };
    authors?: { name: string; email: string; affiliation: string }[];
  },
) {
  const res = await api.post('/api/submission/submit', {
    headers: bearer(authorToken),
    multipart: {
      title: o.title,
      articleType: 'Research Article',
      keywords: 'peer review, anonymity',
      abstract: 'We study what reviewers need to see, and what they must not.',
      conflictOfInterest: 'None.',
      fundingStatement: 'None.',
      dataAvailabilityStatement: 'None.',
      authors: JSON.stringify(
        (o.authors ?? [{ name: 'Priya Raman', email: 'priya@example.org', affiliation: 'IIT Madras' }]).map(
          (a) => ({ ...a, superscript: '1' }),
        ),
      ),
      submissionFile: o.file ?? manuscriptPdf(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const s = (await res.json()) as { id: number; reference: string };
  await ok(
    api.post(`/api/editor/submissions/${s.id}/decision`, {
      data: { status: 'under_review', message: 'Sent to peer review.' },
    }),
  );
  return s;
}

/** Invites a reviewer through the editors' API; returns the assignment's id. */
export async function inviteByApi(
  api: APIRequestContext,
  submissionId: number,
  who: Record<string, unknown>,
) {
  const res = await api.post(`/api/editor/submissions/${submissionId}/review/invitations`, { data: who });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { assignmentId: number }).assignmentId;
}

export type Question = { id: string; type: string; label: string; options?: string[] };

/** A complete, valid set of answers for whatever questions the round asks (for the reviewers' API). */
export function answersFor(questions: readonly Question[]) {
  return Object.fromEntries(
    questions.map((q) => [
      q.id,
      q.type === 'yes-no' ? true : q.type === 'scale' ? 4 : q.type === 'choice' ? q.options![0] : 'Sound.',
    ]),
  );
}

/** The same answers given on the reviewer's page, as a reviewer would. */
export async function answerQuestions(page: Page, questions: readonly Question[]) {
  const form = page.getByRole('region', { name: 'Your review' });
  for (const q of questions) {
    if (q.type === 'short-text' || q.type === 'long-text') {
      await form.getByRole('textbox', { name: q.label }).fill('Adequate.');
    } else {
      const option = q.type === 'yes-no' ? 'Yes' : q.type === 'scale' ? '4' : q.options![0];
      await form
        .getByRole('group', { name: q.label })
        .getByRole('radio', { name: option, exact: true })
        .check();
    }
  }
}

/** The page is hydrated (one check for every spec: fixtures.ts). */
export { hydrated } from './fixtures.ts';
