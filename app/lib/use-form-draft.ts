import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../root.tsx';
import { type KeptDraft, clearDraft, loadDraft, saveDraft, tabStorage } from './form-draft.ts';
import { SESSION_ENDING_EVENT } from './use-session-expiry.ts';

export interface FormDraft<T> {
  /** A draft kept when the session ended, to offer back (null: none). */
  offer: KeptDraft<T> | null;
  /** Puts the kept text back into the form, and forgets it. */
  restore: () => void;
  /** Forgets the kept text. */
  discard: () => void;
  /** Keeps what the form holds now (the session ends on its own; call it when the server answers 401). */
  keep: () => void;
  /** Forgets any kept text: call it when the form was sent. */
  clear: () => void;
}

/**
 * Keeps what a signed-in user typed into a form when their session ends, and offers it back once they are
 * signed in again as the same user ("Restore what you typed?", `DraftOffer`). `form` names the form (with
 * its record, e.g. "revision:12"); `read` gives the form's text now (never passwords or files: those are
 * dropped anyway), or null when there is nothing to keep; `apply` puts a kept draft back.
 */
export function useFormDraft<T>({
  form,
  read,
  apply,
}: {
  form: string;
  read: () => T | null;
  apply: (values: T) => void;
}): FormDraft<T> {
  const owner = useRouteLoaderData<typeof rootLoader>('root')?.user?.username ?? null;
  // Who typed it: still known when the page learns the session has ended.
  const ownerRef = useRef(owner);
  if (owner) ownerRef.current = owner;
  const readRef = useRef(read);
  readRef.current = read;
  const [offer, setOffer] = useState<KeptDraft<T> | null>(null);

  // In the browser, signed in: is there something of this user's to offer back?
  useEffect(() => {
    setOffer(owner ? loadDraft<T>(tabStorage(), owner, form) : null);
  }, [owner, form]);

  const keep = useCallback(() => {
    const who = ownerRef.current;
    if (!who) return;
    const values = readRef.current();
    if (values !== null) saveDraft(tabStorage(), who, form, values, Date.now());
  }, [form]);

  useEffect(() => {
    window.addEventListener(SESSION_ENDING_EVENT, keep);
    return () => window.removeEventListener(SESSION_ENDING_EVENT, keep);
  }, [keep]);

  const forget = useCallback(() => {
    if (ownerRef.current) clearDraft(tabStorage(), ownerRef.current, form);
    setOffer(null);
  }, [form]);

  return {
    offer,
    restore: () => {
      if (offer) apply(offer.values);
      forget();
    },
    discard: forget,
    keep,
    clear: forget,
  };
}

/**
 * `useFormDraft` for a form whose fields keep their own values (defaultValue): the named text fields are
 * read from and written back to the form element.
 */
export function useFormElementDraft(
  form: string,
  formRef: RefObject<HTMLFormElement | null>,
  fields: readonly string[],
): FormDraft<Record<string, string>> {
  return useFormDraft<Record<string, string>>({
    form,
    read: () => {
      const element = formRef.current;
      if (!element) return null;
      const values: Record<string, string> = {};
      for (const name of fields) {
        const control = element.elements.namedItem(name);
        if (
          (control instanceof HTMLInputElement && control.type !== 'password' && control.type !== 'file') ||
          control instanceof HTMLTextAreaElement ||
          control instanceof HTMLSelectElement
        ) {
          values[name] = control.value;
        }
      }
      return values;
    },
    apply: (values) => {
      const element = formRef.current;
      if (!element) return;
      for (const name of fields) {
        const control = element.elements.namedItem(name);
        const value = values[name];
        if (typeof value !== 'string') continue;
        if (
          (control instanceof HTMLInputElement && control.type !== 'password' && control.type !== 'file') ||
          control instanceof HTMLTextAreaElement ||
          control instanceof HTMLSelectElement
        ) {
          control.value = value;
        }
      }
    },
  });
}
