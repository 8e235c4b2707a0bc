import path from 'node:path';
import { MESSAGES } from '../common/messages.ts';
import { LoginThrottle } from './accounts/login-throttle.ts';
import { MyAccountService } from './accounts/my-account.ts';
import { PasswordResetService } from './accounts/password-reset.ts';
import { PendingDigest } from './accounts/pending-digest.ts';
import { AccountsService } from './accounts/service.ts';
import { ApcService } from './apc/service.ts';
import { AuditService } from './audit/service.ts';
import { ChangeFeed } from './cache/changes.ts';
import { EventBus } from './events/bus.ts';
import { followEvents } from './events/followers.ts';
import { ResponseCache } from './cache/response-cache.ts';
import { CitationService } from './catalog/citation.ts';
import { CatalogService } from './catalog/service.ts';
import { type Config, publicUrl } from './config.ts';
import { ContactService } from './contact/service.ts';
import { ContentService } from './content/service.ts';
import type { Database } from './db/client.ts';
import { type Clock, systemClock } from './clock.ts';
import type { BlobStore } from './files/blob-store.ts';
import { FileService } from './files/service.ts';
import { configuredKind, localBlobStore } from './files/stores.ts';
import { WorkReader } from './discovery/works.ts';
import { DoiService } from './doi/service.ts';
import { FullTextService } from './fulltext/service.ts';
import { defineDemoFullTextJob } from './seed/demo-fulltext.ts';
import { Drain } from './http/health.ts';
import { type AttemptStore, MemoryAttemptStore, RateLimiter } from './counters/attempts.ts';
import { DbAttemptStore, defineCounterPruning } from './counters/store.ts';
import { JobQueue } from './jobs/queue.ts';
import { type Mailer, createMailer } from './mail/mailer.ts';
import { MailService } from './mail/service.ts';
import { officeAddress } from './mail/office.ts';
import { MetricsService } from './metrics/service.ts';
import { SearchService } from './search/service.ts';
import { ReviewService } from './review/service.ts';
import { SettingsService } from './settings/service.ts';
import { JOURNALS, SITE, splitTag } from './cache/dependencies.ts';
import { JournalDirectory } from './journals/directory.ts';
import { currentJournalId, FIRST_JOURNAL } from './db/scope.ts';
import { JournalsService } from './journals/service.ts';
import { SimilarityService } from './similarity/service.ts';
import { SubmissionsService } from './submissions/service.ts';
import { SubscriptionsService } from './subscriptions/service.ts';
import { ImportIntake } from './ojs/intake.ts';
import { OjsService } from './ojs/service.ts';
import { PreservationService } from './preservation/service.ts';
import { OjsExportService } from './ojs/export/service.ts';

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** Changed names with `*:name` (named in the site's scope) spelled out for each journal of the site. */
function everyJournals(changed: ReadonlySet<string>, journals: JournalDirectory): string[] {
  const names: string[] = [];
  for (const tag of changed) {
    if (!tag.startsWith('*:')) names.push(tag);
    else for (const journal of journals.list()) names.push(`j${journal.id}${tag.slice(1)}`);
  }
  return names;
}

/** Every service, wired once: the composition root passes this to the API and to the pages. */
export function createServices(
  config: Config,
  database: Database,
  log: Logger,
  overrides: { blobs?: BlobStore; mailer?: Mailer; clock?: Clock } = {},
) {
  const db = database.db;
  const clock = overrides.clock ?? systemClock;
  const baseUrl = publicUrl(config);
  // What every process keeps in memory follows the changes committed by any of them (decision 0031).
  const changes = new ChangeFeed({ db, log, listen: database.listen?.bind(database) });
  // Background work: durable jobs in the database, run by any server process (decision 0022); a job, like a
  // request, reads what this process keeps only after the changes committed before it are applied.
  // The journals of the site and their addresses, kept in memory (decision 0053).
  const journals = new JournalDirectory(db, baseUrl);
  const jobs = new JobQueue(db, {
    clock,
    log,
    listen: database.listen,
    beforeRun: () => changes.sync(),
    // A journal's recurring passes run for every journal not archived (decision 0058); before the journals
    // are read, for the first.
    journals: () => {
      const all = journals.list();
      return all.length ? all.filter((j) => j.status !== 'archived').map((j) => j.id) : [FIRST_JOURNAL];
    },
  });
  // The outbox: events written in the change's transaction, delivered to their followers as jobs (0031).
  const events = new EventBus(jobs);
  const mailer =
    overrides.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log,
    });
  // Rate limits, sign-in, reset and address-change counters (decision 0030): in the database on PostgreSQL,
  // where any number of processes share them; in this process's memory on PGlite (one process per folder).
  const counters = database.kind === 'postgres' ? new DbAttemptStore(db) : null;
  if (counters) defineCounterPruning(jobs, counters, clock);
  const attempts: AttemptStore = counters ?? new MemoryAttemptStore();
  // Every e-mail goes through it: queued as a job, retried, logged (a submission's communication log).
  const mail = new MailService(db, {
    transport: mailer,
    jobs,
    clock,
    secret: config.sessionSecret,
    domain: new URL(baseUrl).hostname,
    log,
    // At most MAIL_LIMIT_RECIPIENT e-mails to one person, counted across processes (decision 0038).
    recipients: {
      counters: attempts,
      limit: config.MAIL_LIMIT_RECIPIENT,
      exempt: [config.MAIL_FROM, config.EDITORIAL_EMAIL],
    },
  });
  /** The address of the journal the work at hand is for (the site's in the site's scope): links, e-mails. */
  const journalUrl = () => {
    const id = currentJournalId();
    return id === null ? baseUrl : journals.baseUrl(id);
  };
  changes.follow((changed) => {
    if (changed === 'all' || changed.has(JOURNALS))
      journals.load().catch((err) => log.error({ err }, 'reading the journals failed'));
  });
  const settings = new SettingsService(db);
  changes.follow((changed) => {
    if (changed === 'all') return settings.forget();
    for (const tag of changed) {
      const { journal, name } = splitTag(tag);
      if (name === SITE) settings.forget(typeof journal === 'number' ? journal : undefined);
    }
  });
  const journalName = async () => (await settings.journal()).name;
  // Each journal's office notices go to its own office, never the installation's for another (decision 0060).
  const officeEmail = officeAddress({
    editorialEmail: config.EDITORIAL_EMAIL,
    journalEmail: async () => (await settings.journal()).email,
  });
  const audit = new AuditService(db);
  // The object store is opened (and checked) by whoever starts the process: openBlobStore, files/stores.ts.
  if (!overrides.blobs && configuredKind(config) !== 'local')
    throw new Error('createServices: pass the opened object store');
  const files = new FileService(db, overrides.blobs ?? localBlobStore(config, log), { clock, log });
  // A limit is the site's unless said to be each journal's (decision 0058).
  const limiter = (name: string, limit: Config['RATE_LIMIT_LOGIN'], perJournal = false) =>
    new RateLimiter(limit, MESSAGES.tooManyRequests, { store: attempts, name, clock, perJournal });
  const throttle = new LoginThrottle(
    attempts,
    { perAddress: config.RATE_LIMIT_LOGIN, perAccount: config.RATE_LIMIT_LOGIN_USER },
    clock,
  );
  const accounts = new AccountsService(db, {
    secret: config.sessionSecret,
    sessionTtlSeconds: config.SESSION_TTL,
    audit,
    mail,
    journalName,
    publicUrl: journalUrl,
    clock,
    throttle,
    limits: { register: limiter('register', config.RATE_LIMIT_REGISTER) },
  });
  // Rendered pages and public JSON, dropped when what they show changes (decision 0018).
  const cache = new ResponseCache({ clock, maxBytes: config.PAGE_CACHE_SIZE, maxAgeMs: 10 * 60_000 });
  // A name changed in the site's scope (`*:…`) is every journal's.
  changes.follow((changed) =>
    changed === 'all' ? cache.clear() : cache.invalidate(everyJournals(changed, journals)),
  );
  const similarity = new SimilarityService(db, {
    files,
    log,
    changes,
    jobs,
    options: { background: config.SIMILARITY_BACKGROUND, grammar: config.SIMILARITY_GRAMMAR },
    // A report names a published source of another journal of the site (decision 0058).
    journal: (id) => {
      const j = journals.get(id);
      return j && { title: j.title, url: journals.baseUrl(j) };
    },
  });
  // DOIs that register themselves: the pattern, Crossref and DOAJ deposits by jobs (decision 0064).
  const doi = new DoiService(db, {
    jobs,
    clock,
    settings,
    works: new WorkReader(db, journalUrl),
    audit,
    log,
    timeoutMs: config.DEPOSIT_TIMEOUT * 1000,
    loopbackOnly: config.DEPOSIT_LOOPBACK_ONLY,
  });
  followEvents(events, { similarity, doi });
  const catalog = new CatalogService(db, {
    files,
    audit,
    baseUrl: journalUrl,
    similarity,
    changes,
    events,
    doi,
    clock,
  });
  const submissions = new SubmissionsService(db, {
    files,
    audit,
    mail,
    officeEmail,
    journalName,
    copyrightFormRequired: async () => (await settings.journal()).copyrightFormRequired,
    acceptsSubmissions: () =>
      (journals.get(currentJournalId() ?? FIRST_JOURNAL)?.status ?? 'open') === 'open',
    publicUrl: journalUrl,
    events,
  });
  const review = new ReviewService(db, {
    clock,
    settings,
    audit,
    files,
    secret: config.sessionSecret,
    publicUrl: journalUrl,
    officeEmail,
    mail,
    jobs,
    changes,
  });
  submissions.reviewHooks = review;
  // The article processing charge (decision 0063): invoices made in the acceptance's transaction.
  const apc = new ApcService(db, {
    clock,
    settings,
    mail,
    audit,
    officeEmail,
    publicUrl: journalUrl,
    changes,
  });
  submissions.apcHooks = apc;
  // Full text from the final Word file: HTML and JATS (issue 16, decision 0028).
  const fulltext = new FullTextService(db, {
    files,
    audit,
    settings,
    works: new WorkReader(db, journalUrl),
    baseUrl: journalUrl,
    changes,
    events,
  });
  defineDemoFullTextJob(jobs, fulltext);
  // LOCKSS/CLOCKSS manifests, the crawlers' addresses, each issue's BagIt package (decision 0065).
  const preservation = new PreservationService(db, {
    settings,
    files,
    fulltext,
    audit,
    jobs,
    clock,
    changes,
    journalUrl,
  });
  // Moving out: OJS Native XML, Users XML and a JATS folder of the journal in scope (decision 0068).
  const ojsExport = new OjsExportService(db, { files, fulltext, settings, clock });
  // Moving in from OJS: an import run by a job, in the journal's scope (issue 26, decision 0066).
  const ojs = new OjsService(db, { catalog, files, jobs, clock, changes, dataDir: config.dataDir });
  const journalAdmin = new JournalsService(db, {
    settings,
    audit,
    changes,
    directory: journals,
    editorialEmail: config.EDITORIAL_EMAIL,
    siteUrl: baseUrl,
    clock,
  });
  return {
    config,
    clock,
    /** Draining after SIGTERM, and the requests being answered (server/http/health.ts). */
    drain: new Drain(),
    cache,
    changes,
    events,
    database,
    db,
    log,
    jobs,
    mail,
    /** The transport (SMTP or the outbox): services send through `mail`; closed at shutdown. */
    mailer,
    /** The site's own address (PUBLIC_URL). */
    baseUrl,
    journalUrl,
    journals,
    /** The site admin's journals: made, closed, archived, moved (decision 0055). */
    journalAdmin,
    settings,
    audit,
    files,
    accounts,
    /** Where the attempt counters live (the database's on PostgreSQL). */
    attempts,
    passwordReset: new PasswordResetService(db, {
      clock,
      mail,
      journalName,
      publicUrl: journalUrl,
      store: attempts,
      perAddress: config.RATE_LIMIT_PASSWORD_RESET,
      jobs,
    }),
    myAccount: new MyAccountService(db, {
      clock,
      mail,
      journalName,
      publicUrl: journalUrl,
      throttle,
      store: attempts,
    }),
    pendingDigest: new PendingDigest(db, {
      clock,
      mail,
      jobs,
      settings,
      publicUrl: journalUrl,
      log,
    }),
    catalog,
    submissions,
    review,
    apc,
    fulltext,
    preservation,
    ojsExport,
    /** Imports from OJS: runs, their progress and reports (decision 0066). */
    ojs,
    /** The site admin's OJS imports, from the upload's side: its folder, its checks, the journal (decision 0069). */
    ojsImports: new ImportIntake({ ojs, journalAdmin, dataDir: config.dataDir, clock }),
    /** DOI registration with Crossref and DOAJ (decision 0064). */
    doi,
    contact: new ContactService(db, {
      mail,
      officeEmail,
      limiter: limiter('contact', config.RATE_LIMIT_CONTACT, true),
      journalName,
      audit,
    }),
    subscriptions: new SubscriptionsService(db, {
      mail,
      jobs,
      audit,
      catalog,
      journalName,
      publicUrl: journalUrl,
      log,
    }),
    content: new ContentService(settings, { db, audit, changes, files }),
    similarity,
    citations: new CitationService(),
    metrics: new MetricsService(db, { log, clock }),
    search: new SearchService(db, { baseUrl: journalUrl }),
    plagiarismLimiter: limiter('plagiarism', config.RATE_LIMIT_PLAGIARISM, true),
  };
}

export type Services = ReturnType<typeof createServices>;
