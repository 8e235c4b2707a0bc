/**
 * Where work done once per installation is kept, so that starts do not repeat it (decision 0021): the
 * database new PGlite folders start from (and its spare copy, decision 0059), the demo articles' PDFs. The folder is
 * `node_modules/.cache/colophon`, beside the installed packages: `npm ci` empties it with them, and
 * `npm run build` fills it again (server/prepare.ts). Everything in it can be made again; a start that finds
 * nothing there only takes longer. Null when it cannot be placed (an unusual install layout).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

let dir: string | null | undefined;

export function installCacheDir(): string | null {
  if (dir !== undefined) return dir;
  try {
    // node_modules/@electric-sql/pglite/dist/index.js → node_modules/.cache/colophon
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const nodeModules = path.resolve(path.dirname(entry), '..', '..', '..');
    dir = path.basename(nodeModules) === 'node_modules' ? path.join(nodeModules, '.cache', 'colophon') : null;
  } catch {
    dir = null;
  }
  return dir;
}
