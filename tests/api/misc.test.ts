import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { contactMessages } from '../../server/contact/tables.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

describe('POST /contact', () => {
  it('stores the message, e-mails the editorial office from the journal address, and answers with the spec text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contact',
      payload: { name: 'Lin Wei', email: 'lin@example.org', message: 'Do you accept survey papers?' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.contactSuccess });
    const rows = await t.services.db.select().from(contactMessages);
    expect(rows).toContainEqual(expect.objectContaining({ name: 'Lin Wei', email: 'lin@example.org', message: 'Do you accept survey papers?' }));
    const mail = t.mail.at(-1)!;
    expect(mail.to).toBe('editorial@colophon-journal.org');
    expect(mail.replyTo).toContain('lin@example.org');
    expect(mail.text).toContain('Do you accept survey papers?');
  });

  it('requires name, email and message, and checks the e-mail', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/contact', payload: { email: 'nope' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      name: 'Name is required.',
      email: 'Email must be a valid email address.',
      message: 'Message is required.',
    });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contact',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is not valid JSON.');
  });
});

describe('subscriptions', () => {
  it('subscribes and unsubscribes, idempotently', async () => {
    const u = await t.createUser({ role: 'researcher', status: 'pending' });
    const h = { authorization: `Bearer ${await t.login(u.username, u.password)}` };
    const get = async () => (await t.app.inject({ method: 'GET', url: '/api/user/subscription', headers: h })).json();
    expect(await get()).toEqual({ isSubscribed: false });
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/user/subscription', headers: h });
      expect(res.json()).toMatchObject({ isSubscribed: true });
    }
    expect(await get()).toEqual({ isSubscribed: true });
    await t.app.inject({ method: 'DELETE', url: '/api/user/subscription', headers: h });
    expect(await get()).toEqual({ isSubscribed: false });
  });
});

describe('OpenAPI', () => {
  it('documents every call of the spec with its request and response shapes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const expected: [string, string][] = [
      ['/contact', 'post'],
      ['/api/auth/login', 'post'],
      ['/api/auth/register', 'post'],
      ['/api/auth/logout', 'post'],
      ['/api/user/subscription', 'get'],
      ['/api/user/subscription', 'post'],
      ['/api/user/subscription', 'delete'],
      ['/api/papers', 'get'],
      ['/api/articles/public/articles', 'get'],
      ['/api/articles/public/article/{id}', 'get'],
      ['/api/articles/{id}/download', 'get'],
      ['/api/submission/submit', 'post'],
      ['/api/editor/volumes', 'get'],
      ['/api/editor/issues', 'get'],
      ['/api/editor/articles', 'get'],
      ['/api/editor/pending-users', 'get'],
      ['/api/editor/volume', 'post'],
      ['/api/editor/issue', 'post'],
      ['/api/articles/admin/upload', 'post'],
      ['/api/editor/approve-user/{id}', 'post'],
      ['/api/admin/users', 'get'],
      ['/api/admin/users/{id}', 'patch'],
    ];
    for (const [p, m] of expected) expect(doc.paths[p]?.[m], `${m} ${p}`).toBeDefined();

    const register = doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(register.properties)).toEqual(
      expect.arrayContaining(['username', 'password', 'email', 'fullName', 'contactNumber', 'institution', 'role']),
    );
    const submission = doc.paths['/api/submission/submit'].post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(submission.properties)).toEqual(
      expect.arrayContaining([
        'title', 'articleType', 'keywords', 'abstract', 'conflictOfInterest', 'fundingStatement',
        'dataAvailabilityStatement', 'authors', 'submissionFile', 'additionalZip',
      ]),
    );
    const upload = doc.paths['/api/articles/admin/upload'].post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(upload.properties)).toEqual(
      expect.arrayContaining(['title', 'abstract', 'keywords', 'pages', 'doi', 'issue_id', 'authors', 'pdf']),
    );
    const article = doc.paths['/api/articles/public/article/{id}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(article.properties)).toEqual(
      expect.arrayContaining(['volume_title', 'issue_title', 'publication_date', 'public_pdf_url', 'authors']),
    );
    const sub = doc.paths['/api/user/subscription'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(sub.properties)).toEqual(['isSubscribed']);
    const papers = doc.paths['/api/papers'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(papers.items.properties)).toEqual(['id', 'title', 'pdfPath']);
  });

  it('has a browsable page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('/api/submission/submit');
    expect(res.body).toContain('<h1>');
  });
});
