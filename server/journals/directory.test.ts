import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { testDatabase } from '../testing/harness.ts';
import { hostName, JournalDirectory } from './directory.ts';
import { journalAliases, journals } from './tables.ts';

describe('which journal a request is for (decision 0053)', () => {
  let database: Database;
  let directory: JournalDirectory;

  beforeAll(async () => {
    database = await testDatabase();
    directory = new JournalDirectory(database.db, 'https://press.example.org');
  });
  afterAll(() => database?.close());

  it('keeps the one journal of an installation at the root, every address as it was', async () => {
    await directory.load();
    for (const url of ['/', '/volumes', '/article/3?x=1', '/api/articles', '/oai?verb=Identify'])
      expect(directory.resolve('press.example.org', url)).toMatchObject({ kind: 'journal', prefix: '', url });
    expect(directory.baseUrl(1)).toBe('https://press.example.org');
  });

  it('serves a journal by its path and by its domain, and sends old addresses on with a 301', async () => {
    const [b] = await database.db.insert(journals).values({ title: 'B', path: 'jb' }).returning();
    const [c] = await database.db
      .insert(journals)
      .values({ title: 'C', domain: 'journal-c.example.org' })
      .returning();
    await database.db.insert(journalAliases).values([
      { journalId: b.id, kind: 'path', value: 'old-b' },
      { journalId: c.id, kind: 'domain', value: 'old-c.example.org' },
    ]);
    await directory.load();
    expect(directory.resolve('press.example.org', '/jb/volumes?page=2')).toMatchObject({
      kind: 'journal',
      journal: { id: b.id },
      prefix: '/jb',
      url: '/volumes?page=2',
    });
    expect(directory.resolve('press.example.org', '/JB')).toMatchObject({ journal: { id: b.id }, url: '/' });
    expect(directory.resolve('press.example.org', '/jbx/volumes')).toMatchObject({ journal: { id: 1 } });
    expect(directory.resolve('Journal-C.example.org:443', '/volumes')).toMatchObject({
      journal: { id: c.id },
      prefix: '',
      url: '/volumes',
    });
    expect(directory.resolve('press.example.org', '/old-b/article/4')).toEqual({
      kind: 'redirect',
      location: 'https://press.example.org/jb/article/4',
    });
    expect(directory.resolve('old-c.example.org', '/article/4')).toEqual({
      kind: 'redirect',
      location: 'https://journal-c.example.org/article/4',
    });
    expect(directory.baseUrl(b.id)).toBe('https://press.example.org/jb');
    expect(directory.baseUrl(c.id)).toBe('https://journal-c.example.org');
  });

  it('answers with the site’s own pages when no journal is at the root', async () => {
    await database.db.update(journals).set({ path: 'first' }).where(eq(journals.id, 1));
    await directory.load();
    expect(directory.resolve('press.example.org', '/')).toEqual({ kind: 'site', url: '/' });
    expect(directory.resolve('press.example.org', '/first/')).toMatchObject({ journal: { id: 1 } });
  });

  it('reads a host as its name alone', () => {
    expect(hostName('Example.ORG:8080')).toBe('example.org');
    expect(hostName('[::1]:3000')).toBe('[::1]');
    expect(hostName(undefined)).toBe('');
  });
});
