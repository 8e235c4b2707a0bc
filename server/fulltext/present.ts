import { z } from 'zod';
import { inlineText } from './document.ts';
import type { FullTextView } from './service.ts';

/** The editor's view of a full text: what the preview page and the API show. */
export const fullTextResponse = z.object({
  source: z.string(),
  ready: z.boolean(),
  words: z.number(),
  figures: z.array(
    z.object({
      number: z.number(),
      name: z.string(),
      alt: z.string(),
      width: z.number(),
      height: z.number(),
    }),
  ),
  problems: z.array(z.object({ kind: z.string(), message: z.string() })),
  /** The reference list: a DOI can be given where the Word file had none (PATCH …/references). */
  references: z.array(
    z.object({ number: z.number(), label: z.string(), text: z.string(), doi: z.string().nullable() }),
  ),
});

export function presentFullText(view: FullTextView) {
  return {
    source: view.sourceName,
    ready: view.ready,
    words: view.document.words,
    figures: view.document.figures.map((f, i) => ({
      number: i + 1,
      name: f.name,
      alt: f.alt,
      width: f.width,
      height: f.height,
    })),
    problems: view.problems.map((p) => ({ kind: p.kind, message: p.message })),
    references: view.document.references.map((r, i) => ({
      number: i + 1,
      label: r.label,
      text: inlineText(r.c).slice(0, 300),
      doi: r.doi,
    })),
  };
}
