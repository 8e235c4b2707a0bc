import { defineConfig, devices } from '@playwright/test';
import {
  CHROMIUM_ARGS,
  E2E_CHROMIUM_PATH,
  JOURNAL_C_HOST,
  JOURNAL_D_HOST,
  JOURNALS_SERVER,
  MAIN_SERVER,
  SERVER_ENV,
  SHORT_SESSION_TTL_SECONDS,
  SHORT_TTL_SERVER,
} from './tests/e2e/env.ts';

/**
 * Browser tests: Debian's Chromium (never `npx playwright install`) against the production build, started
 * by `tests/e2e/serve.mjs` on a fresh temporary data folder per run. Run `npm run build` first (start.mjs
 * rebuilds a stale build itself, but that costs the first server's start-up time). See tests/e2e/README.md.
 */
const ci = Boolean(process.env.CI) && process.env.CI !== 'false';

function server(target: { port: number; url: string }, env: Record<string, string> = {}) {
  return {
    command: 'node tests/e2e/serve.mjs',
    url: `${target.url}/login`,
    reuseExistingServer: false,
    // The first start may rebuild the site, and it seeds the demo PDFs.
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    // SIGTERM to the whole process group: the server closes its database, serve.mjs removes the folder.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 20_000 },
    env: {
      ...SERVER_ENV,
      ...env,
      PORT: String(target.port),
      PUBLIC_URL: target.url,
      E2E_PARENT_PID: String(process.pid),
    },
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: ci,
  // Two cores: the servers and the browsers share them.
  workers: 2,
  // One retry in CI, never silent: scripts/test-all.sh names every test that needed it ("flaky: …"). 0 once
  // the summaries say "flaky: none" (decision 0048).
  retries: ci ? 1 : 0,
  timeout: 60_000,
  // A guard against a hang, not a budget (each test has its own timeout): the suite takes about 6.5 minutes on
  // a quiet 2-core machine at 267 tests, and CI's machines have run it two and a half times slower.
  globalTimeout: ci ? 40 * 60_000 : 0,
  expect: { timeout: 10_000 },
  // `scripts/test-all.sh` overrides this with `--reporter=list,json` and PLAYWRIGHT_JSON_OUTPUT_NAME.
  reporter: [['list']],
  use: {
    baseURL: MAIN_SERVER.url,
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: E2E_CHROMIUM_PATH,
      // Two journals on their own domains, served by the journals server on this machine (one MAP rule per host).
      args: [
        ...CHROMIUM_ARGS,
        `--host-resolver-rules=${[JOURNAL_C_HOST, JOURNAL_D_HOST].map((host) => `MAP ${host} 127.0.0.1`).join(',')}`,
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  // Started one after the other: if the build is stale, the first rebuilds it and the second finds it fresh.
  webServer: [
    server(MAIN_SERVER),
    server(SHORT_TTL_SERVER, { SESSION_TTL: `${SHORT_SESSION_TTL_SECONDS}s` }),
    // Several journals by path and by domain, and the site's home (tests/e2e/journals-addresses.spec.ts).
    {
      ...server(JOURNALS_SERVER, { E2E_SETUP: 'tests/e2e/journals-setup.ts' }),
      url: `${JOURNALS_SERVER.url}/first/login`,
    },
  ],
});
