/**
 * The journals server's data folder before its first start (playwright.config.ts, `E2E_SETUP`): the first
 * journal moved to `/first` (so the site's root is the site's home, with an old path `/old-first`), a second
 * journal at `/second`, a third on its own domain `journal-c.test`, a fourth on `journal-d.test`, and an archived one. Rows and settings are
 * written as the journal-creation service will write them (decision 0056).
 */
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { journalSettingsSchema } from '../../common/journal.ts';
import { journalDefaults } from '../../content/journal.ts';
import { journalMemberships, users } from '../../server/accounts/tables.ts';
import { seedContent } from '../../server/content/seed.ts';
import { asSite, withJournal } from '../../server/db/scope.ts';
import { openBlobStore } from '../../server/files/stores.ts';
import { journalAliases, journals } from '../../server/journals/tables.ts';
import { openRuntime } from '../../server/lifecycle.ts';
import { seed } from '../../server/seed/seed.ts';
import { createServices } from '../../server/services.ts';
import { JOURNAL_KEY } from '../../server/settings/service.ts';

const { config, lock, database } = await openRuntime('e2e journals set-up');
const log = pino({ level: 'warn' });
const services = createServices({ ...config, SIMILARITY_BACKGROUND: false }, database, log, {
  blobs: await openBlobStore(config, log),
});
try {
  await seed(services, { demo: config.SEED_DEMO });
  const { db } = services;
  await db.update(journals).set({ path: 'first' }).where(eq(journals.id, 1));
  const [admin] = await asSite(() =>
    db.select({ id: users.id }).from(users).where(eq(users.username, config.ADMIN_USERNAME!)),
  );
  const make = async (row: { title: string; path?: string; domain?: string; status?: 'archived' }) => {
    const [made] = await db.insert(journals).values(row).returning({ id: journals.id });
    const settings = journalSettingsSchema.parse({
      ...journalDefaults({ email: 'office@example.org' }),
      name: row.title,
      issnOnline: '2049-3630',
      description: `${row.title} publishes peer-reviewed research, open to every reader.`,
    });
    await withJournal(made.id, async () => {
      await services.settings.setDefault(db, JOURNAL_KEY, settings);
      await seedContent(services.settings, db);
      // The site's admin runs each journal too, as the first journal's (roles are each journal's, decision
      // 0054): it makes each journal's editors in tests/e2e/journals-roles.spec.ts.
      await db.insert(journalMemberships).values({ userId: admin.id, role: 'admin', status: 'approved' });
    });
    return made.id;
  };
  await make({ title: 'Second Studies', path: 'second' });
  await make({ title: 'Gamma Review', domain: 'journal-c.test' });
  await make({ title: 'Delta Letters', domain: 'journal-d.test' });
  await make({ title: 'Old Archive', path: 'archive', status: 'archived' });
  await db.insert(journalAliases).values({ journalId: 1, kind: 'path', value: 'old-first' });
} finally {
  await database.close();
  lock.release();
}
process.exit(0);
