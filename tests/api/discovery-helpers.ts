import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';
import type { TestContext } from '../../server/testing/harness.ts';
import {
  createIssue,
  createVolume as newVolume,
  publishArticle as createArticle,
} from '../../server/testing/factories.ts';
import { fixture } from '../../server/testing/harness.ts';

/** Helpers shared by the discovery tests (OAI-PMH, deposits, feeds): parsing, schema checks, fixtures. */

/** The offline schema checker beside the project (`../shared/schemas/validate`), as in CI. */
export const SCHEMAS_DIR = path.resolve('..', 'shared/schemas');
export const VALIDATE = path.join(SCHEMAS_DIR, 'validate');

function requireSchemas() {
  if (!existsSync(VALIDATE)) {
    throw new Error(
      `The schema validator is missing: expected ${VALIDATE} (the shared/ folder beside the project). ` +
        'The Crossref and DOAJ exports cannot be checked without it.',
    );
  }
}

/**
 * Crossref's and DOAJ's schemas as `../shared/schemas/validate` names them (its `crossref` and `doaj` cases):
 * checked here with one xmllint run for all the documents given, where the script runs xmllint twice per file
 * (once for the messages, once for the status). Loading Crossref's schema takes about 4 s; it was most of
 * the discovery tests' time.
 */
const XSD: Record<'crossref' | 'doaj', { catalog: string; xsd: string }> = {
  crossref: { catalog: 'crossref/catalog.xml', xsd: 'crossref/crossref5.3.1.xsd' },
  doaj: { catalog: 'doaj/catalog.xml', xsd: 'doaj/doajArticles.xsd' },
};

/**
 * Checks the document (or each of several) against the official schema; ok when every one is valid. Crossref
 * and DOAJ: one xmllint run, as the checker script does it; the others through `../shared/schemas/validate
 * KIND FILE [VERSION]`, a file at a time.
 */
export function validateWithSchema(
  kind: 'crossref' | 'doaj' | 'jats' | 'ojs' | 'ojs-users',
  xml: string | string[],
  /** For OJS's schemas: the version to check against (none: any). */
  version?: string,
): { ok: boolean; output: string } {
  requireSchemas();
  const docs = Array.isArray(xml) ? xml : [xml];
  if (kind === 'crossref' || kind === 'doaj') return xmllintSchema(XSD[kind], kind, docs);
  return withFiles(kind, docs, (files) => {
    const results = files.map((file) => run(VALIDATE, [kind, file, ...(version ? [version] : [])]));
    return {
      ok: results.every((r) => r.ok),
      output: results.map((r) => r.output).join(''),
    };
  });
}

/**
 * Validates JATS `<article>` documents against the JATS 1.3 (draft 2) schema that ships with Crossref's,
 * which puts JATS in Crossref's JATS namespace: the documents are moved into it for the check. One
 * xmllint run for all of them (loading the schema is the slow part).
 */
export function validateJats(articles: string[]): { ok: boolean; output: string } {
  requireSchemas();
  const docs = articles.map((xml) => {
    const doc = xml
      .replace(/^<article xmlns=""/, '<article xmlns="http://www.ncbi.nlm.nih.gov/JATS1"')
      .replace(/^(<article [^>]*)dtd-version="1\.3"/, '$1dtd-version="1.3d2"');
    return `<?xml version="1.0" encoding="UTF-8"?>\n${doc}`;
  });
  return xmllintSchema(
    { catalog: 'crossref/catalog.xml', xsd: 'crossref/JATS-journalpublishing1-3d2-mathml3.xsd' },
    'article',
    docs,
  );
}

/** One xmllint run checking every document against a schema of SCHEMAS_DIR, with its catalog (offline). */
function xmllintSchema(
  schema: { catalog: string; xsd: string },
  name: string,
  docs: string[],
): { ok: boolean; output: string } {
  return withFiles(name, docs, (files) => {
    const r = run(
      'xmllint',
      ['--nonet', '--noout', '--schema', path.join(SCHEMAS_DIR, schema.xsd), ...files],
      {
        ...process.env,
        XML_CATALOG_FILES: path.join(SCHEMAS_DIR, schema.catalog),
      },
    );
    const output = r.output
      .split('\n')
      .filter((line) => line.trim() && !line.includes('Schemas parser warning'))
      .join('\n');
    return { ok: r.ok, output };
  });
}

/** The documents written to files of a temporary folder (`{name}-{i}.xml`), removed after `use`. */
function withFiles<T>(name: string, docs: string[], use: (files: string[]) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-xml-'));
  try {
    const files = docs.map((doc, i) => {
      const file = path.join(dir, `${name}-${i}.xml`);
      writeFileSync(file, doc);
      return file;
    });
    return use(files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A command run to its end: ok when it exits 0, with everything it printed. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(command, args, { encoding: 'utf8', env });
  return {
    ok: r.status === 0,
    output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`,
  };
}

/** Schema checks load large schemas (Crossref's imports JATS and MathML): allow them time on a busy machine. */
export const SCHEMA_TIMEOUT = 180_000;
/** Seeding the demo volume (five generated PDFs) and publishing through the API, on a busy machine. */
export const SETUP_TIMEOUT = 180_000;

/** Elements that may repeat, always parsed as arrays so tests need not care whether there was one. */
const REPEATING = new Set([
  'record',
  'header',
  'setSpec',
  'set',
  'metadataFormat',
  'error',
  'dc:creator',
  'dc:subject',
  'dc:identifier',
  'dc:type',
  'dc:source',
  'dc:rights',
  'contrib',
  'aff',
  'article-id',
  'self-uri',
  'kwd',
  'url',
  'item',
  'entry',
  'category',
  'author',
  'person_name',
  'journal_article',
  'keyword',
  'affiliationName',
  'affiliationId',
  'link',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => REPEATING.has(name),
});

/** Checks the document is well-formed XML, then parses it (attributes as `@_name`, text as `#text`). */
export function parseXml(xml: string): any {
  const valid = XMLValidator.validate(xml);
  expect(valid, `not well-formed XML: ${JSON.stringify(valid)}`).toBe(true);
  return parser.parse(xml);
}

/** The text of a parsed element, whether it came out as a string or as `{ '#text': … }`. */
export function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  return String((node as Record<string, unknown>)['#text'] ?? '');
}

export const TRICKY_TITLE = 'Tom & Jerry <b>not bold</b>: "quotes", \'apostrophes\' & R&D > 3 < 4';

const DISCOVERY_AUTHORS = [
  {
    name: 'Meera Iyer',
    email: 'meera@example.org',
    affiliation: 'Anna University & IIT <Madras>',
    superscript: '1',
  },
  { name: 'Ludwig van Beethoven', email: 'lvb@example.org', affiliation: 'TU Delft', superscript: '2' },
  {
    name: 'Sukarno',
    email: 'sukarno@example.org',
    affiliation: 'Anna University & IIT <Madras>',
    superscript: '1',
  },
];

/**
 * Publishes an article through the API (the factory's `publishArticle`) with the discovery tests' awkward
 * metadata (markup and ampersands, a one-word name, shared affiliations); returns its id.
 */
export async function publishArticle(
  t: TestContext,
  token: string,
  fields: { issueId: number; title: string; doi: string; pages?: string; authors?: unknown[] },
): Promise<number> {
  const article = await createArticle(t, token, {
    issueId: fields.issueId,
    title: fields.title,
    doi: fields.doi,
    abstract: `An abstract about ${fields.title} with <markup> & ampersands.`,
    keywords: 'harvesting, metadata & interoperability, OAI-PMH',
    pages: fields.pages ?? '11-20',
    authors: JSON.stringify(fields.authors ?? DISCOVERY_AUTHORS),
    pdf: { name: 'article.pdf', data: fixture('manuscript.pdf'), type: 'application/pdf' },
  });
  return article.id;
}

/** Creates a volume and its issues through the API (the factories); returns the issues' ids in order. */
export async function createVolume(
  t: TestContext,
  token: string,
  volume: { number: number; year: number; issues: number },
): Promise<number[]> {
  const v = await newVolume(t, token, { number: volume.number, year: volume.year });
  const ids: number[] = [];
  for (let i = 1; i <= volume.issues; i++) {
    const issue = await createIssue(t, token, {
      volumeId: v.id,
      title: `Issue ${i} & more`,
      description: `Issue ${i} of volume ${volume.number}.`,
    });
    ids.push(issue.id);
  }
  return ids;
}
