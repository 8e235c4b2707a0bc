import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SCOPE_ROLES_MADE } from './client.ts';

/** There is no embedded database to dump (a folder never started, or one on PostgreSQL). */
export class NothingToDumpError extends Error {}

/**
 * The embedded database of a data folder as a plain SQL dump, for `psql` to restore into an empty
 * PostgreSQL database (`npm run cli -- db dump FILE`, decision 0027). PGlite is PostgreSQL 18 compiled to
 * WebAssembly, and a pg_dump must be at least as new as the server it dumps, which most machines' are not:
 * so this is PGlite's own pg_dump (pglite-tools, WebAssembly too), run on the folder opened in this
 * process. The caller holds the data folder's lock. No owners and no grants (the target has its own
 * roles); the one setting PostgreSQL before 17 does not know is left out, so that a restore with
 * ON_ERROR_STOP meets no error on PostgreSQL 15 or 16.
 */
export async function dumpEmbeddedDatabase(dataDir: string, file: string): Promise<{ bytes: number }> {
  const dir = path.join(dataDir, 'pglite');
  if (!existsSync(path.join(dir, 'PG_VERSION')))
    throw new NothingToDumpError(`There is no embedded database in ${dir} to dump.`);
  const [{ PGlite }, { pgDump }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-tools/pg_dump'),
  ]);
  const pg = await PGlite.create({ dataDir: dir });
  try {
    const dump = await pgDump({ pg, args: ['--no-owner', '--no-privileges'] });
    const text = (await dump.text()).replace(
      /^SET transaction_timeout = 0;$/m,
      '-- SET transaction_timeout = 0; (PostgreSQL 17 and later)',
    );
    // The policies of the dump name the journals' roles (decision 0053): made first, if the target has none.
    const body = `-- The roles the policies below name (Colophon, decision 0053).\n${SCOPE_ROLES_MADE}\n${text}`;
    await writeFile(file, body);
    return { bytes: Buffer.byteLength(body) };
  } finally {
    await pg.close();
  }
}
