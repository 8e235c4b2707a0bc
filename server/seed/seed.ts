import { eq, inArray, sql } from 'drizzle-orm';
import { type JournalSettings, journalSettingsSchema } from '../../common/journal.ts';
import { type DemoArticle, demoArticles, demoIssue, demoVolume } from '../../content/demo-articles.ts';
import { journalDefaults } from '../../content/journal.ts';
import { seedContent } from '../content/seed.ts';
import { articles, issues, volumes } from '../catalog/tables.ts';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { Services } from '../services.ts';
import { JOURNAL_KEY } from '../settings/service.ts';
import { settings } from '../settings/tables.ts';
import { enqueueDemoFullText } from './demo-fulltext.ts';
import { articlePdf } from './pdf.ts';

/**
 * Records how far the demo content got, so the seed runs it exactly once: `started` (volume and issue
 * exist, articles may be missing: a later run completes them), `done`, or `skipped` (a Volume 1 was
 * already there, made by the editors: their catalogue is not touched).
 */
export const DEMO_MARKER_KEY = 'seed.demo';

interface DemoMarker {
  state: 'started' | 'done' | 'skipped';
  volumeId?: number;
  issueId?: number;
  at: string;
}

/** Any fixed number: serialises concurrent first runs against one PostgreSQL server. */
const SEED_LOCK = 0x636a6569;

/** ISSN check digit of the first seven digits (weights 8 to 2, modulo 11; 10 is written X). */
export function issnCheckDigit(first7: string): string {
  if (!/^\d{7}$/.test(first7)) throw new Error(`Not seven digits: ${first7}`);
  const sum = [...first7].reduce((acc, d, i) => acc + Number(d) * (8 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

export function isValidIssn(issn: string): boolean {
  const m = /^(\d{4})-(\d{3})([\dX])$/.exec(issn);
  return !!m && issnCheckDigit(m[1] + m[2]) === m[3];
}

/** The DOI the seed gives a demo article, e.g. 10.5555/cjei.2025.1.1.001. */
export function demoDoi(journal: JournalSettings, article: Pick<DemoArticle, 'number'>): string {
  const suffix = [
    journal.abbreviation.toLowerCase(),
    demoVolume.year,
    demoVolume.volumeNumber,
    demoIssue.issueNumber,
  ];
  return `${journal.doiPrefix}/${suffix.join('.')}.${article.number}`;
}

/**
 * First-run setup, safe to run on every start: the journal settings (never overwriting the office's
 * edits), the admin account, and, when `demo` is set, the demo volume, issue and five articles with
 * their PDFs, exactly once.
 */
export async function seed(
  services: Services,
  opts: { demo: boolean },
): Promise<{ adminCreated: boolean; adminPassword: string | null }> {
  const { config, db } = services;

  await seedJournal(services.settings, db, { email: config.EDITORIAL_EMAIL });

  // Together: the admin's password hash (argon2, on libuv's threads) while the demo waits on the database.
  const [admin] = await Promise.all([
    services.accounts.ensureAdmin({
      username: config.ADMIN_USERNAME,
      password: config.ADMIN_PASSWORD,
      email: config.ADMIN_EMAIL,
    }),
    opts.demo ? seedDemo(services) : null,
  ]);
  // The first admin of a new installation is the site's admin too (an upgraded one's were made so by 0016).
  if (admin.created) await services.journalAdmin.makeSiteAdmin(config.ADMIN_USERNAME);
  return { adminCreated: admin.created, adminPassword: admin.password };
}

/**
 * A journal's settings, pages, board and special issues as first seeded, never overwriting the office's edits:
 * the first journal's on every start, and each journal the site admin makes (server/journals/service.ts, in
 * its transaction and scope), with the settings `newJournalSettings` gives it (decision 0062).
 */
export async function seedJournal(
  settingsService: Services['settings'],
  tx: Tx,
  opts: { email: string; settings?: JournalSettings },
): Promise<void> {
  const defaults = journalSettingsSchema.parse(opts.settings ?? journalDefaults({ email: opts.email }));
  await settingsService.setDefault(tx, JOURNAL_KEY, defaults);
  // The journal's pages, board and special issues: every start, demo or not (never overwrites edits).
  await seedContent(settingsService, tx);
}

/** The demo catalogue; returns how many articles this run added. */
export async function seedDemo(services: Services): Promise<{ added: number }> {
  const { db, log } = services;
  const journal = await services.settings.journal();

  let marker = await services.settings.get<DemoMarker>(DEMO_MARKER_KEY);
  if (marker?.state === 'done' || marker?.state === 'skipped') return { added: 0 };

  if (!marker) {
    marker = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
      // Another process may have started while this one waited for the lock.
      const [row] = await tx.select().from(settings).where(eq(settings.key, DEMO_MARKER_KEY));
      if (row) return row.value as DemoMarker;
      const at = new Date().toISOString();
      const [existing] = await tx
        .select({ id: volumes.id })
        .from(volumes)
        .where(eq(volumes.volumeNumber, demoVolume.volumeNumber));
      if (existing) {
        const skipped: DemoMarker = { state: 'skipped', at };
        await services.settings.set(tx, DEMO_MARKER_KEY, skipped);
        return skipped;
      }
      const [volume] = await tx
        .insert(volumes)
        .values({ title: demoVolume.title, volumeNumber: demoVolume.volumeNumber, year: demoVolume.year })
        .returning({ id: volumes.id });
      const [issue] = await tx
        .insert(issues)
        .values({
          volumeId: volume.id,
          issueNumber: demoIssue.issueNumber,
          title: demoIssue.title,
          description: demoIssue.description,
          publicationDate: demoIssue.publicationDate,
          publicationMonth: Number(demoIssue.publicationDate.slice(5, 7)),
        })
        .returning({ id: issues.id });
      const started: DemoMarker = { state: 'started', volumeId: volume.id, issueId: issue.id, at };
      await services.settings.set(tx, DEMO_MARKER_KEY, started);
      return started;
    });
    if (marker.state === 'skipped') {
      log.info({}, 'Demo content not seeded: a Volume 1 already exists');
      return { added: 0 };
    }
    if (marker.state === 'done') return { added: 0 };
  }

  const issueId = marker.issueId!;
  const [issue] = await db.select({ id: issues.id }).from(issues).where(eq(issues.id, issueId));
  if (!issue) {
    // The editors removed the half-seeded issue: leave the catalogue as they made it.
    await services.settings.set(db, DEMO_MARKER_KEY, { state: 'skipped', at: new Date().toISOString() });
    return { added: 0 };
  }

  // An earlier run that stopped half-way may have stored some articles: add only the missing ones.
  const dois = demoArticles.map((a) => demoDoi(journal, a));
  const present = new Set(
    (
      await db
        .select({ doi: articles.doi })
        .from(articles)
        .where(
          inArray(
            sql`lower(${articles.doi})`,
            dois.map((d) => d.toLowerCase()),
          ),
        )
    ).map((r) => r.doi?.toLowerCase()),
  );

  let added = 0;
  let firstPage = 1;
  for (const [i, article] of demoArticles.entries()) {
    const doi = dois[i];
    // Every PDF is typeset, even for articles already stored, so page ranges stay continuous.
    const pdf = await articlePdf({
      journal,
      article,
      volume: { number: demoVolume.volumeNumber, year: demoVolume.year },
      issue: { number: demoIssue.issueNumber },
      firstPage,
      doi,
    });
    const lastPage = firstPage + pdf.pageCount - 1;
    if (!present.has(doi.toLowerCase())) {
      const upload: CheckedUpload = {
        field: 'pdf',
        filename: `${doi.split('/')[1].replaceAll('.', '-')}.pdf`,
        data: Buffer.from(pdf.bytes),
        kind: 'pdf',
        mediaType: 'application/pdf',
      };
      try {
        await services.files.withStoredFiles([upload], async (tx, [file]) => {
          const articleId = await services.catalog.insertArticle(tx, null, {
            issueId,
            title: article.title,
            abstract: article.abstract,
            keywords: article.keywords,
            firstPage,
            lastPage,
            doi,
            articleType: article.articleType,
            publicationDate: article.publicationDate,
            authors: article.authors.map((a) => ({
              name: a.name,
              email: a.email,
              affiliation: a.affiliation,
              superscript: a.superscript,
              orcid: a.orcid ?? null,
            })),
            file,
          });
          // Its full text is made once the site listens (demo-fulltext.ts), by a job of this transaction.
          await enqueueDemoFullText(services.jobs, tx, { articleId, demo: i, doi });
        });
        added++;
      } catch (err) {
        // A concurrent first run stored it a moment ago.
        if (!isUniqueViolation(err)) throw err;
      }
    }
    firstPage = lastPage + 1;
  }

  await services.settings.set(db, DEMO_MARKER_KEY, {
    ...marker,
    state: 'done',
    at: new Date().toISOString(),
  });
  if (added) log.info({ articles: added }, 'Demo content seeded: Volume 1, Issue 1');
  return { added };
}
