import { describe, expect, it } from 'vitest';
import { JOURNAL_CHOICE, importFieldsSchema, looksLikeXml } from './imports.ts';
import { fileProblem, formatBytes } from './upload-rules.ts';
import { OJS_EXPORT_RULE } from './imports.ts';

describe('the OJS import form’s fields', () => {
  const parse = (v: object) => importFieldsSchema.safeParse(v);

  it('takes an existing journal, or a new one’s path and title, with ticked boxes as true', () => {
    expect(parse({ journal: ' JEII ', oldPath: 'JEII', dryRun: 'on' }).data).toEqual({
      journal: 'jeii',
      oldPath: 'jeii',
      dryRun: true,
      sendPasswordLinks: false,
    });
    expect(parse({ newPath: 'tides', newTitle: 'Tides', sendPasswordLinks: 'true' }).data).toMatchObject({
      newPath: 'tides',
      newTitle: 'Tides',
      dryRun: false,
      sendPasswordLinks: true,
    });
  });

  it('asks for a journal, for both halves of a new one, and refuses both kinds at once', () => {
    const issues = (v: object) =>
      Object.fromEntries((parse(v).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(issues({})).toEqual({ journal: JOURNAL_CHOICE });
    expect(issues({ newPath: 'tides' })).toEqual({ newTitle: 'The journal title is required.' });
    expect(issues({ journal: 'a', newPath: 'tides' })).toEqual({
      journal: 'Choose an existing journal or name a new one, not both.',
    });
    expect(Object.keys(issues({ journal: 'a', oldPath: 'a/b' }))).toEqual(['oldPath']);
  });
});

describe('an export that looks like XML', () => {
  it('is named .xml and starts with a tag, after a byte-order mark and white space', () => {
    expect(looksLikeXml('native.xml', '<?xml version="1.0"?><issues/>')).toBe(true);
    expect(looksLikeXml('USERS.XML', '\uFEFF\n  <PKPUsers>')).toBe(true);
    expect(looksLikeXml('native.pdf', '<issues/>')).toBe(false);
    expect(looksLikeXml('native.xml', '%PDF-1.7')).toBe(false);
    expect(looksLikeXml('native.xml', Buffer.from('PK\u0003\u0004'))).toBe(false);
  });

  it('is checked the same way as it is chosen in the browser', async () => {
    const file = (name: string, text: string) => Object.assign(new Blob([text]), { name });
    expect(await fileProblem(file('a.xml', '<?xml version="1.0"?>'), OJS_EXPORT_RULE, 1024)).toBeNull();
    expect(await fileProblem(file('a.pdf', '%PDF-1.7'), OJS_EXPORT_RULE, 1024)).toMatch(/XML file/);
    expect(await fileProblem(file('a.xml', '%PDF-1.7'), OJS_EXPORT_RULE, 1024)).toMatch(/does not match/);
  });

  it('sizes in gigabytes read as such', () => {
    expect(formatBytes(4 * 1024 ** 3)).toBe('4 GB');
    expect(formatBytes(30 * 1024 ** 2)).toBe('30 MB');
  });
});
