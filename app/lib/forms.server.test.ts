import { describe, expect, it } from 'vitest';
import { STORAGE_UNAVAILABLE_MESSAGE, StorageUnavailableError } from '../../server/files/blob-store.ts';
import { HttpError } from '../../server/http/errors.ts';
import { asClientError } from './forms.server.ts';

describe('asClientError', () => {
  it("passes on the file store's 503, recognised by its shape (the page bundle has its own copy of the class)", () => {
    const fault = Object.assign(new Error(STORAGE_UNAVAILABLE_MESSAGE), { status: 503, storageFault: true });
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
