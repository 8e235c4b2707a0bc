// The server compiled to JavaScript once, at build time (`npm run build`, or `npm start` when the sources are
// newer), so that `npm start` loads plain modules instead of transpiling every TypeScript file through tsx on
// each start (tsx cost about 1.5 s of CPU and 90 MB per start; see the start-up figures in the report of
// issue 13). File for file, in the same tree (server/, common/, content/ under build/node/): every path a
// module reads relative to itself (the migrations, the journal's Markdown pages, the worker entries) holds as
// it is, because the files that are not TypeScript are copied beside the compiled ones.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The folders the server's modules come from. */
export const SERVER_SOURCES = ['server', 'common', 'content'];
/** Where the compiled tree goes (build/node/server/main.js is the server's entry). */
export const SERVER_OUT = path.join('build', 'node');
/** The file whose age says how old the compiled server is. */
export const SERVER_MARKER = path.join(SERVER_OUT, 'server', 'lifecycle.js');

/** The newest modification time under `entry` (tests left out: they are not part of either build). */
function newestMtime(entry) {
  if (!existsSync(entry) || /\.test\.tsx?$/.test(entry)) return 0;
  const s = statSync(entry);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Whether `built` is missing or older than any file under `sources` (relative to the working folder). */
export const isStale = (built, sources) =>
  !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;

/** Whether the compiled server is missing or older than its sources (start.mjs, the cluster tests). */
export const serverBuildStale = () =>
  isStale(SERVER_MARKER, [...SERVER_SOURCES, 'package-lock.json', path.join('scripts', 'build-server.mjs')]);

/** Compiler options for ts.transpileModule (TypeScript is loaded only to build: start.mjs imports this file). */
const compilerOptions = (ts) => ({
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2022,
  // `./x.ts` → `./x.js` in imports (static and dynamic): the sources import with their extensions.
  rewriteRelativeImportExtensions: true,
  isolatedModules: true,
  esModuleInterop: true,
  useDefineForClassFields: true,
  // For `node --enable-source-maps` when a stack trace should name the TypeScript lines.
  sourceMap: true,
});

const isTest = (name) => /\.test\.[cm]?ts$/.test(name);

function compileTree(ts, srcDir, outDir) {
  mkdirSync(outDir, { recursive: true });
  let count = 0;
  for (const entry of readdirSync(srcDir, { withFileTypes: true })) {
    const src = path.join(srcDir, entry.name);
    const out = path.join(outDir, entry.name);
    if (entry.isDirectory()) {
      count += compileTree(ts, src, out);
    } else if (entry.name.endsWith('.d.ts') || isTest(entry.name)) {
      // Declarations and tests have no place in the running server.
    } else if (entry.name.endsWith('.ts')) {
      const js = out.replace(/\.ts$/, '.js');
      const { outputText, sourceMapText } = ts.transpileModule(readFileSync(src, 'utf8'), {
        fileName: path.relative(path.dirname(js), src),
        compilerOptions: compilerOptions(ts),
        reportDiagnostics: false,
      });
      writeFileSync(js, outputText);
      if (sourceMapText) writeFileSync(`${js}.map`, sourceMapText);
      count++;
    } else {
      cpSync(src, out);
    }
  }
  return count;
}

/**
 * Compiles the server into SERVER_OUT (first into a fresh folder beside it, then swapped in, so a server
 * starting meanwhile finds the old tree or the new one, not half of one). Returns the number of modules.
 */
export async function buildServer(root = process.cwd()) {
  const { default: ts } = await import('typescript');
  const out = path.join(root, SERVER_OUT);
  const next = `${out}.next-${process.pid}`;
  const old = `${out}.old-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  let count = 0;
  for (const dir of SERVER_SOURCES) count += compileTree(ts, path.join(root, dir), path.join(next, dir));
  // Node reads the tree as ES modules whatever the nearest package.json says.
  writeFileSync(path.join(next, 'package.json'), '{ "type": "module" }\n');
  try {
    renameSync(out, old);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  renameSync(next, out);
  rmSync(old, { recursive: true, force: true });
  return count;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const started = performance.now();
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const count = await buildServer(root);
  console.log(
    `Server compiled: ${count} modules to ${SERVER_OUT} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
