import { existsSync } from 'node:fs';

/**
 * The servers the e2e suite runs against (started by playwright.config.ts's webServer entries), and the
 * admin account each one creates on first start. Shared by the config, the fixtures and the benches.
 */
export const ADMIN = { username: 'admin', password: 'e2e-admin-password-2025' } as const;

/**
 * Fixed ports, so PUBLIC_URL is known before start. Two runs at once on one machine (another worktree)
 * need another pair: `E2E_PORT=4320 npx playwright test` uses 4320 and 4321.
 */
const BASE_PORT = Number(process.env.E2E_PORT) || 4310;
const at = (port: number) => ({ port, url: `http://127.0.0.1:${port}` }) as const;

/** The production build on a fresh data folder, demo volume seeded, rate limits off. Most specs use this. */
export const MAIN_SERVER = at(BASE_PORT);

/** The same with sign-ins that last SHORT_SESSION_TTL_SECONDS: only for session-expiry tests. */
export const SHORT_TTL_SERVER = at(BASE_PORT + 1);
export const SHORT_SESSION_TTL_SECONDS = 20;

/**
 * Several journals on one server (tests/e2e/journals-setup.ts): the first at `/first`, one at `/second`, one on
 * its own domain (JOURNAL_C_HOST, resolved to 127.0.0.1 by Chromium's --host-resolver-rules), the site's home
 * at `/`, and a fourth on another domain (JOURNAL_D_HOST). For tests/e2e/journals-addresses.spec.ts and
 * tests/e2e/journals-roles.spec.ts.
 */
export const JOURNALS_SERVER = at(BASE_PORT + 2);
export const JOURNAL_C_HOST = 'journal-c.test';
/** A second journal on its own domain (tests/e2e/journals-roles.spec.ts: one sign-in per domain). */
export const JOURNAL_D_HOST = 'journal-d.test';

/** What every test server gets in its environment, besides PORT and PUBLIC_URL. */
export const SERVER_ENV = {
  HOST: '127.0.0.1',
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  SEED_DEMO: 'true',
  RATE_LIMIT_LOGIN: 'off',
  RATE_LIMIT_LOGIN_USER: 'off',
  RATE_LIMIT_REGISTER: 'off',
  RATE_LIMIT_PASSWORD_RESET: 'off',
  RATE_LIMIT_CONTACT: 'off',
  RATE_LIMIT_PLAGIARISM: 'off',
  LOG_LEVEL: 'warn',
  // DOI deposits (decision 0064) reach only a spec's fake Crossref on loopback, never the internet.
  DEPOSIT_LOOPBACK_ONLY: 'true',
  NODE_ENV: 'production',
  // Never a developer's or CI's own database, mail server or secret: the data folder holds everything.
  DATABASE_URL: '',
  SMTP_URL: '',
  SESSION_SECRET: '',
  SESSION_TTL: '8h',
} as const;

/** Debian's Chromium (apt-get install -y chromium), with the flags measured to work on these machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What the browser tests run: Debian's Chromium headless shell when it is installed (apt-get install -y
 * chromium-headless-shell; scripts/test-all.sh installs it), else the full browser above. The shell is the
 * same Chromium engine without the browser's own UI processes, and the build Playwright itself runs for
 * headless tests; measured on a quiet 2-core machine, the whole suite in 6.5 min instead of 9.9. The benches
 * (Lighthouse) keep the full browser. CHROMIUM_PATH overrides both.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const E2E_CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
