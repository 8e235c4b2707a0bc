import { describe, expect, it } from 'vitest';
import { iso6391, iso6392b } from './languages.ts';
import { invertedName, splitName } from './names.ts';
import { oaiDatestamp, parseOaiDate, parseSetSpec } from './oai-protocol.ts';
import { robotsTxt } from './sitemap.ts';
import { el, escapeAttr, renderXml, textEl } from './xml.ts';

describe('xml builder', () => {
  it('escapes text and attributes, and drops characters XML cannot hold', () => {
    const xml = renderXml(el('a', { title: 'x "y" & <z>\n' }, 'Tom & Jerry <b> ]]> \u0001\uFFFE ok'), {
      declaration: false,
    });
    expect(xml).toBe(
      '<a title="x &quot;y&quot; &amp; &lt;z&gt;&#10;">Tom &amp; Jerry &lt;b&gt; ]]&gt;  ok</a>\n',
    );
    expect(escapeAttr('\t')).toBe('&#9;');
  });

  it('indents element-only content, keeps mixed content on one line, skips empty parts', () => {
    const xml = renderXml(
      el('r', null, el('a', null, 'x'), null, false, [el('b', { n: 1, skip: null })], textEl('c', '  ')),
    );
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<r>\n  <a>x</a>\n  <b n="1"/>\n</r>\n');
  });

  it('refuses names that are not XML names', () => {
    expect(() => renderXml(el('a b'))).toThrow();
    expect(() => renderXml(el('a', { 'x"': '1' }))).toThrow();
  });
});

describe('author names', () => {
  it.each([
    ['Meera Iyer', { given: 'Meera', surname: 'Iyer', suffix: null }],
    ['K. Ramasamy', { given: 'K.', surname: 'Ramasamy', suffix: null }],
    ['Ludwig van Beethoven', { given: 'Ludwig', surname: 'van Beethoven', suffix: null }],
    ['Maria de la Cruz', { given: 'Maria', surname: 'de la Cruz', suffix: null }],
    ['Martin Luther King Jr.', { given: 'Martin Luther', surname: 'King', suffix: 'Jr.' }],
    ['Sukarno', { given: null, surname: 'Sukarno', suffix: null }],
    ['Iyer, Meera', { given: 'Meera', surname: 'Iyer', suffix: null }],
    ['  Ahmed   Al-Mansouri ', { given: 'Ahmed', surname: 'Al-Mansouri', suffix: null }],
  ])('%s', (name, expected) => {
    expect(splitName(name)).toEqual(expected);
  });

  it('inverts names for Dublin Core', () => {
    expect(invertedName('Meera Iyer')).toBe('Iyer, Meera');
    expect(invertedName('Sukarno')).toBe('Sukarno');
  });
});

describe('OAI-PMH arguments', () => {
  it('reads days and seconds, and refuses impossible or other forms', () => {
    expect(parseOaiDate('2025-03-01')).toEqual({
      date: new Date('2025-03-01T00:00:00Z'),
      granularity: 'day',
    });
    expect(parseOaiDate('2025-03-01T10:15:30Z')).toEqual({
      date: new Date('2025-03-01T10:15:30Z'),
      granularity: 'seconds',
    });
    for (const bad of [
      '2025-02-30',
      '2025-13-01',
      '2025-03-01T24:00:00Z',
      '2025-03-01T10:15Z',
      '2025-03-01T10:15:30.5Z',
      '25-03-01',
      '2025-03-01 ',
    ]) {
      expect(parseOaiDate(bad), bad).toBeNull();
    }
    expect(oaiDatestamp(new Date('2025-03-01T10:15:30.999Z'))).toBe('2025-03-01T10:15:30Z');
  });

  it('reads our setSpecs', () => {
    expect(parseSetSpec('volume:3')).toEqual({ volume: 3 });
    expect(parseSetSpec('volume:3:issue:2')).toEqual({ volume: 3, issue: 2 });
    for (const other of ['volume:0', 'volume:03', 'volume:3:issue', 'issue:2', 'volume:3:issue:2:x']) {
      expect(parseSetSpec(other), other).toBeNull();
    }
  });
});

describe('languages', () => {
  it('maps the journal language for Crossref and DOAJ', () => {
    expect(iso6391('en-GB')).toBe('en');
    expect(iso6392b('en')).toBe('eng');
    expect(iso6392b('de')).toBe('ger');
    expect(iso6392b('eng')).toBe('eng');
    expect(iso6392b('xx')).toBeNull();
  });
});

describe('robots.txt', () => {
  it('names the sitemap by its absolute address', () => {
    expect(robotsTxt('https://journal.example.org')).toContain(
      'Sitemap: https://journal.example.org/sitemap.xml\n',
    );
  });
});
