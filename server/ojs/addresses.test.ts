import { describe, expect, it } from 'vitest';
import { legacyRequest, oaiQuery } from './addresses.ts';

const known = (p: string) => p === 'cjei';
const read = (url: string) => {
  const u = new URL(url, 'http://journal.test');
  return legacyRequest(u.pathname, u.searchParams, known);
};

describe('an old OJS address', () => {
  it('is read with and without index.php, for the journal path OJS had', () => {
    for (const prefix of ['/index.php/cjei', '/cjei', '/index.php/CJEI']) {
      expect(read(`${prefix}/article/view/12`)).toEqual({
        oldPath: 'cjei',
        target: { kind: 'article', id: '12', galley: null, file: null, download: false },
      });
      expect(read(`${prefix}/article/view/12/40`)?.target).toEqual({
        kind: 'article',
        id: '12',
        galley: '40',
        file: null,
        download: false,
      });
      expect(read(`${prefix}/article/download/12/40`)?.target).toMatchObject({
        galley: '40',
        download: true,
      });
      expect(read(`${prefix}/article/download/12/40/77`)?.target).toMatchObject({
        galley: '40',
        file: '77',
        download: true,
      });
      expect(read(`${prefix}/issue/view/3`)?.target).toEqual({ kind: 'issue', id: '3' });
      expect(read(`${prefix}/issue/view/3/9`)?.target).toEqual({ kind: 'issue', id: '3' });
      expect(read(`${prefix}/issue/archive`)?.target).toEqual({ kind: 'archive' });
      expect(read(`${prefix}/issue/archive/2`)?.target).toEqual({ kind: 'archive' });
      expect(read(`${prefix}/issue/current`)?.target).toEqual({ kind: 'current-issue' });
      expect(read(`${prefix}/oai?verb=Identify`)?.target).toEqual({ kind: 'oai' });
      expect(read(`${prefix}/search/search?query=sensors`)?.target).toEqual({
        kind: 'search',
        query: 'sensors',
      });
    }
    expect(read('/index.php/cjei')?.target).toEqual({ kind: 'home' });
    expect(read('/index.php/cjei/index')?.target).toEqual({ kind: 'home' });
  });

  it('is not read for another path, a path alone without index.php, or a malformed one', () => {
    expect(read('/index.php/other/article/view/12')).toBeNull();
    expect(read('/cjei')).toBeNull();
    expect(read('/article/12')).toBeNull();
    expect(read('/index.php/cjei/article/edit/12')).toBeNull();
    expect(read('/index.php/cjei/article/view/')).toBeNull();
    expect(read('/index.php/cjei/article/view/%E0%A4%A')).toBeNull();
    expect(read('/index.php/cjei/article/view/..%2F..%2Fetc')).toBeNull();
  });
});

describe('an old OAI-PMH request', () => {
  it('has its record identifier translated, and the rest passed on', () => {
    const q = new URLSearchParams(
      'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:old.example.org:article/12',
    );
    const out = oaiQuery(
      q,
      (id) => (id === '12' ? 7 : null),
      (id) => `oai:journal.test:article/${id}`,
    );
    expect(Object.fromEntries(out)).toEqual({
      verb: 'GetRecord',
      metadataPrefix: 'oai_dc',
      identifier: 'oai:journal.test:article/7',
    });
    const unknown = oaiQuery(
      new URLSearchParams('verb=GetRecord&identifier=oai:x:article/99'),
      () => null,
      String,
    );
    expect(unknown.get('identifier')).toBe('oai:x:article/99');
  });
});
