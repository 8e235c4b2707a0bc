import { describe, expect, it } from 'vitest';
import { articleLicence, licenceName, licenceTerms } from './licences.ts';

describe('a licence’s name from its address', () => {
  it('names Creative Commons licences in their usual forms', () => {
    expect(licenceName('https://creativecommons.org/licenses/by/4.0/')).toBe('CC BY 4.0');
    expect(licenceName('http://creativecommons.org/licenses/by-nc-nd/4.0')).toBe('CC BY-NC-ND 4.0');
    expect(licenceName('https://www.creativecommons.org/licenses/by-sa/3.0/legalcode')).toBe('CC BY-SA 3.0');
    expect(licenceName('https://creativecommons.org/licenses/by-nc/2.5/deed.fr')).toBe('CC BY-NC 2.5');
    expect(licenceName('https://creativecommons.org/publicdomain/zero/1.0/')).toBe('CC0 1.0');
  });

  it('names nothing else', () => {
    expect(licenceName('https://example.org/licenses/by/4.0/')).toBeNull();
    expect(licenceName('https://creativecommons.org/licenses/')).toBeNull();
    expect(licenceName('not a url')).toBeNull();
  });

  it('gives the article’s own licence, or the journal’s when it has none', () => {
    const journal = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' };
    expect(articleLicence('', journal)).toBe(journal);
    expect(articleLicence('https://creativecommons.org/licenses/by-nc/4.0/', journal)).toEqual({
      name: 'CC BY-NC 4.0',
      url: 'https://creativecommons.org/licenses/by-nc/4.0/',
    });
    expect(articleLicence('https://example.org/terms', journal)).toEqual({
      name: 'https://example.org/terms',
      url: 'https://example.org/terms',
    });
  });
});

describe('what a licence lets readers do', () => {
  it('says it for each Creative Commons licence, commercial use and adaptations as the licence has them', () => {
    expect(licenceTerms('https://creativecommons.org/licenses/by/4.0/', 'J Test')).toEqual({
      title: 'Creative Commons Attribution 4.0 International licence',
      terms:
        'You may share and adapt it for any purpose, including commercially, provided you credit the authors and the original publication in J Test.',
    });
    const nc = licenceTerms('https://creativecommons.org/licenses/by-nc/4.0/', 'J Test')!;
    expect(nc.title).toBe('Creative Commons Attribution-NonCommercial 4.0 International licence');
    expect(nc.terms).toMatch(/^You may share and adapt it for non-commercial purposes, provided/);
    expect(nc.terms).not.toContain('including commercially');
    const nd = licenceTerms('http://creativecommons.org/licenses/by-nc-nd/3.0/legalcode', 'J Test')!;
    expect(nd.title).toBe('Creative Commons Attribution-NonCommercial-NoDerivatives 3.0 licence');
    expect(nd.terms).toMatch(/^You may share it unchanged for non-commercial purposes/);
    expect(licenceTerms('https://creativecommons.org/licenses/by-sa/4.0/', 'J Test')!.terms).toContain(
      'under the same licence',
    );
    expect(licenceTerms('https://creativecommons.org/publicdomain/zero/1.0/', 'J Test')!.title).toBe(
      'Creative Commons CC0 1.0 Universal public domain dedication',
    );
  });

  it('says nothing of a licence it does not know', () => {
    expect(licenceTerms('https://example.org/terms', 'J Test')).toBeNull();
  });
});
