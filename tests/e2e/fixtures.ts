import { randomBytes } from 'node:crypto';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
  test as base,
  expect,
  request as playwrightRequest,
} from '@playwright/test';
import { ADMIN } from './env.ts';

export { expect };
export { ADMIN, MAIN_SERVER, SHORT_SESSION_TTL_SECONDS, SHORT_TTL_SERVER } from './env.ts';

export type Role = 'researcher' | 'author' | 'editor' | 'admin';
export type Status = 'pending' | 'approved' | 'rejected' | 'suspended';

export interface Account {
  id: number;
  username: string;
  password: string;
  email: string;
  fullName: string;
  role: Role;
  status: Status;
}

export interface SignedInAccount extends Account {
  /** The session token (also the `colophon_session` cookie); send it as `Authorization: Bearer …`. */
  token: string;
}

/** The session cookie's name (server/accounts/cookie.ts). */
export const SESSION_COOKIE = 'colophon_session';

/** The WCAG tags every page is checked against. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeOptions {
  /** CSS selectors to leave out (say why in the test). */
  exclude?: string[];
  /** axe rule ids to turn off (say why in the test). */
  disableRules?: string[];
}

interface Fixtures {
  /** An account made through the API (registered, then approved or changed by the admin). */
  createAccount: (role?: Role, status?: Status) => Promise<Account>;
  /**
   * `createAccount`, then signs in through the API and puts the token in the browser as the session cookie.
   * The cookie goes into the test's `context` (so `page`), or into `target`'s context when given (e.g. `noJsPage`).
   */
  signIn: (role?: Role, status?: Status, target?: Page | BrowserContext) => Promise<SignedInAccount>;
  /** An API client signed in as the admin, on the test's server (`baseURL`). */
  adminApi: APIRequestContext;
  /** Runs axe (WCAG 2.1 A and AA) on the page as it is now, and fails the test on any violation. */
  axe: (page: Page, options?: AxeOptions) => Promise<void>;
  /** A page in its own context with JavaScript disabled: what a reader without scripts gets. */
  noJsPage: Page;
  /** Full-page screenshots at 1280 and 390 px wide into test-results/screenshots/{name}-{width}.png. */
  screenshots: (page: Page, name: string) => Promise<void>;
}

let counter = 0;
/** Unique across workers and runs: 3-40 characters of [A-Za-z0-9_.-], as the registration form allows. */
function uniqueUsername(role: Role): string {
  counter += 1;
  return `${role.slice(0, 4)}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}${counter}`;
}

async function json<T>(response: import('@playwright/test').APIResponse, what: string): Promise<T> {
  if (!response.ok()) {
    throw new Error(`${what}: HTTP ${response.status()} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/** Seconds since the epoch at which a JWT expires (its `exp` claim), read without verifying. */
function tokenExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    return typeof payload.exp === 'number' ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}

/** Pages made with JavaScript disabled (the `noJsPage` fixture). */
const noJsPages = new WeakSet<Page>();

/**
 * The page's current HTML served at its own address in a page whose scripts are blocked, so axe (which
 * needs JavaScript) sees what a reader without JavaScript sees, styles and all.
 */
async function scriptlessCopy(browser: Browser, page: Page): Promise<Page> {
  const html = await page.content();
  const url = page.url();
  const context = await browser.newContext({ viewport: page.viewportSize() });
  await context.route('**/*', (route) => {
    const req = route.request();
    if (req.resourceType() === 'script') return route.abort();
    if (req.isNavigationRequest() && req.url() === url) {
      return route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' });
    }
    return route.continue();
  });
  const copy = await context.newPage();
  await copy.goto(url);
  return copy;
}

export async function loginThroughApi(baseURL: string, username: string, password: string): Promise<string> {
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const res = await api.post('/api/auth/login', { data: { username, password } });
    return (await json<{ token: string }>(res, `login as ${username}`)).token;
  } finally {
    await api.dispose();
  }
}

export const test = base.extend<Fixtures>({
  adminApi: async ({ baseURL }, use) => {
    const token = await loginThroughApi(baseURL!, ADMIN.username, ADMIN.password);
    const api = await playwrightRequest.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    });
    await use(api);
    await api.dispose();
  },

  createAccount: async ({ adminApi, request }, use) => {
    await use(async (role = 'researcher', status = 'approved') => {
      const username = uniqueUsername(role);
      const account: Account = {
        id: 0,
        username,
        password: `pw-${randomBytes(8).toString('hex')}`,
        email: `${username}@example.org`,
        fullName: `Test ${role[0].toUpperCase()}${role.slice(1)}`,
        role,
        status,
      };
      const registeredAs = role === 'author' ? 'author' : 'researcher';
      await json(
        await request.post('/api/auth/register', {
          data: {
            username,
            password: account.password,
            email: account.email,
            fullName: account.fullName,
            contactNumber: '+91 44 1234 5678',
            institution: 'Test Institute of Technology',
            role: registeredAs,
          },
        }),
        `register ${username}`,
      );
      const found = await json<{ users: { id: number; username: string }[] }>(
        await adminApi.get('/api/admin/users', { params: { q: username } }),
        `find ${username}`,
      );
      const id = found.users.find((u) => u.username === username)?.id;
      if (!id) throw new Error(`registered ${username} but the admin cannot find it`);
      account.id = id;

      if (role === registeredAs && status === 'approved') {
        await json(await adminApi.post(`/api/editor/approve-user/${id}`), `approve ${username}`);
      } else if (role !== registeredAs || status !== 'pending') {
        await json(
          await adminApi.patch(`/api/admin/users/${id}`, {
            data: { ...(role !== registeredAs ? { role } : {}), status },
          }),
          `make ${username} ${role}/${status}`,
        );
      }
      return account;
    });
  },

  signIn: async ({ createAccount, context, baseURL }, use) => {
    await use(async (role = 'researcher', status = 'approved', target) => {
      const account = await createAccount(role, status);
      const token = await loginThroughApi(baseURL!, account.username, account.password);
      const into = target ? ('context' in target ? target.context() : target) : context;
      const expires = tokenExpiry(token);
      await into.addCookies([
        {
          name: SESSION_COOKIE,
          value: token,
          domain: new URL(baseURL!).hostname,
          path: '/',
          httpOnly: true,
          sameSite: 'Lax',
          ...(expires ? { expires } : {}),
        },
      ]);
      return { ...account, token };
    });
  },

  axe: async ({ browser }, use) => {
    await use(async (page, options = {}) => {
      // axe runs inside the page, which a page without JavaScript cannot do: check a copy of its HTML instead.
      const copy = noJsPages.has(page) ? await scriptlessCopy(browser, page) : null;
      let builder = new AxeBuilder({ page: copy ?? page }).withTags(AXE_TAGS);
      for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
      if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
      const { violations } = await builder.analyze().finally(() => copy?.context().close());
      const found = violations.map(
        (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
      );
      expect(found, `axe violations on ${page.url()}`).toEqual([]);
    });
  },

  noJsPage: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    noJsPages.add(page);
    await use(page);
    await context.close();
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  screenshots: async ({}, use, testInfo) => {
    await use(async (page, name) => {
      const original = page.viewportSize();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.screenshot({
          path: path.join(testInfo.project.outputDir, 'screenshots', `${name}-${width}.png`),
          fullPage: true,
        });
      }
      if (original) await page.setViewportSize(original);
    });
  },
});
