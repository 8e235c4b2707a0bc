/**
 * Bulk data for the benches: deterministic titles, people and an archive of volumes, issues and articles
 * (three authors each), inserted straight into the services' own tables in chunks (seconds, not thousands
 * of HTTP calls). The catalog's triggers keep the search index as they do for any insert. Used by
 * `bench/dashboard.ts` and `bench/http.ts`.
 */
import { articleAuthors, articles, issues, volumes } from '../../server/catalog/tables.ts';
import type { Db } from '../../server/db/client.ts';

const WORDS =
  'adaptive robust federated neural sensor grid turbine blockchain secure edge cloud model learning control wind solar fault detection graph privacy quantum network latency embedded vision'.split(
    ' ',
  );

/** The k-th word of item i: every word turns up in about one title in five. */
export const word = (i: number, k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];

export const titleOf = (i: number) =>
  `${word(i, 1)} ${word(i, 2)} ${word(i, 3)} for ${word(i, 4)} ${word(i, 5)} systems ${i}`.replace(
    /^./,
    (c) => c.toUpperCase(),
  );

const SURNAMES = [
  'Okafor',
  'Lindqvist',
  'Raghavan',
  'Costa',
  'Nakamura',
  'Bello',
  'Novak',
  'Haddad',
  'Moreau',
  'Singh',
];
export const personOf = (i: number) =>
  `${String.fromCharCode(65 + (i % 26))}. ${SURNAMES[i % SURNAMES.length]}${i % 97}`;

/** Inserts `rows` a chunk at a time (one statement per chunk keeps under the parameter limit). */
export async function chunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>, size = 1_000) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export interface ArchiveLayout {
  /** How many articles each issue holds, in order; issues fill volumes `issuesPerVolume` at a time. */
  issueSizes: number[];
  issuesPerVolume: number;
  /** The first new volume's number and year; each next volume adds one to both. */
  firstVolumeNumber: number;
  firstYear: number;
  /** One article in this many is unpublished (0: none). */
  unpublishedEvery?: number;
  /** Put in each DOI (`10.5555/{doiTag}.{i}`): DOIs are unique across the site, so each journal needs its own. */
  doiTag?: string;
}

export interface SeededIssue {
  id: number;
  volumeNumber: number;
  issueNumber: number;
  articles: number;
}

/**
 * Volumes, issues and articles laid out as `layout` says. Article i gets `titleOf(i)`, an abstract of eight
 * sentences, three keywords, pages by its place in its issue, the DOI 10.5555/bench.i (`doiTag`), the date 1 March of
 * its volume's year and three authors (`personOf(i)`, `personOf(i + 1)`, `personOf(i + 2)`).
 */
export async function seedArchive(
  db: Db,
  layout: ArchiveLayout,
): Promise<{ articleIds: number[]; issues: SeededIssue[] }> {
  const {
    issueSizes,
    issuesPerVolume,
    firstVolumeNumber,
    firstYear,
    unpublishedEvery = 0,
    doiTag = 'bench',
  } = layout;
  const volumeCount = Math.ceil(issueSizes.length / issuesPerVolume);
  const volumeRows = await db
    .insert(volumes)
    .values(
      Array.from({ length: volumeCount }, (_, v) => ({
        title: `Volume ${firstVolumeNumber + v}`,
        volumeNumber: firstVolumeNumber + v,
        year: firstYear + v,
      })),
    )
    .returning({ id: volumes.id });
  const issueRows = await db
    .insert(issues)
    .values(
      issueSizes.map((_, k) => {
        const v = Math.floor(k / issuesPerVolume);
        const n = k % issuesPerVolume;
        return {
          volumeId: volumeRows[v].id,
          issueNumber: n + 1,
          title: `Issue ${firstVolumeNumber + v}.${n + 1}`,
          description: 'A benchmark issue.',
        };
      }),
    )
    .returning({ id: issues.id });

  const articleValues = issueSizes.flatMap((size, k) => {
    const year = firstYear + Math.floor(k / issuesPerVolume);
    const before = issueSizes.slice(0, k).reduce((a, b) => a + b, 0);
    return Array.from({ length: size }, (_, p) => {
      const i = before + p;
      return {
        issueId: issueRows[k].id,
        title: titleOf(i),
        abstract: `An abstract about ${titleOf(i)}. `.repeat(8),
        keywords: `${word(i, 1)}, ${word(i, 2)}, ${word(i, 3)}`,
        firstPage: p * 10 + 1,
        lastPage: p * 10 + 10,
        doi: `10.5555/${doiTag}.${i}`,
        status: (unpublishedEvery && i % unpublishedEvery === 0 ? 'unpublished' : 'published') as
          | 'published'
          | 'unpublished',
        publicationDate: `${year}-03-01`,
      };
    });
  });
  const articleIds: number[] = [];
  await chunked(articleValues, async (chunk) => {
    const rows = await db.insert(articles).values(chunk).returning({ id: articles.id });
    articleIds.push(...rows.map((r) => r.id));
  });
  await chunked(
    articleIds.flatMap((articleId, i) =>
      [0, 1, 2].map((p) => ({
        articleId,
        position: p,
        name: personOf(i + p),
        email: `a${i}.${p}@example.org`,
        affiliation: 'Bench University',
        superscript: String(p + 1),
      })),
    ),
    (chunk) => db.insert(articleAuthors).values(chunk),
  );
  return {
    articleIds,
    issues: issueSizes.map((size, k) => ({
      id: issueRows[k].id,
      volumeNumber: firstVolumeNumber + Math.floor(k / issuesPerVolume),
      issueNumber: (k % issuesPerVolume) + 1,
      articles: size,
    })),
  };
}
