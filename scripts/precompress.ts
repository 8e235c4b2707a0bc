import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images and fonts are compressed already. */
const TEXT = /\.(js|mjs|css|svg|json|txt|xml|html|map|webmanifest|ico)$/i;
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;

/**
 * Writes `name.br` (brotli, best quality) and `name.gz` beside every text file of the client build, once,
 * at build time: the server sends them to browsers that accept them (`@fastify/static` with
 * `preCompressed`), so no asset is compressed per request. A compressed copy no smaller than the file is
 * not kept.
 */
export function precompressDir(dir: string): { files: number; before: number; brotli: number; gzip: number } {
  const totals = { files: 0, before: 0, brotli: 0, gzip: 0 };
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      if (statSync(file).isDirectory()) {
        walk(file);
        continue;
      }
      if (!TEXT.test(name)) continue;
      const bytes = readFileSync(file);
      if (bytes.length < MIN_BYTES) continue;
      const br = brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
      const gz = gzipSync(bytes, { level: 9 });
      totals.files++;
      totals.before += bytes.length;
      if (br.length < bytes.length) {
        writeFileSync(`${file}.br`, br);
        totals.brotli += br.length;
      }
      if (gz.length < bytes.length) {
        writeFileSync(`${file}.gz`, gz);
        totals.gzip += gz.length;
      }
    }
  };
  walk(dir);
  return totals;
}

/**
 * The Vite plugin. React Router writes its client manifest into the client folder while it builds the
 * server, so the client folder is compressed after the server build, when everything is there.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'colophon-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      if (path.basename(outDir) !== 'server') return;
      const t = precompressDir(path.join(path.dirname(outDir), 'client'));
      const kb = (n: number) => `${Math.round(n / 1024)} KB`;
      this.info(`precompressed ${t.files} files: ${kb(t.before)} → ${kb(t.brotli)} brotli, ${kb(t.gzip)} gzip`);
    },
  };
}
