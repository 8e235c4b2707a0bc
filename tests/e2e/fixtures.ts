import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
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
  /**
   * Full-page screenshots at 1280 and 390 px wide into test-results/screenshots/{name}-{width}.png (none
   * under CI unless E2E_SCREENSHOTS=on).
   */
  screenshots: (page: Page, name: string) => Promise<void>;
  /** The e-mails the test's server (`baseURL`) has written to its outbox (`DATA_DIR/outbox/*.eml`). */
  outbox: Outbox;
  /**
   * Automatic: fails the test if any of its pages (in `context`, `noJsPage`, or any context the test makes with
   * `browser.newContext()`) reported a Content-Security-Policy violation, as a `securitypolicyviolation`
   * event or a console message. Lists what was refused, where.
   */
  cspGuard: undefined;
}

/** One e-mail from a server's outbox, decoded. */
export interface SentMail {
  file: string;
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  /** The plain-text part. */
  text: string;
}

export interface Outbox {
  /** Every e-mail written so far, oldest first. */
  all: () => SentMail[];
  /**
   * Waits (polling, up to `timeout` ms) for an e-mail to `to` whose subject contains (or matches) `subject`,
   * and returns it; fails the test with the e-mails seen when none comes.
   */
  waitFor: (match: { to?: string; subject?: string | RegExp }, timeout?: number) => Promise<SentMail>;
}

/**
 * Where tests/e2e/serve.mjs writes down the data folder of the server on `port` while it runs (the same
 * formula as there).
 */
const dataDirPointer = (port: string) => path.join(os.tmpdir(), `colophon-e2e-port-${port}.datadir`);

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, charset: string, enc: string, text: string) => {
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
              'latin1',
            );
      return bytes.toString(/utf-?8/i.test(charset) ? 'utf8' : 'latin1');
    });
}

function decodeBody(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) {
    const soft = body.replace(/=\r?\n/g, '');
    return Buffer.from(
      soft.replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  }
  return body;
}

/** Headers (unfolded, lower-case names) and body of one MIME entity. */
function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const normal = raw.replace(/\r\n/g, '\n');
  const at = normal.indexOf('\n\n');
  const head = at === -1 ? normal : normal.slice(0, at);
  const body = at === -1 ? '' : normal.slice(at + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** The text/plain part of an .eml file written by the server's mailer (nodemailer). */
export function parseEml(raw: string, file = ''): SentMail {
  const { headers, body } = splitEntity(raw);
  let text = '';
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    for (const part of body.split(`--${boundary}`)) {
      const entity = splitEntity(part.replace(/^\n/, ''));
      if (/text\/plain/i.test(entity.headers['content-type'] ?? '')) {
        text = decodeBody(entity.body, entity.headers['content-transfer-encoding'] ?? '');
        break;
      }
    }
  } else {
    text = decodeBody(body, headers['content-transfer-encoding'] ?? '');
  }
  return {
    file,
    from: decodeHeader(headers.from ?? ''),
    to: decodeHeader(headers.to ?? ''),
    replyTo: decodeHeader(headers['reply-to'] ?? ''),
    subject: decodeHeader(headers.subject ?? ''),
    text,
  };
}

function outboxOf(baseURL: string): Outbox {
  const port = new URL(baseURL).port;
  const dir = () => {
    let dataDir: string;
    try {
      dataDir = readFileSync(dataDirPointer(port), 'utf8').trim();
    } catch {
      throw new Error(`No data folder is written down for the server on port ${port} (tests/e2e/serve.mjs).`);
    }
    return path.join(dataDir, 'outbox');
  };
  const all = () => {
    const folder = dir();
    let files: string[];
    try {
      files = readdirSync(folder).filter((f) => f.endsWith('.eml'));
    } catch {
      return [];
    }
    return files.sort().map((f) => parseEml(readFileSync(path.join(folder, f), 'utf8'), f));
  };
  const matches = (m: SentMail, match: { to?: string; subject?: string | RegExp }) =>
    (!match.to || m.to.toLowerCase().includes(match.to.toLowerCase())) &&
    (!match.subject ||
      (typeof match.subject === 'string'
        ? m.subject.includes(match.subject)
        : match.subject.test(m.subject)));
  return {
    all,
    async waitFor(match, timeout = 10_000) {
      let found: SentMail | undefined;
      await expect
        .poll(
          () => {
            found = all().find((m) => matches(m, match));
            return Boolean(found);
          },
          {
            timeout,
            message: `an e-mail ${JSON.stringify({ ...match, subject: String(match.subject ?? '') })}`,
          },
        )
        .toBe(true);
      return found!;
    },
  };
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

/** A console message Chromium writes when the page's policy refused something. */
const CSP_MESSAGE = /Content[- ]Security[- ]Policy/i;

/**
 * Collects the CSP violations of every page in `context` into `found`: `securitypolicyviolation` events (the
 * listener is added before any page script runs) and Chromium's console messages about the policy.
 */
async function watchCsp(context: BrowserContext, found: string[]) {
  context.on('console', (message) => {
    if (CSP_MESSAGE.test(message.text())) found.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
  });
  await context.exposeBinding('__cspViolation', ({ page }, text: string) => {
    found.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = (window as unknown as { __cspViolation?: (text: string) => void }).__cspViolation;
        report?.(
          `securitypolicyviolation: ${e.effectiveDirective} refused ${e.blockedURI || '(inline)'}` +
            `${e.sourceFile ? ` at ${e.sourceFile}:${e.lineNumber}` : ''}${e.sample ? ` "${e.sample}"` : ''}`,
        );
      },
      true,
    );
  });
}

/** axe-core's own script, the one @axe-core/playwright sends (found from where that package finds it). */
const AXE_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
    'axe-core/axe.min.js',
  ),
  'utf8',
);
type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/**
 * axe on a page of one frame (every page of ours: the app has no iframes): axe-core is put into the page once
 * per document, then `axe.run` checks it, as AxeBuilder's "legacy mode" does. AxeBuilder's default costs three
 * times as much, and axe was the biggest part of the suite's time (a third of the slowest specs' time, measured
 * from their traces): it sends axe's 580 KB twice per check (the second time into a blank page it opens, to
 * merge the frames' results) and makes that page. A page with frames gets AxeBuilder's own way, which reaches
 * into each of them.
 */
async function runAxe(page: Page, options: AxeOptions): Promise<AxeResults> {
  if (page.frames().length > 1) {
    let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
    for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
    if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
    return builder.analyze();
  }
  const present = await page.evaluate(
    () => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function',
  );
  if (!present) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ({ exclude, tags, disabled }) => {
      const { axe } = window as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> };
      };
      return axe.run(exclude.length ? { exclude: exclude.map((selector) => [selector]) } : document, {
        runOnly: { type: 'tag', values: tags },
        rules: Object.fromEntries(disabled.map((id) => [id, { enabled: false }])),
      });
    },
    { exclude: options.exclude ?? [], tags: AXE_TAGS, disabled: options.disableRules ?? [] },
  );
}

/**
 * Screenshots are for a person to look at (README): a CI run, where no one does, takes none; they were a
 * tenth of the slowest specs' time (two full-page PNGs and two relayouts each, 150 calls). E2E_SCREENSHOTS=on
 * takes them under CI too, =off skips them anywhere.
 */
const TAKE_SCREENSHOTS =
  process.env.E2E_SCREENSHOTS === 'on' ||
  (process.env.E2E_SCREENSHOTS !== 'off' && !(Boolean(process.env.CI) && process.env.CI !== 'false'));

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

/** The page is hydrated: React has claimed the header's links (as security-headers.spec.ts checks). */
export async function hydrated(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const link = document.querySelector('header a[href="/about"]');
        return Boolean(link && Object.keys(link).some((key) => key.startsWith('__reactProps$')));
      }),
    )
    .toBe(true);
}

/** Puts a session token in a browser context as the session cookie of `baseURL`'s host (every path of it). */
export async function addSession(into: BrowserContext, baseURL: string, token: string): Promise<void> {
  const expires = tokenExpiry(token);
  await into.addCookies([
    {
      name: SESSION_COOKIE,
      value: token,
      domain: new URL(baseURL).hostname,
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      ...(expires ? { expires } : {}),
    },
  ]);
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
      await addSession(target ? ('context' in target ? target.context() : target) : context, baseURL!, token);
      return { ...account, token };
    });
  },

  axe: async ({ browser }, use) => {
    await use(async (page, options = {}) => {
      // axe runs inside the page, which a page without JavaScript cannot do: check a copy of its HTML instead.
      const copy = noJsPages.has(page) ? await scriptlessCopy(browser, page) : null;
      const { violations } = await runAxe(copy ?? page, options).finally(() => copy?.context().close());
      const found = violations.map(
        (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
      );
      expect(found, `axe violations on ${page.url()}`).toEqual([]);
    });
  },

  cspGuard: [
    async ({ browser, context }, use) => {
      const found: string[] = [];
      await watchCsp(context, found);
      // Contexts a test (or a fixture such as noJsPage) makes itself are watched too.
      const newContext = browser.newContext;
      browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const made = await newContext.apply(browser, args);
        await watchCsp(made, found);
        return made;
      };
      try {
        await use(undefined);
      } finally {
        browser.newContext = newContext;
      }
      expect(found, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],

  noJsPage: async ({ browser, baseURL, cspGuard }, use) => {
    void cspGuard; // set up first: its context is made through the watched browser.newContext
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    noJsPages.add(page);
    await use(page);
    await context.close();
  },

  outbox: async ({ baseURL }, use) => {
    await use(outboxOf(baseURL!));
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  screenshots: async ({}, use, testInfo) => {
    await use(async (page, name) => {
      if (!TAKE_SCREENSHOTS) return;
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
