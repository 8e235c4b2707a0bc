import { useCallback, useEffect, useRef, useState } from 'react';
import { useJournalPrefix } from '../../lib/journal-href.ts';

export interface UploadProgressState {
  loaded: number;
  total: number;
  /** Every byte has gone; the server is checking and storing the files. */
  sent: boolean;
}

export type UploadResult =
  | { kind: 'response'; status: number; body: unknown }
  | { kind: 'network' }
  | { kind: 'aborted' };

/**
 * A multipart POST with XMLHttpRequest, which (unlike fetch) reports upload progress and can be cancelled.
 * Same-origin, so the session cookie goes with it and the server's Origin check passes. While it runs,
 * leaving the page asks first.
 */
export function useUpload() {
  // `url` is the journal's own address (`/api/…`); a journal reached by its path has it under that path.
  const prefix = useJournalPrefix();
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  const [progress, setProgress] = useState<UploadProgressState | null>(null);

  const start = useCallback((url: string, body: FormData, expectedBytes: number): Promise<UploadResult> => {
    xhrRef.current?.abort();
    setProgress({ loaded: 0, total: Math.max(expectedBytes, 1), sent: false });
    return new Promise<UploadResult>((resolve) => {
      const xhr = new XMLHttpRequest();
      xhrRef.current = xhr;
      xhr.open('POST', `${prefix}${url}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (e) => {
        setProgress((p) => ({
          loaded: e.loaded,
          total: e.lengthComputable ? e.total : (p?.total ?? expectedBytes),
          sent: p?.sent ?? false,
        }));
      };
      xhr.upload.onload = () => setProgress((p) => (p ? { ...p, loaded: p.total, sent: true } : p));
      xhr.onload = () => {
        let parsed: unknown = null;
        try {
          parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
        } catch {
          parsed = null;
        }
        resolve({ kind: 'response', status: xhr.status, body: parsed });
      };
      xhr.onerror = () => resolve({ kind: 'network' });
      xhr.ontimeout = () => resolve({ kind: 'network' });
      xhr.onabort = () => resolve({ kind: 'aborted' });
      xhr.send(body);
    }).finally(() => {
      xhrRef.current = null;
      setProgress(null);
    });
  }, [prefix]);

  const cancel = useCallback(() => xhrRef.current?.abort(), []);

  const uploading = progress !== null;
  useEffect(() => {
    if (!uploading) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);

  // A page left mid-upload (a link in the header) stops sending.
  useEffect(() => () => xhrRef.current?.abort(), []);

  return { progress, uploading, start, cancel };
}

/** What a refused or failed upload says: the server's message and its per-field errors. */
export function uploadFailure(result: Exclude<UploadResult, { kind: 'aborted' }>): {
  message: string;
  errors: Record<string, string>;
} {
  if (result.kind === 'network') {
    return {
      message: 'The connection to the server was lost. Please check your connection and try again.',
      errors: {},
    };
  }
  const body = (result.body ?? {}) as { message?: unknown; errors?: unknown };
  const errors: Record<string, string> = {};
  if (body.errors && typeof body.errors === 'object') {
    for (const [key, value] of Object.entries(body.errors))
      if (typeof value === 'string' && value) errors[key] = value;
  }
  const message =
    typeof body.message === 'string' && body.message
      ? body.message
      : result.status === 413
        ? 'The files are too large.'
        : `The server answered with an error (HTTP ${result.status}). Please try again later.`;
  return { message, errors };
}
