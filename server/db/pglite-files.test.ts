import { asOwner } from './scope.ts';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { folderOf, makeSpare, spareOf, takeSpare } from './pglite-files.mjs';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-spare-'));
  dirs.push(dir);
  return dir;
}

/** A stand-in for the kept copy's folder: a few files in sub-folders, PG_VERSION among them. */
function fakeCopy(dir: string): string {
  const template = path.join(dir, 'cache', 'pglite-x.tar');
  const folder = folderOf(template);
  mkdirSync(path.join(folder, 'base', '5'), { recursive: true });
  writeFileSync(path.join(folder, 'PG_VERSION'), '17\n');
  writeFileSync(path.join(folder, 'base', '5', '1249'), 'relation');
  writeFileSync(path.join(folder, 'base', '5', '2600'), '');
  return template;
}

const files = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

describe("the kept copy's spare (decision 0059)", () => {
  it('is made whole beside the copy, and becomes a new data folder by a rename', async () => {
    const dir = scratch();
    const template = fakeCopy(dir);
    const spare = spareOf(template);
    expect(takeSpare(template, path.join(dir, 'data', 'pglite'))).toBe(false); // none yet
    expect(await makeSpare(template)).toBe(true);
    expect(files(spare)).toEqual(files(folderOf(template)));
    expect(statSync(spare).mode & 0o777).toBe(0o700);
    // Only what was made is there: no folder left half-made.
    expect(readdirSync(path.dirname(spare)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await makeSpare(template, { sync: true })).toBe(true); // already there: kept as it is

    mkdirSync(path.join(dir, 'data'));
    const dataDir = path.join(dir, 'data', 'pglite');
    expect(takeSpare(template, dataDir)).toBe(true);
    expect(existsSync(spare)).toBe(false);
    expect(files(dataDir)).toEqual(files(folderOf(template)));
    // The next new folder finds no spare: the caller copies as before.
    expect(takeSpare(template, path.join(dir, 'data', 'other'))).toBe(false);
  });

  it('is not taken into a folder that holds files, and a half-made one of a dead process is removed', async () => {
    const dir = scratch();
    const template = fakeCopy(dir);
    const dataDir = path.join(dir, 'data');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'left-by-an-interrupted-copy'), '');
    expect(await makeSpare(template, { sync: true })).toBe(true);
    expect(takeSpare(template, dataDir)).toBe(false);
    expect(existsSync(spareOf(template))).toBe(true);

    rmSync(spareOf(template), { recursive: true });
    const dead = `${spareOf(template)}.999999999-0.tmp`;
    mkdirSync(dead);
    expect(await makeSpare(template, { stopped: () => true })).toBe(false); // stopped: nothing left
    expect(existsSync(dead)).toBe(false);
    expect(readdirSync(path.dirname(template)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // No copy's folder, no spare.
    rmSync(folderOf(template), { recursive: true });
    expect(await makeSpare(template)).toBe(false);
  });

  it('opens a new data folder from the spare with the same database as a copy', async () => {
    const dir = scratch();
    const template = path.join(dir, 'cache', 'pglite-test.tar');
    const count = async (name: string) => {
      const database = await openDatabase({ dir: path.join(dir, name) }, { template });
      // As the owner: the migrations' own table and a new table are not the journals' roles' (decision 0053).
      const result = await asOwner(() =>
        database.db.execute(
          sql`select (select count(*)::int from drizzle.__drizzle_migrations) as migrations`,
        ),
      );
      await asOwner(() => database.db.execute(sql`create table t (n int)`));
      await database.close();
      return (result as unknown as { rows: unknown[] }).rows[0];
    };
    const initialised = await count('first');
    expect(await makeSpare(template, { sync: true })).toBe(true);
    expect(await count('second')).toEqual(initialised);
    expect(existsSync(spareOf(template))).toBe(false); // taken
    // What the first folder created never reached the copy, nor so the spare taken from it.
    expect(await count('third')).toEqual(initialised);
  });
});
