import { describe, expect, it } from 'vitest';
import { type DraftStorage, clearDraft, loadDraft, saveDraft } from './form-draft.ts';

/** A Storage over a Map, like the tab's sessionStorage. */
function memoryStorage(): DraftStorage & { dump(): Record<string, string> } {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    dump: () => Object.fromEntries(map),
  };
}

describe('form drafts', () => {
  it('keeps a form’s text for its owner and gives it back once', () => {
    const storage = memoryStorage();
    expect(saveDraft(storage, 'ana', 'submission', { title: 'On bridges', abstract: '' }, 1000)).toBe(true);
    expect(loadDraft(storage, 'ana', 'submission')).toEqual({
      savedAt: 1000,
      values: { title: 'On bridges', abstract: '' },
    });
    clearDraft(storage, 'ana', 'submission');
    expect(loadDraft(storage, 'ana', 'submission')).toBeNull();
  });

  it('keeps nothing when nothing was typed', () => {
    const storage = memoryStorage();
    expect(saveDraft(storage, 'ana', 'contact', { name: '', message: '   ' }, 1)).toBe(false);
    expect(saveDraft(storage, 'ana', 'contact', { authors: [{ name: '' }] }, 1)).toBe(false);
    expect(storage.length).toBe(0);
  });

  it('never keeps passwords, tokens or files', () => {
    const storage = memoryStorage();
    const file = new Blob(['%PDF-1.7']);
    saveDraft(
      storage,
      'ana',
      'account',
      {
        fullName: 'Ana',
        password: 'hunter2-hunter2',
        currentPassword: 'x',
        resetToken: 't',
        manuscript: file,
      },
      1,
    );
    const kept = loadDraft<Record<string, unknown>>(storage, 'ana', 'account');
    expect(kept?.values).toEqual({ fullName: 'Ana' });
    expect(JSON.stringify(storage.dump())).not.toMatch(/hunter2|PDF/);
  });

  it('is never offered to another user; their draft of the same form is removed then', () => {
    const storage = memoryStorage();
    saveDraft(storage, 'ana', 'submission', { title: 'Ana’s draft' }, 1);
    saveDraft(storage, 'ana', 'contact', { message: 'Hello' }, 1);
    expect(loadDraft(storage, 'ben', 'submission')).toBeNull();
    // Ana's submission draft is gone; her other form's draft is not.
    expect(loadDraft(storage, 'ana', 'submission')).toBeNull();
    expect(loadDraft(storage, 'ana', 'contact')?.values).toEqual({ message: 'Hello' });
  });

  it('keeps forms apart, and a record under another name is not taken', () => {
    const storage = memoryStorage();
    saveDraft(storage, 'ana', 'revision:1', { note: 'one' }, 1);
    saveDraft(storage, 'ana', 'revision:12', { note: 'twelve' }, 2);
    expect(loadDraft(storage, 'ana', 'revision:1')?.values).toEqual({ note: 'one' });
    expect(loadDraft(storage, 'ana', 'revision:12')?.values).toEqual({ note: 'twelve' });
    storage.setItem('colophon:draft:contact:ana', '{not json');
    expect(loadDraft(storage, 'ana', 'contact')).toBeNull();
  });

  it('works without storage (the server, storage turned off, a full one)', () => {
    expect(saveDraft(null, 'ana', 'contact', { message: 'x' }, 1)).toBe(false);
    expect(loadDraft(null, 'ana', 'contact')).toBeNull();
    const full = memoryStorage();
    full.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(saveDraft(full, 'ana', 'contact', { message: 'x' }, 1)).toBe(false);
  });
});
