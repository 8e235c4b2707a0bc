import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { auditLog } from '../../server/audit/tables.ts';
import { MINUTE } from '../../server/clock.ts';
import { MESSAGES, POLL_DELAY } from '../../server/doi/service.ts';
import { jobs } from '../../server/jobs/tables.ts';
import { mailLog } from '../../server/mail/tables.ts';
import { type FakeCrossref, startFakeCrossref } from '../../server/testing/fake-crossref.ts';
import { type FakeDoaj, startFakeDoaj } from '../../server/testing/fake-doaj.ts';
import {
  acceptedSubmission,
  articleFields,
  createIssueInNewVolume,
  publishArticle,
} from '../../server/testing/factories.ts';
import { createTestContext, postMultipart, type TestContext } from '../../server/testing/harness.ts';
import { SCHEMA_TIMEOUT, validateWithSchema } from './discovery-helpers.ts';

/**
 * DOIs that register themselves (issue 25, decision 0064), through the API against a fake Crossref and a fake
 * DOAJ on loopback: the pattern, deposits on publication and after a change, Crossref's answers (success,
 * failure, 401, 500 then success, a timeout, a cut connection, a slow result), DOAJ, and the password never
 * shown anywhere.
 */

const PASSWORD = 'secret-pass';
const PATTERN = '{prefix}/cjei.{year}.{volume}.{issue}.{number}';

let t: TestContext;
let crossref: FakeCrossref;
let doaj: FakeDoaj;
let admin: Record<string, string>;
let author: Record<string, string>;
let issueId = 0;
/** Every answer's body, to show the password is in none. */
const bodies: string[] = [];

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) {
  const res = await t.app.inject({ method, url, headers: admin, payload: payload as never });
  bodies.push(res.body);
  return res;
}

function settings(over: Record<string, unknown> = {}) {
  return call('PUT', '/api/admin/doi-settings', {
    pattern: PATTERN,
    crossref_username: 'depositor',
    crossref_password: PASSWORD,
    crossref_mode: 'test',
    crossref_endpoint: crossref.endpoint,
    auto_deposit: true,
    doaj_enabled: false,
    ...over,
  });
}

async function state(articleId: number) {
  const res = await call('GET', `/api/editor/dois/${articleId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().article as {
    doi: string | null;
    state: string;
    message: string | null;
    batchId: string | null;
    doajState: string;
    doajMessage: string | null;
  };
}

let n = 0;
/** Publishes an accepted submission into the issue, with a DOI typed or none. */
async function publishSubmission(doi?: string): Promise<number> {
  const id = await acceptedSubmission(t, author, admin, { title: `A DOI article ${++n}` });
  const res = await postMultipart(t.app, `/api/editor/submissions/${id}/publish`, admin, {
    issue_id: String(issueId),
    pages: `${n * 10}-${n * 10 + 9}`,
    ...(doi ? { doi } : {}),
  });
  bodies.push(res.body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().articleId;
}

/** Publishes straight into the issue (the dashboard's upload) with a typed DOI. */
async function upload(doi: string, title = `Uploaded ${++n}`): Promise<number> {
  return (await publishArticle(t, admin.authorization.slice(7), { issueId, title, doi, pages: '1-9' })).id;
}

async function edit(articleId: number, over: { title?: string; doi?: string }) {
  const a = (await t.services.catalog.article(articleId, { includeUnpublished: true }))!;
  return call(
    'PATCH',
    `/api/editor/articles/${articleId}`,
    articleFields({ issueId, title: over.title ?? a.title, doi: over.doi ?? a.doi ?? '', pages: a.pages }),
  );
}

beforeAll(async () => {
  t = await createTestContext({ DEPOSIT_TIMEOUT: '1s' });
  crossref = await startFakeCrossref({ usr: 'depositor', pwd: PASSWORD });
  doaj = await startFakeDoaj('doaj-key');
  admin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const a = await t.createUser({ role: 'author', status: 'approved' });
  author = { authorization: `Bearer ${await t.login(a.username, a.password)}` };
  issueId = await createIssueInNewVolume(t, admin, { number: 7, year: 2026 });
});

afterAll(async () => {
  await t?.close();
  await crossref?.close();
  await doaj?.close();
});

describe('a development start: nothing is deposited until the editor configures it', () => {
  it('queues the deposit on publication and fails it plainly for want of credentials, without a call', async () => {
    const view = (await call('GET', '/api/admin/doi-settings')).json().settings;
    expect(view).toMatchObject({
      autoDeposit: true,
      crossrefMode: 'test',
      depositUrl: 'https://test.crossref.org/v2/deposits',
      hasPassword: false,
      doajEnabled: false,
    });
    const id = await upload('10.5555/dev.start.1');
    const s = await state(id);
    expect(s.state).toBe('failed');
    expect(s.message).toBe(MESSAGES.noCredentials);
    expect(crossref.deposits).toHaveLength(0);
    const [job] = await t.services.db
      .select()
      .from(jobs)
      .where(sql`${jobs.name} = 'doi.deposit' and ${jobs.payload}->>'articleId' = ${String(id)}`);
    expect(job.status).toBe('done');
  });

  it('gives an article published without a DOI one from the demo DOIs’ pattern until the journal chooses its own', async () => {
    const view = (await call('GET', '/api/admin/doi-settings')).json().settings;
    expect(view.pattern).toBe('{prefix}/{journal}.{year}.{volume}.{issue}.{number}');
    const id = await publishSubmission();
    const s = await state(id);
    expect(s.doi).toMatch(/^10\.5555\/cjei\.2026\.\d+\.1\.\d+$/);
    expect(s.state).toBe('failed');
    expect(s.message).toBe(MESSAGES.noCredentials);
  });

  it('keeps a DOI not deposited editable', async () => {
    const id = await upload('10.5555/dev.start.2');
    const res = await edit(id, { doi: '10.5555/dev.start.2b' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().article.doi).toBe('10.5555/dev.start.2b');
  });
});

describe('settings', () => {
  it('refuses a pattern with an unknown placeholder, without {number} or {id}, or not a DOI', async () => {
    for (const [pattern, message] of [
      ['{prefix}/x.{month}.{number}', /Unknown placeholder \{month\}/],
      ['{prefix}/cjei.{year}', /\{number\} or \{id\}/],
      ['cjei.{number}', /must start with \{prefix\}\//],
      ['{prefix}/a b.{number}', /no spaces/],
      ['{prefix}/{number', /brace/],
    ] as const) {
      const res = await settings({ pattern });
      expect(res.statusCode, pattern).toBe(400);
      expect(res.json().errors.pattern).toMatch(message);
    }
    const bad = await settings({ crossref_mode: 'live' });
    expect(bad.statusCode).toBe(400);
  });

  it('saves the settings and never answers the password', async () => {
    const res = await settings();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({
      pattern: PATTERN,
      hasPassword: true,
      crossrefUsername: 'depositor',
    });
    expect(res.body).not.toContain(PASSWORD);
    // Left out, the stored password stays.
    const again = await settings({ crossref_password: undefined });
    expect(again.json().settings.hasPassword).toBe(true);
  });

  it('is the admin’s to change', async () => {
    const e = await t.createUser({ role: 'editor', status: 'approved' });
    const editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/doi-settings',
      headers: editor,
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('assigning DOIs', () => {
  it('gives an article published without a DOI one from the pattern, its number in the issue', async () => {
    const id = await publishSubmission();
    const s = await state(id);
    const count = (await t.services.catalog.issueArticles(issueId)).length;
    expect(s.doi).toBe(`10.5555/cjei.2026.7.1.${count}`);
    // The author's e-mail names it.
    expect(t.mail.at(-1)?.text).toContain(s.doi);
  });

  it('keeps a DOI typed by the editor', async () => {
    const id = await publishSubmission('10.5555/typed.by.hand');
    expect((await state(id)).doi).toBe('10.5555/typed.by.hand');
  });

  it('never gives a DOI already taken: the next number', async () => {
    const count = (await t.services.catalog.issueArticles(issueId)).length;
    // Typed by hand, the DOI the pattern would give the next article.
    await upload(`10.5555/cjei.2026.7.1.${count + 2}`);
    const id = await publishSubmission();
    expect((await state(id)).doi).toBe(`10.5555/cjei.2026.7.1.${count + 3}`);
  });
});

describe('depositing with Crossref', () => {
  let registeredId = 0;

  it('deposits on publication: schema-valid XML as doMDUpload, registered with its batch id', {
    timeout: SCHEMA_TIMEOUT,
  }, async () => {
    const before = crossref.deposits.length;
    registeredId = await publishSubmission();
    const s = await state(registeredId);
    expect(s.state).toBe('registered');
    expect(crossref.deposits).toHaveLength(before + 1);
    const sent = crossref.deposits.at(-1)!;
    expect(sent).toMatchObject({ usr: 'depositor', operation: 'doMDUpload', dois: [s.doi] });
    expect(sent.filename).toMatch(/\.xml$/);
    expect(s.batchId).toBe(sent.batchId);
    const check = validateWithSchema('crossref', sent.xml);
    expect(check.ok, check.output).toBe(true);
  });

  it('refuses to change a deposited DOI, with a plain message', async () => {
    const res = await edit(registeredId, { doi: '10.5555/another.one' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/deposited with Crossref and can no longer be changed/);
    expect(res.json().errors.doi).toMatch(/can no longer be changed/);
  });

  it('redeposits after the title changes: a new batch id and a larger timestamp', async () => {
    const first = crossref.deposits.findLast((d) => d.batchId === crossref.deposits.at(-1)!.batchId)!;
    const res = await edit(registeredId, { title: 'A new title for a registered article' });
    expect(res.statusCode, res.body).toBe(200);
    const s = await state(registeredId);
    expect(s.state).toBe('registered');
    const second = crossref.deposits.at(-1)!;
    expect(second.xml).toContain('A new title for a registered article');
    expect(second.batchId).not.toBe(first.batchId);
    expect(BigInt(second.timestamp)).toBeGreaterThan(BigInt(first.timestamp));
    expect(s.batchId).toBe(second.batchId);
  });

  it('redeposits when its issue’s month changes, not when nothing a deposit says changed', async () => {
    const before = crossref.deposits.length;
    const patch = (payload: Record<string, unknown>) =>
      call('PATCH', `/api/editor/issues/${issueId}`, payload);
    expect((await patch({ title: 'Issue 1', description: 'Spring', publication_month: 3 })).statusCode).toBe(
      200,
    );
    expect(crossref.deposits.length).toBeGreaterThan(before);
    const { doi } = await state(registeredId);
    const sent = crossref.deposits.findLast((d) => d.dois.includes(doi!))!;
    expect(sent.batchId).toBe((await state(registeredId)).batchId);
    expect((await state(registeredId)).state).toBe('registered');
    const after = crossref.deposits.length;
    expect(
      (await patch({ title: 'Issue 1', description: 'Spring, again', publication_month: 3 })).statusCode,
    ).toBe(200);
    expect(crossref.deposits).toHaveLength(after);
  });

  it('marks a changed DOI stale when automatic deposit is off, and the editor redeposits it', async () => {
    await settings({ auto_deposit: false });
    try {
      const before = crossref.deposits.length;
      await edit(registeredId, { title: 'Changed again, by hand this time' });
      const s = await state(registeredId);
      expect(s.state).toBe('stale');
      expect(crossref.deposits).toHaveLength(before);
      const stale = (await call('GET', '/api/editor/dois?state=stale')).json().articles;
      expect(stale.map((a: { articleId: number }) => a.articleId)).toEqual([registeredId]);
      const res = await call('POST', '/api/editor/dois/deposit', { article_ids: [registeredId] });
      expect(res.statusCode, res.body).toBe(202);
      expect((await state(registeredId)).state).toBe('registered');
      expect(crossref.deposits.at(-1)!.xml).toContain('Changed again, by hand this time');
    } finally {
      await settings();
    }
  });

  it('does not redeposit when nothing Crossref holds changed', async () => {
    const before = crossref.deposits.length;
    await t.services.events.emit(t.services.db as never, 'article.changed', { articleId: registeredId });
    await t.runJobs();
    expect(crossref.deposits).toHaveLength(before);
  });

  it('fails with Crossref’s message when a record fails', async () => {
    crossref.script({
      kind: 'failure',
      msg: 'Record not processed because submitted version: 1 is less or equal to previously submitted version',
    });
    const id = await publishSubmission();
    const s = await state(id);
    expect(s.state).toBe('failed');
    expect(s.message).toMatch(/less or equal to previously submitted version/);
    // Not registered: its DOI can still be changed.
    expect((await edit(id, { doi: `10.5555/fixed.${id}` })).statusCode).toBe(200);
  });

  it('fails plainly on 401 and on 403, without retrying', async () => {
    crossref.script({ kind: 'unauthorized' });
    const id = await publishSubmission();
    const s = await state(id);
    expect(s.state).toBe('failed');
    expect(s.message).toMatch(/refused the username and password/);
    crossref.script({ kind: 'forbidden', msg: 'user not allowed to deposit prefix 10.5555' });
    const other = await publishSubmission();
    expect((await state(other)).message).toMatch(/user not allowed to deposit prefix 10\.5555/);
    const retries = await t.services.db
      .select()
      .from(jobs)
      .where(sql`${jobs.name} = 'doi.deposit' and ${jobs.status} = 'queued'`);
    expect(retries).toHaveLength(0);
  });

  it('retries after a 500 with backoff, then registers', async () => {
    crossref.script({ kind: 'error', status: 500 });
    const id = await publishSubmission();
    let s = await state(id);
    expect(s.state).toBe('queued');
    expect(s.message).toMatch(/HTTP 500; trying again later/);
    const [job] = await t.services.db
      .select()
      .from(jobs)
      .where(sql`${jobs.name} = 'doi.deposit' and ${jobs.status} = 'queued'`);
    expect(job.runAt.getTime()).toBeGreaterThan(t.clock.now());
    t.clock.advance(MINUTE + 1);
    await t.runJobs();
    s = await state(id);
    expect(s.state).toBe('registered');
  });

  it('retries after a timeout and after a cut connection', { timeout: 20_000 }, async () => {
    crossref.script({ kind: 'hang' }, { kind: 'cut' });
    const id = await publishSubmission();
    let s = await state(id);
    expect(s.state).toBe('queued');
    expect(s.message).toMatch(/did not answer in time/);
    t.clock.advance(MINUTE + 1);
    await t.runJobs();
    s = await state(id);
    expect(s.state).toBe('queued');
    expect(s.message).toMatch(/could not be reached/);
    t.clock.advance(5 * MINUTE + 1);
    await t.runJobs();
    expect((await state(id)).state).toBe('registered');
  });

  it('follows a slow result: submitted, polled later until Crossref has finished', async () => {
    crossref.script({ kind: 'slow', polls: 1 });
    const id = await publishSubmission();
    let s = await state(id);
    expect(s.state).toBe('submitted');
    const batchId = s.batchId!;
    // Deposited: the DOI is fixed from now on.
    expect((await edit(id, { doi: '10.5555/too.late' })).statusCode).toBe(409);
    t.clock.advance(POLL_DELAY(1));
    await t.runJobs();
    s = await state(id);
    expect(s.state).toBe('submitted');
    t.clock.advance(POLL_DELAY(2));
    await t.runJobs();
    s = await state(id);
    expect(s.state).toBe('registered');
    expect(crossref.resultRequests.filter((b) => b === batchId)).toHaveLength(2);
  });
});

describe('depositing from the DOI page', () => {
  it('deposits many at once, saying which could not be', async () => {
    await settings({ auto_deposit: false });
    onTestFinished(async () => {
      await settings();
    });
    const a = await upload('10.5555/bulk.1');
    const b = await upload('10.5555/bulk.2');
    expect((await state(a)).state).toBe('not_deposited');
    const res = await call('POST', '/api/editor/dois/deposit', { article_ids: [a, b, 999999] });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      queued: [a, b],
      skipped: [{ articleId: 999999, reason: 'No such article.' }],
    });
    expect((await state(a)).state).toBe('registered');
    expect((await state(b)).state).toBe('registered');
    const registered = (await call('GET', '/api/editor/dois?state=registered')).json().articles;
    expect(registered.every((r: { state: string }) => r.state === 'registered')).toBe(true);
    expect(registered.map((r: { articleId: number }) => r.articleId)).toEqual(expect.arrayContaining([a, b]));
  });

  it('answers bad input with 400 and nothing to deposit with 409', async () => {
    expect((await call('POST', '/api/editor/dois/deposit', { article_ids: [] })).statusCode).toBe(400);
    expect((await call('POST', '/api/editor/dois/deposit', { article_ids: ['x'] })).statusCode).toBe(400);
    expect((await call('GET', '/api/editor/dois?state=lost')).statusCode).toBe(400);
    expect((await call('GET', '/api/editor/dois/999999')).statusCode).toBe(404);
    const none = await call('POST', '/api/editor/dois/deposit', { article_ids: [999999] });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toMatch(/None of these articles can be deposited/);
  });
});

describe('a journal without an ISSN', () => {
  it('refuses to deposit, with a message the editor can act on', async () => {
    const { settings: journal } = (await call('GET', '/api/admin/journal-settings')).json();
    const put = (issnOnline: string) =>
      call('PUT', '/api/admin/journal-settings', { ...journal, issnOnline });
    expect((await put('')).statusCode).toBe(200);
    try {
      const before = crossref.deposits.length;
      const id = await publishSubmission();
      const s = await state(id);
      expect(s.state).toBe('failed');
      expect(s.message).toBe(MESSAGES.noIssn);
      expect(crossref.deposits).toHaveLength(before);
      const res = await call('POST', '/api/editor/dois/deposit', { article_ids: [id] });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(MESSAGES.noIssn);
      expect((await call('GET', '/api/admin/doi-settings')).json().settings.hasIssn).toBe(false);
    } finally {
      await put(journal.issnOnline);
    }
  });
});

describe('DOAJ', () => {
  it('sends a published article to DOAJ’s article API', async () => {
    await settings({ doaj_enabled: true, doaj_api_key: 'doaj-key', doaj_endpoint: doaj.endpoint });
    const id = await publishSubmission();
    const s = await state(id);
    expect(s.doajState).toBe('registered');
    const sent = doaj.received.at(-1)!;
    expect(sent.method).toBe('POST');
    const bib = (sent.body as { bibjson: Record<string, unknown> }).bibjson;
    expect(bib.title).toMatch(/A DOI article/);
    expect(bib.identifier).toEqual(
      expect.arrayContaining([
        { type: 'doi', id: s.doi },
        { type: 'eissn', id: '3049-4176' },
      ]),
    );
    expect((await call('GET', '/api/admin/doi-settings')).body).not.toContain('doaj-key');
  });

  it('fails plainly when DOAJ refuses the key', async () => {
    await settings({ doaj_enabled: true, doaj_api_key: 'wrong-key', doaj_endpoint: doaj.endpoint });
    const id = await publishSubmission();
    const s = await state(id);
    expect(s.doajState).toBe('failed');
    expect(s.doajMessage).toMatch(/DOAJ refused the API key/);
    expect(s.state).toBe('registered');
    await settings({ doaj_enabled: false, clear_doaj_key: true });
  });
});

describe('the tests never reach the internet', () => {
  it('refuses an address off this machine before any call (DEPOSIT_LOOPBACK_ONLY)', async () => {
    await settings({ crossref_endpoint: '', crossref_mode: 'production' });
    try {
      const id = await publishSubmission();
      const s = await state(id);
      expect(s.state).toBe('failed');
      expect(s.message).toMatch(/Deposits to api\.crossref\.org are switched off on this server/);
    } finally {
      await settings();
    }
  });
});

describe('the password', () => {
  it('is in no answer, no job row, no e-mail, no job error and no audit entry', async () => {
    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) expect(body).not.toContain(PASSWORD);
    const rows = await t.services.db.select().from(jobs);
    expect(rows.some((r) => r.name === 'doi.deposit')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    expect(JSON.stringify(rows)).not.toContain('wrong-key');
    expect(JSON.stringify(await t.services.db.select().from(mailLog))).not.toContain(PASSWORD);
    expect(JSON.stringify(t.mail)).not.toContain(PASSWORD);
    // The settings' changes and the deposits asked for by hand are audited, the secrets only as "changed".
    const audit = await t.services.db.select().from(auditLog);
    expect(
      audit.some(
        (a) => a.action === 'doi.settings' && (a.details as { passwordChanged?: boolean }).passwordChanged,
      ),
    ).toBe(true);
    expect(audit.some((a) => a.action === 'doi.deposit')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });
});
