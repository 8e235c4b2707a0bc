import { describe, expect, it } from 'vitest';
import { asClientError } from '../../app/lib/forms.server.ts';
import { DomainError, conflict, invalid, notFound, tooManyAttempts } from '../errors.ts';
import { HttpError, STATUS_OF, asHttpError } from './errors.ts';

describe('domain refusals at the HTTP edge (decision 0042)', () => {
  it('maps every code to its status once, for the API and for the pages alike', () => {
    for (const [code, status] of Object.entries(STATUS_OF)) {
      const err = new DomainError(code as keyof typeof STATUS_OF, 'No.', { field: 'No.' });
      expect(asHttpError(err)).toMatchObject({ status, message: 'No.', errors: { field: 'No.' } });
      expect(asClientError(err)).toMatchObject({ status, message: 'No.', errors: { field: 'No.' } });
    }
    expect(asHttpError(invalid('Bad.'))?.status).toBe(400);
    expect(asHttpError(notFound())?.status).toBe(404);
    expect(asHttpError(conflict('Already published.'))?.status).toBe(409);
  });

  it('says when to try again, in whole seconds', () => {
    expect(asHttpError(tooManyAttempts('Slow down.', 1500))?.headers).toEqual({ 'retry-after': '2' });
    expect(asClientError(tooManyAttempts('Slow down.', 10))?.headers).toEqual({ 'retry-after': '1' });
  });

  it('recognises a domain error from another copy of the module by its shape', () => {
    const copy = Object.assign(new Error('Gone.'), { domainError: true, code: 'gone', detail: {} });
    expect(asHttpError(copy)?.status).toBe(410);
    expect(asClientError(copy)?.status).toBe(410);
  });

  it('lets anything else through as a fault, not a refusal', () => {
    expect(asHttpError(new Error('boom'))).toBeNull();
    expect(asHttpError(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }))).toBeNull();
    expect(asHttpError(new HttpError(413, 'Too big.'))?.status).toBe(413);
  });
});
