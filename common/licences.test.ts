import { describe, expect, it } from 'vitest';
import { articleLicence, licenceName } from './licences.ts';

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
