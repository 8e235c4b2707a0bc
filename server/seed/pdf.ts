/**
 * The demo articles' PDFs, typeset by article-layout.ts on server/documents/typeset.ts (decision 0049).
 * pdf-lib takes a few hundred milliseconds to load, and only a first start (the demo PDFs) needs it here: it
 * is loaded then, not with the server.
 *
 * The typesetting is deterministic (dates come from the article), so an article's PDF is kept in the
 * installation's cache folder, named by a hash of the layout code and of everything it is typeset from:
 * a first start reads the five demo PDFs that `npm run build` typeset (server/prepare.ts) instead of
 * loading pdf-lib and typesetting them again (about half a second of a first start, and 10 MB of heap
 * that stayed; decision 0021). Other settings (another journal name, say) make other names: typeset then.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installCacheDir } from '../install-cache.ts';
import type { ArticlePdfInput } from './article-layout.ts';

export type { ArticlePdfInput } from './article-layout.ts';

type TypesetPdf = { bytes: Uint8Array; pageCount: number };

const layout = () => import('./article-layout.ts');

/** A hash of the layout code as this process runs it (TypeScript sources or the compiled build). */
let layoutHash: string | undefined;
function layoutVersion(): string {
  if (layoutHash === undefined) {
    const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
    const hash = createHash('sha256');
    for (const file of [`./article-layout.${ext}`, `../documents/typeset.${ext}`]) {
      hash.update(readFileSync(new URL(file, import.meta.url)));
    }
    layoutHash = hash.digest('hex').slice(0, 12);
  }
  return layoutHash;
}

/** `demo-pdf/<layout>-<input>-<pages>.pdf`: the page count travels in the name. */
function keptPdf(input: ArticlePdfInput): { dir: string; prefix: string } | null {
  const cache = installCacheDir();
  if (!cache) return null;
  const key = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 24);
  return { dir: path.join(cache, 'demo-pdf'), prefix: `${layoutVersion()}-${key}-` };
}

function readKept(kept: { dir: string; prefix: string }): TypesetPdf | null {
  try {
    const name = readdirSync(kept.dir).find((n) => n.startsWith(kept.prefix) && n.endsWith('.pdf'));
    if (!name) return null;
    const pageCount = Number(name.slice(kept.prefix.length, -'.pdf'.length));
    if (!Number.isInteger(pageCount) || pageCount < 1) return null;
    return { bytes: readFileSync(path.join(kept.dir, name)), pageCount };
  } catch {
    return null;
  }
}

/** Whole, then renamed (never half a PDF); PDFs of an older layout are removed. A failure costs time only. */
function keep(kept: { dir: string; prefix: string }, pdf: TypesetPdf): void {
  try {
    mkdirSync(kept.dir, { recursive: true });
    const file = path.join(kept.dir, `${kept.prefix}${pdf.pageCount}.pdf`);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, pdf.bytes);
    renameSync(temp, file);
    const current = `${layoutVersion()}-`;
    for (const name of readdirSync(kept.dir)) {
      if (!name.startsWith(current)) rmSync(path.join(kept.dir, name), { force: true });
    }
  } catch {
    // A read-only installation: typeset again next time.
  }
}

export async function articlePdf(input: ArticlePdfInput): Promise<TypesetPdf> {
  const kept = keptPdf(input);
  const found = kept && readKept(kept);
  if (found) return found;
  const pdf = await (await layout()).articlePdf(input);
  if (kept) keep(kept, pdf);
  return pdf;
}
