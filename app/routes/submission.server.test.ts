import { describe, expect, it } from 'vitest';
import { readUploadForm } from './submission.server.ts';

/** The form posts of the submission and revision pages without JavaScript (issue 4: nothing typed is lost). */
const limits = { manuscript: 1000, additional: 1000 };

async function posted(fileBytes: number) {
  const form = new FormData();
  form.append('title', 'Energy-aware offloading');
  form.append('keywords', 'IoT, energy');
  form.append('authors[0][name]', 'Priya Raman');
  form.append('submissionFile', new Blob([new Uint8Array(fileBytes)], { type: 'application/pdf' }), 'big.pdf');
  const probe = new Request('http://local/submission', { method: 'POST', body: form });
  const body = Buffer.from(await probe.arrayBuffer());
  return new Request('http://local/submission', {
    method: 'POST',
    body,
    headers: { 'content-type': probe.headers.get('content-type')!, 'content-length': String(body.length) },
  });
}

describe('readUploadForm', () => {
  it('reads a form within the limits whole, files included', async () => {
    const { form, refused } = await readUploadForm(await posted(500), limits);
    expect(refused).toBeUndefined();
    expect(form.get('title')).toBe('Energy-aware offloading');
    expect((form.get('submissionFile') as File).size).toBe(500);
  });

  it('refuses files over the limit with 413, and keeps every typed field (the files are dropped unread)', async () => {
    // Over the limit (1 MB of room for the fields and framing besides the two files), under four times it.
    const { form, refused } = await readUploadForm(await posted(2 * 1024 * 1024), limits);
    expect(refused).toMatchObject({ status: 413, message: expect.stringMatching(/^The files are too large/) });
    expect(form.get('title')).toBe('Energy-aware offloading');
    expect(form.get('keywords')).toBe('IoT, energy');
    expect(form.get('authors[0][name]')).toBe('Priya Raman');
    expect(form.get('submissionFile')).toBeNull();
  });

  it('refuses a body far past the limit unread', async () => {
    await expect(readUploadForm(await posted(6 * 1024 * 1024), limits)).rejects.toMatchObject({ status: 413 });
  });
});
