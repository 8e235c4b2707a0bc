/**
 * What a signed-in user had typed into a form when their session ended, kept in the browser tab
 * (sessionStorage: gone when the tab closes) under the form's name and the user's, to be offered back after
 * they sign in again. Only text is kept: passwords, tokens and files never are, whatever a form hands over.
 */

const PREFIX = 'colophon:draft:';

export interface KeptDraft<T> {
  /** When it was kept (ms since the epoch). */
  savedAt: number;
  values: T;
}

interface Stored<T> extends KeptDraft<T> {
  owner: string;
  form: string;
}

/** The part of the Storage interface used here (a Map stands in for it in tests). */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const formPrefix = (form: string) => `${PREFIX}${encodeURIComponent(form)}:`;
const keyOf = (owner: string, form: string) => `${formPrefix(form)}${encodeURIComponent(owner)}`;

const SECRET = /password|passwd|token|secret/i;

/** The values as kept: no key that names a secret, no file or other binary, no empty text. */
function scrub(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === null || value === undefined) return null;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return null;
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET.test(k)) continue;
      const kept = scrub(v);
      if (kept !== null) out[k] = kept;
    }
    return out;
  }
  return null;
}

/** True when nothing was typed: every string empty or blank. */
function blank(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(blank);
  if (value && typeof value === 'object') return Object.values(value).every(blank);
  return true;
}

/** Keeps `values` of `form` for `owner`; nothing is kept when nothing was typed. Storage errors (full, off) are ignored. */
export function saveDraft(
  storage: DraftStorage | null,
  owner: string,
  form: string,
  values: unknown,
  now: number,
) {
  if (!storage) return false;
  const kept = scrub(values);
  if (blank(kept)) return false;
  const record: Stored<unknown> = { owner, form, savedAt: now, values: kept };
  try {
    storage.setItem(keyOf(owner, form), JSON.stringify(record));
    return true;
  } catch {
    return false;
  }
}

/**
 * The draft of `form` kept for `owner`, or null. Drafts of the same form kept for someone else (another
 * account signed in later in this tab) are removed: they are never shown to another user.
 */
export function loadDraft<T>(storage: DraftStorage | null, owner: string, form: string): KeptDraft<T> | null {
  if (!storage) return null;
  const mine = keyOf(owner, form);
  const prefix = formPrefix(form);
  try {
    const others: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key && key !== mine && key.startsWith(prefix)) others.push(key);
    }
    for (const key of others) storage.removeItem(key);
    const raw = storage.getItem(mine);
    if (!raw) return null;
    const record = JSON.parse(raw) as Stored<T>;
    if (record.owner !== owner || record.form !== form || typeof record.savedAt !== 'number') return null;
    return { savedAt: record.savedAt, values: record.values };
  } catch {
    return null;
  }
}

export function clearDraft(storage: DraftStorage | null, owner: string, form: string) {
  try {
    storage?.removeItem(keyOf(owner, form));
  } catch {
    /* storage turned off: nothing was kept either */
  }
}

/** The tab's sessionStorage, or null where there is none (the server, storage turned off). */
export function tabStorage(): DraftStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
