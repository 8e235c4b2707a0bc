import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { OAI_DC_NAMESPACE, OAI_DC_SCHEMA } from './dublin-core.ts';
import { JATS_NAMESPACE, JATS_SCHEMA } from './jats.ts';
import type { PlaceFilter } from './works.ts';

/**
 * OAI-PMH 2.0's words, apart from the repository that answers with them (oai.ts): its namespaces and formats,
 * its error codes, which arguments each verb takes, datestamps, set specs and our signed resumption tokens.
 */

export const OAI_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/';
export const OAI_SCHEMA = 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd';
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
export const OAI_IDENTIFIER_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/oai-identifier';

export const OAI_GRANULARITY = 'YYYY-MM-DDThh:mm:ssZ';
export const OAI_DELETED_RECORD = 'transient';

export const METADATA_FORMATS = [
  { prefix: 'oai_dc', schema: OAI_DC_SCHEMA, namespace: OAI_DC_NAMESPACE },
  { prefix: 'jats', schema: JATS_SCHEMA, namespace: JATS_NAMESPACE },
] as const;
export type MetadataPrefix = (typeof METADATA_FORMATS)[number]['prefix'];

export type OaiErrorCode =
  | 'badArgument'
  | 'badResumptionToken'
  | 'badVerb'
  | 'cannotDisseminateFormat'
  | 'idDoesNotExist'
  | 'noRecordsMatch'
  | 'noMetadataFormats'
  | 'noSetHierarchy';

export class OaiError extends Error {
  constructor(
    readonly code: OaiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Which arguments each verb takes: required, optional, or exclusive (the resumption token). */
export const VERBS: Record<string, { required: string[]; optional: string[]; exclusive?: string }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListIdentifiers: {
    required: ['metadataPrefix'],
    optional: ['from', 'until', 'set'],
    exclusive: 'resumptionToken',
  },
  ListRecords: {
    required: ['metadataPrefix'],
    optional: ['from', 'until', 'set'],
    exclusive: 'resumptionToken',
  },
};

export type ListVerb = 'ListIdentifiers' | 'ListRecords';

// ---- Dates ----------------------------------------------------------------------------------------

export interface OaiDate {
  date: Date;
  granularity: 'day' | 'seconds';
}

/** A UTC datestamp at seconds granularity: "2025-03-01T10:15:00Z". */
export function oaiDatestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/** A `from`/`until` value, at day or seconds granularity; null when it is neither or not a real date. */
export function parseOaiDate(text: string): OaiDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z)?$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  // Reject what Date would roll over: 2025-02-30, 24:00:00, 12:60:00.
  if (
    date.getUTCFullYear() !== Number(y) ||
    date.getUTCMonth() !== Number(mo) - 1 ||
    date.getUTCDate() !== Number(d) ||
    date.getUTCHours() !== Number(h) ||
    date.getUTCMinutes() !== Number(mi) ||
    date.getUTCSeconds() !== Number(s)
  ) {
    return null;
  }
  return { date, granularity: m[4] === undefined ? 'day' : 'seconds' };
}

/** The first instant after `until`: datestamps are whole seconds, `until` includes its whole day/second. */
export function afterUntil(until: OaiDate): Date {
  return new Date(until.date.getTime() + (until.granularity === 'day' ? 86_400_000 : 1000));
}

// ---- Sets -----------------------------------------------------------------------------------------

/** setSpec syntax from the protocol's schema. */
export const SET_SPEC_SYNTAX = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

export function parseSetSpec(spec: string): PlaceFilter | null {
  const m = /^volume:([1-9]\d{0,8})(?::issue:([1-9]\d{0,8}))?$/.exec(spec);
  if (!m) return null;
  return { volume: Number(m[1]), ...(m[2] ? { issue: Number(m[2]) } : {}) };
}

export const volumeSetSpec = (volume: number) => `volume:${volume}`;
export const issueSetSpec = (volume: number, issue: number) => `volume:${volume}:issue:${issue}`;

/**
 * The site-wide repository's sets (decision 0057): each journal is a set, `journal:{id}` (its id, not its
 * path or domain, so that a journal that moves keeps its set), above its volumes and issues:
 * `journal:{id}:volume:{n}` and `journal:{id}:volume:{n}:issue:{m}`.
 */
export const journalSetSpec = (journal: number) => `journal:${journal}`;

export function parseSiteSetSpec(spec: string): { journal: number; place?: PlaceFilter } | null {
  const m = /^journal:([1-9]\d{0,8})(?::(.+))?$/.exec(spec);
  if (!m) return null;
  const journal = Number(m[1]);
  if (m[2] === undefined) return { journal };
  const place = parseSetSpec(m[2]);
  return place ? { journal, place: { ...place, journal } } : null;
}

// ---- Resumption tokens ----------------------------------------------------------------------------

export const tokenPayload = z.object({
  v: z.literal(1),
  verb: z.enum(['ListIdentifiers', 'ListRecords']),
  m: z.enum(['oai_dc', 'jats']),
  s: z.string().optional(),
  f: z.string().optional(),
  u: z.string().optional(),
  /** The last id already sent. */
  a: z.number().int().min(0),
  /** How many records were sent before the page this token asks for. */
  c: z.number().int().min(0),
});
export type TokenPayload = z.infer<typeof tokenPayload>;

export class Tokens {
  constructor(private readonly secret: string) {}

  private sign(body: string): string {
    return createHmac('sha256', this.secret)
      .update(`oai-resumption-token:${body}`)
      .digest('base64url')
      .slice(0, 22);
  }

  encode(p: TokenPayload): string {
    const body = Buffer.from(JSON.stringify(p)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(token: string): TokenPayload | null {
    const m = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{22})$/.exec(token);
    if (!m) return null;
    const expected = Buffer.from(this.sign(m[1]));
    const given = Buffer.from(m[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const parsed = tokenPayload.safeParse(JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
