import { describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT } from '../../common/validate.ts';
import { STORAGE_UNAVAILABLE_MESSAGE, StorageUnavailableError } from '../../server/files/blob-store.ts';
import { HttpError } from '../../server/http/errors.ts';
import { manuscriptFormOptions } from '../routes/submission.server.ts';
import { asClientError, readForm } from './forms.server.ts';

/** The one reader of page forms: limits while streaming, content types, the cross-site and text rules. */
const limits = { manuscript: 1000, additional: 1000 };

/** A request whose body is produced chunk by chunk (Transfer-Encoding: chunked: no length is declared). */
function streamed(headers: Record<string, string>, chunks: Iterable<Uint8Array>, counter = { pulled: 0 }) {
  const it = chunks[Symbol.iterator]();
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = it.next();
        if (next.done) controller.close();
        else {
          counter.pulled += next.value.byteLength;
          controller.enqueue(next.value);
        }
      },
    },
    { highWaterMark: 0 },
  );
  return new Request('http://journal.test/form', {
    method: 'POST',
    body,
    headers: { host: 'journal.test', ...headers },
    duplex: 'half',
  } as RequestInit);
}

async function multipartOf(build: (form: FormData) => void, headers: Record<string, string> = {}) {
  const form = new FormData();
  build(form);
  const probe = new Request('http://journal.test/form', { method: 'POST', body: form });
  const bytes = new Uint8Array(await probe.arrayBuffer());
  // Sent in 64 KB chunks without a length, as a chunked upload is.
  const chunks = function* () {
    for (let i = 0; i < bytes.length; i += 65536) yield bytes.subarray(i, i + 65536);
  };
  const counter = { pulled: 0 };
  return {
    request: streamed({ 'content-type': probe.headers.get('content-type')!, ...headers }, chunks(), counter),
    counter,
  };
}

function* repeat(chunk: Uint8Array, times: number) {
  for (let i = 0; i < times; i++) yield chunk;
}

const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
const encode = (text: string) => new TextEncoder().encode(text);

describe('readForm', () => {
  it('reads a plain form', async () => {
    const read = await readForm(streamed(urlencoded, [encode('username=ada&password=x%20y&tag=a&tag=b')]));
    expect(read.ok).toBe(true);
    expect(read.form.text('username')).toBe('ada');
    expect(read.form.text('password')).toBe('x y');
    expect(read.form.all('tag')).toEqual(['a', 'b']);
    expect(read.form.text('missing')).toBe('');
  });

  it('stops reading a chunked plain form at its limit: 413, and no more than a few times the limit pulled', async () => {
    const counter = { pulled: 0 };
    const megabyte = encode('a'.repeat(1024 * 1024));
    // 200 MB offered, chunked.
    const request = streamed(urlencoded, [encode('username='), ...repeat(megabyte, 200)], counter);
    const read = await readForm(request, {
      maxTextBytes: 64 * 1024,
      tooLarge: 'The login form is too large.',
    });
    expect(read).toMatchObject({
      ok: false,
      refusal: { status: 413, message: 'The login form is too large.' },
    });
    expect(counter.pulled).toBeLessThan(3 * 1024 * 1024);
  });

  it.each([
    ['text/plain', 'x'],
    ['application/json', '{"username":"ada"}'],
    ['', 'username=ada'],
  ])('refuses a body of type "%s" with 415 and says what is expected', async (type, text) => {
    const read = await readForm(streamed(type ? { 'content-type': type } : {}, [encode(text)]));
    expect(read).toMatchObject({
      ok: false,
      refusal: { status: 415, message: expect.stringMatching(/web form/) },
    });
  });

  it('refuses text that cannot be stored, beside its field', async () => {
    const read = await readForm(streamed(urlencoded, [encode('name=a%00b&email=ok%40example.org')]));
    expect(read).toMatchObject({ ok: false, refusal: { status: 400, errors: { name: UNSTORABLE_TEXT } } });
    expect(read.ok || read.refusal.errors.email).toBeUndefined();
  });

  it('refuses a post from another site, or from an opaque origin, and a cookie-carrying post with no origin at all', async () => {
    const cookie = { cookie: 'colophon_session=abc' };
    for (const headers of [
      { ...urlencoded, origin: 'https://evil.example' },
      { ...urlencoded, origin: 'null' },
      { ...urlencoded, ...cookie },
      { ...urlencoded, ...cookie, 'sec-fetch-site': 'cross-site' },
      { ...urlencoded, ...cookie, referer: 'https://evil.example/page' },
    ]) {
      const read = await readForm(streamed(headers, [encode('a=1')]));
      expect(read, JSON.stringify(headers)).toMatchObject({ ok: false, refusal: { status: 403 } });
    }
    for (const headers of [
      { ...urlencoded, origin: 'http://journal.test' },
      { ...urlencoded, ...cookie, 'sec-fetch-site': 'same-origin' },
      { ...urlencoded, ...cookie, referer: 'http://journal.test/login' },
      // No cookie, no browser: a program posting a form (nothing ambient to abuse).
      urlencoded,
    ]) {
      expect((await readForm(streamed(headers, [encode('a=1')]))).ok, JSON.stringify(headers)).toBe(true);
    }
  });

  describe('with files (the manuscript forms)', () => {
    const options = manuscriptFormOptions(limits);
    const fields = (form: FormData) => {
      form.append('title', 'Energy-aware offloading');
      form.append('keywords', 'IoT, energy');
    };

    it('reads the fields and the files within their limits', async () => {
      const { request } = await multipartOf((f) => {
        fields(f);
        f.append('submissionFile', new Blob([new Uint8Array(500)]), 'paper.pdf');
      });
      const read = await readForm(request, options);
      expect(read.ok).toBe(true);
      expect(read.form.text('title')).toBe('Energy-aware offloading');
      expect(read.form.file('submissionFile')).toMatchObject({
        filename: 'paper.pdf',
        data: expect.any(Buffer),
      });
      expect(read.form.file('submissionFile')?.data.length).toBe(500);
      expect(read.form.file('additionalZip')).toBeNull();
    });

    it('refuses a file over its limit with 413 and keeps the text typed after it (the file is dropped)', async () => {
      const { request } = await multipartOf((f) => {
        f.append('submissionFile', new Blob([new Uint8Array(2000)]), 'big.pdf');
        fields(f);
      });
      const read = await readForm(request, options);
      expect(read).toMatchObject({
        ok: false,
        refusal: { status: 413, message: 'The main submission file is too large: the limit is 1000 bytes.' },
      });
      expect(read.form.text('title')).toBe('Energy-aware offloading');
      expect(read.form.text('keywords')).toBe('IoT, energy');
      expect(read.form.file('submissionFile')).toBeNull();
    });

    it('stops reading a body far past the limits', async () => {
      const { request, counter } = await multipartOf((f) => {
        fields(f);
        f.append('submissionFile', new Blob([new Uint8Array(20 * 1024 * 1024)]), 'huge.pdf');
      });
      const read = await readForm(request, options);
      expect(read).toMatchObject({ ok: false, refusal: { status: 413 } });
      expect(counter.pulled).toBeLessThan(5 * 1024 * 1024);
    });

    it('refuses a second file in one field, and a file in a field that takes none', async () => {
      const twice = await multipartOf((f) => {
        f.append('submissionFile', new Blob([new Uint8Array(10)]), 'a.pdf');
        f.append('submissionFile', new Blob([new Uint8Array(10)]), 'b.pdf');
      });
      expect(await readForm(twice.request, options)).toMatchObject({
        ok: false,
        refusal: { status: 400, errors: { submissionFile: 'Choose one file only.' } },
      });
      const stray = await multipartOf((f) => f.append('avatar', new Blob([new Uint8Array(10)]), 'me.png'));
      expect(await readForm(stray.request, options)).toMatchObject({ ok: false, refusal: { status: 400 } });
    });

    it('treats an empty file input as no file', async () => {
      const { request } = await multipartOf((f) => {
        fields(f);
        f.append('submissionFile', new Blob([]), '');
      });
      const read = await readForm(request, options);
      expect(read.ok).toBe(true);
      expect(read.form.file('submissionFile')).toBeNull();
    });

    it('reads on past an oversized part header without hanging (the parser drops what it does not take)', async () => {
      // A part header far past what the parser keeps (80 KB), sent in chunks while writes wait to drain.
      const head = encode(`--zz\r\nContent-Disposition: form-data; name="a"\r\nX-Long: ${'a'.repeat(400_000)}\r\n\r\nx\r\n--zz--\r\n`);
      const chunks = function* () {
        for (let i = 0; i < head.length; i += 8192) yield head.subarray(i, i + 8192);
      };
      const read = await readForm(streamed({ 'content-type': 'multipart/form-data; boundary=zz' }, chunks()), options);
      expect(read.ok).toBe(true);
      expect(read.form.text('a')).toBe('x');
    });

    it('refuses a body cut off in the middle with 400', async () => {
      const form = new FormData();
      fields(form);
      form.append('submissionFile', new Blob([new Uint8Array(800)]), 'paper.pdf');
      const probe = new Request('http://journal.test/form', { method: 'POST', body: form });
      const bytes = new Uint8Array(await probe.arrayBuffer());
      const request = streamed({ 'content-type': probe.headers.get('content-type')! }, [
        bytes.subarray(0, 400),
      ]);
      expect(await readForm(request, options)).toMatchObject({ ok: false, refusal: { status: 400 } });
    });
  });
});

describe('asClientError', () => {
  it("passes on the file store's 503, a domain error recognised by its shape (the page bundle has its own copy of the class)", () => {
    const fault = Object.assign(new Error(STORAGE_UNAVAILABLE_MESSAGE), { domainError: true, code: 'unavailable' });
    expect(asClientError(fault)).toEqual({ status: 503, message: STORAGE_UNAVAILABLE_MESSAGE, errors: {} });
    expect(asClientError(new StorageUnavailableError('ENOSPC', new Error('disk full')))).toEqual({
      status: 503,
      message: STORAGE_UNAVAILABLE_MESSAGE,
      errors: {},
    });
  });

  it('passes on 4xx refusals, and nothing else', () => {
    expect(asClientError(new HttpError(409, 'Taken.', { email: 'Taken.' }))).toEqual({
      status: 409,
      message: 'Taken.',
      errors: { email: 'Taken.' },
    });
    expect(asClientError(new HttpError(503, 'Busy.'))).toBeNull();
    expect(asClientError(Object.assign(new Error('x'), { status: 500, storageFault: true }))).toBeNull();
    expect(asClientError(new Error('a bug'))).toBeNull();
    expect(asClientError('a string')).toBeNull();
  });
});
