import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OjsVersion, sampleUsers, usersExport } from '../../tests/fixtures/ojs/make.ts';
import { type OjsGroup, type OjsUser, readGroup, readUser, roleOf } from './users.ts';
import { readRecords } from './xml.ts';

let tmpDir = '';
beforeEach(() => {
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'ojs-users-'));
});
afterEach(() => rmSync(tmpDir, { recursive: true, force: true }));

async function read(xml: string) {
  const groups = new Map<string, OjsGroup>();
  const users: OjsUser[] = [];
  async function* one() {
    yield Buffer.from(xml);
  }
  for await (const el of readRecords(one(), { records: new Set(['user_group', 'user']), tmpDir })) {
    if (el.name === 'user_group') {
      const g = readGroup(el);
      groups.set(g.key, g);
    } else {
      const u = readUser(el).value;
      if (u) users.push(u);
    }
  }
  return { groups, users };
}

describe.each(['3.3', '3.4', '3.5', '3.6'] as OjsVersion[])('OJS %s Users XML', (version) => {
  it('reads each account, its groups as a role here, and what its password is', async () => {
    const { groups, users } = await read(usersExport(version, sampleUsers()));
    expect(users.map((u) => [u.username, u.given, u.family, u.email])).toEqual([
      ['manager1', 'Mónica', 'Núñez', 'manager1@example.org'],
      ['editor1', 'Ngozi', 'Eze', 'editor1@example.org'],
      ['reviewer1', 'Søren', 'Kierkegård', 'reviewer1@example.org'],
      ['author1', 'Zoë', 'Ångström', 'author101@example.org'],
      ['subs1', 'Ana', 'Lima', 'subs1@example.org'],
      ['gone1', 'Old', 'Reader', 'gone1@example.org'],
    ]);
    // bcrypt whatever `encryption` says; a SHA-1 hex; no `encryption` at all: plain text.
    expect(users.map((u) => u.password.kind)).toEqual([
      'bcrypt',
      'legacy',
      'plaintext',
      'bcrypt',
      'bcrypt',
      'bcrypt',
    ]);
    expect(users.map((u) => u.disabled)).toEqual([false, false, false, false, false, true]);
    expect(users[1]).toMatchObject({ orcid: '0000-0002-1694-233X', password: { scheme: 'sha1' } });
    expect(users[2].interests).toBe('sensors, signal processing');
    expect(users.map((u) => roleOf(u.groups, groups))).toEqual([
      { role: 'admin', reviewer: false, unmapped: [] },
      { role: 'editor', reviewer: false, unmapped: [] },
      { role: 'researcher', reviewer: true, unmapped: [] },
      { role: 'author', reviewer: false, unmapped: [] },
      { role: null, reviewer: false, unmapped: ['Subscription manager'] },
      { role: 'researcher', reviewer: false, unmapped: [] },
    ]);
  });
});

describe('roles', () => {
  it('reports groups that mean nothing here, and guesses OJS’s default names the file does not describe', () => {
    const known = new Map<string, OjsGroup>([
      ['Site admin', { key: 'Site admin', roleId: 1, names: {} }],
      ['Subscription Manager', { key: 'Subscription Manager', roleId: 2097152, names: {} }],
    ]);
    expect(roleOf(['Site admin', 'Subscription Manager', 'Copyeditor', 'Reviewer'], known)).toEqual({
      role: 'editor',
      reviewer: true,
      unmapped: ['Site admin', 'Subscription Manager'],
    });
  });
});
