import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UNSTORABLE_TEXT } from '../../common/validate.ts';
import { conflict, notFound as domainNotFound, tooManyAttempts } from '../../server/errors.ts';
import { postedOf, refusalOf } from './form-result.ts';
import { asClientError, validateForm } from './forms.server.ts';
import { orNotFound } from './not-found.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from './reply.server.ts';
import { idParam } from './route-params.ts';

/** The one answer of page actions (decision 0046): its shape, its status, and what was typed. */

describe('replyDone', () => {
  it('is a success with its message, 200 unless told', () => {
    const answer = replyDone('save', 'Saved.');
    expect(answer.init?.status).toBe(200);
    expect(answer.data).toMatchObject({ ok: true, intent: 'save', message: 'Saved.' });
    expect(answer.data.at).toBeGreaterThan(0);
    expect('values' in answer.data).toBe(false);
  });

  it('carries a status, the form as posted and a payload when given', () => {
    const answer = replyDone('add', 'Row added.', {
      status: 201,
      values: { name_0: 'Ada' },
      payload: { id: 7 },
    });
    expect(answer.init?.status).toBe(201);
    expect(answer.data).toMatchObject({ ok: true, intent: 'add', values: { name_0: 'Ada' }, id: 7 });
    expect(postedOf(answer.data, 'add')).toEqual({ name_0: 'Ada' });
    expect(postedOf(answer.data, 'save')).toBeNull();
  });
});

describe('replyRefused', () => {
  it("answers with the refusal's status, headers, summary, field messages and what was typed", () => {
    const refused = asClientError(tooManyAttempts('Too many attempts.', 30_000))!;
    const answer = replyRefused('login', refused, { username: 'ada' });
    expect(answer.init?.status).toBe(429);
    expect(new Headers(answer.init?.headers).get('retry-after')).toBe('30');
    expect(answer.data).toMatchObject({
      ok: false,
      intent: 'login',
      status: 429,
      message: 'Too many attempts.',
      errors: {},
      values: { username: 'ada' },
    });
  });

  it("takes the form's own words for the summary, and no values when none are kept", () => {
    const answer = replyRefused(
      'contact',
      clientError(409, 'Changed meanwhile.', { base: 'Reload.' }),
      undefined,
      'Not sent.',
    );
    expect(answer.data).toMatchObject({
      status: 409,
      message: 'Not sent.',
      errors: { base: 'Reload.' },
      values: {},
    });
    expect(refusalOf(answer.data, 'contact')?.errors).toEqual({ base: 'Reload.' });
    expect(refusalOf(answer.data, 'other')).toBeNull();
  });

  it('answers a check by the shared schema with a 400 and each field', () => {
    const parsed = validateForm(z.object({ title: z.string().min(1, 'Enter a title.') }), { title: '' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const answer = replyRefused('edit', parsed.refusal, { title: '' });
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toMatchObject({ message: 'Enter a title.', errors: { title: 'Enter a title.' } });
  });

  it('answers a domain refusal with its status', () => {
    const answer = replyRefused('save', asClientError(conflict('Someone else saved it first.'))!);
    expect(answer.init?.status).toBe(409);
  });
});

describe('readIntentForm', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    new Request('http://journal.test/form', {
      method: 'POST',
      body,
      headers: { host: 'journal.test', 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  it('reads the button pressed and the form', async () => {
    const read = await readIntentForm(post('intent=save&title=Hello'));
    expect(read.ok && read.intent).toBe('save');
    expect(read.ok && read.form.text('title')).toBe('Hello');
  });

  it('answers a refused body for the form whose button was pressed, with what was typed', async () => {
    const read = await readIntentForm(post('intent=save&title=a%00b'));
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.answer.init?.status).toBe(400);
    expect(read.answer.data).toMatchObject({
      intent: 'save',
      message: UNSTORABLE_TEXT,
      errors: { title: UNSTORABLE_TEXT },
      values: { intent: 'save', title: 'a\0b' },
    });
  });
});

describe('not found, one way', () => {
  const status = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as { init?: { status?: number } }).init?.status;
    }
    return 'returned';
  };

  it('reads an id from the URL, or throws the 404 page', () => {
    expect(idParam('12')).toBe(12);
    for (const bad of [undefined, '', '0', '-1', '1e3', '1.5', ' 7', '2147483648']) {
      expect(
        status(() => idParam(bad)),
        String(bad),
      ).toBe(404);
    }
  });

  it("turns a service's not-found into the 404 page, and lets anything else through", async () => {
    await expect(orNotFound(Promise.resolve('found'))).resolves.toBe('found');
    const thrown = await orNotFound(Promise.reject(domainNotFound('No such submission.'))).catch((e) => e);
    expect(thrown.init?.status).toBe(404);
    const other = conflict('Not now.');
    await expect(orNotFound(Promise.reject(other))).rejects.toBe(other);
  });
});
