import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerBuild } from 'react-router';
import { loadProductionBuild } from '../../server/http/ssr.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { FuzzLog, ODD_BODIES, ODD_IDS, ODD_STRINGS, multipartOf } from '../fuzz/values.ts';

/**
 * Every page action of the production build, and every page's loader, tried with odd inputs: bodies of the
 * wrong type, odd text in each field the page's own forms have (read from the page's HTML) for each button
 * (`intent`), odd ids and query strings; signed out, as an author and as the admin. Nothing may answer 5xx.
 */
let t: TestContext;
let build: ServerBuild;
const log = new FuzzLog();
const HOST = 'journal.test';
const ORIGIN = `http://${HOST}`;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  build = await loadProductionBuild();
  t = await createTestContext({}, { demo: true, pages: true });
  const author = await t.createUser({ role: 'author', status: 'approved' });
  cookies.anonymous = '';
  cookies.author = `colophon_session=${await t.login(author.username, author.password)}`;
  cookies.admin = `colophon_session=${await t.login('admin', 'admin-pass-123')}`;
}, 120_000);
afterAll(() => t?.close());

/** Each route's address (params filled in), and whether it has an action. */
function pageRoutes(): { id: string; url: string; action: boolean }[] {
  const routes = build.routes as Record<
    string,
    { parentId?: string; path?: string; index?: boolean; module: { action?: unknown } }
  >;
  const full = (id: string): string => {
    const r = routes[id];
    const own = r.path ?? '';
    const parent = r.parentId ? full(r.parentId) : '';
    return [parent, own].filter(Boolean).join('/');
  };
  const params: Record<string, string> = { id: '1', slug: 'about', file: 'template.docx' };
  return Object.entries(routes)
    .filter(([id]) => id !== 'root')
    .map(([id, r]) => {
      let url = `/${full(id)}`
        .replace(/:(\w+)/g, (_, p: string) => params[p] ?? '1')
        .replace('/*', '/no-such-page');
      if (r.index && r.parentId !== 'root') url += '?index';
      return { id, url, action: Boolean(r.module.action) };
    });
}

async function send(
  who: string,
  what: string,
  method: 'GET' | 'POST',
  url: string,
  body?: { type?: string; body: string | Buffer },
) {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      host: HOST,
      ...(method === 'POST' ? { origin: ORIGIN } : {}),
      ...(cookies[who] ? { cookie: cookies[who] } : {}),
      ...(body?.type ? { 'content-type': body.type } : {}),
    },
    ...(body ? { payload: body.body } : {}),
  });
  log.record(`${who} ${method} ${url.slice(0, 100)}: ${what}`, res.statusCode, res.body);
  return res;
}

/** The fields and the buttons of the page's post forms, as its HTML has them. */
function formsOf(html: string): { fields: string[]; intents: string[]; files: string[] } {
  const fields = new Set<string>();
  const files = new Set<string>();
  const intents = new Set<string>();
  for (const m of html.matchAll(/<(input|textarea|select|button)\b([^>]*)>/g)) {
    const attrs = m[2];
    const name = /\bname="([^"]+)"/.exec(attrs)?.[1];
    if (!name) continue;
    const value = /\bvalue="([^"]*)"/.exec(attrs)?.[1];
    if (name === 'intent' && value !== undefined) intents.add(value);
    else if (/\btype="file"/.test(attrs)) files.add(name);
    else fields.add(name);
  }
  return { fields: [...fields], intents: [...intents], files: [...files] };
}

const FEW_STRINGS = ODD_STRINGS.filter(([label]) =>
  [
    'empty',
    'NUL',
    'lone high surrogate',
    'huge',
    'right-to-left override',
    'html',
    'long line of digits',
  ].includes(label),
);
const urlencoded = (values: Record<string, string>) => ({
  type: 'application/x-www-form-urlencoded',
  body: new URLSearchParams(values).toString(),
});
const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');

describe('fuzzing every page', () => {
  it('never answers 5xx, signed out, as an author or as the admin', async () => {
    const routes = pageRoutes();
    expect(routes.filter((r) => r.action).length).toBeGreaterThan(15);
    for (const who of ['anonymous', 'author', 'admin']) {
      for (const route of routes) {
        const page = await send(who, 'the page', 'GET', route.url);
        // Loaders with odd query strings.
        const sep = route.url.includes('?') ? '&' : '?';
        for (const [label, id] of ODD_IDS) {
          await send(
            who,
            `query ids ${label}`,
            'GET',
            `${route.url}${sep}page=${id}&edit=${id}&id=${id}&fileId=${id}`,
          );
        }
        await send(who, 'query NUL', 'GET', `${route.url}${sep}q=%00&type=%00&role=%00`);
        await send(who, 'query repeated', 'GET', `${route.url}${sep}q=a&q=b&page=1&page=2`);
        if (!route.action) continue;

        for (const [label, body] of ODD_BODIES) await send(who, `body ${label}`, 'POST', route.url, body);
        const { fields, intents, files } = formsOf(page.body);
        const plausible = Object.fromEntries(fields.map((f) => [f, /id$|count$/i.test(f) ? '1' : 'x']));
        for (const intent of intents.length ? intents : ['']) {
          const base = { ...plausible, ...(intent ? { intent } : {}) };
          await send(who, `intent ${intent}`, 'POST', route.url, urlencoded(base));
          for (const field of fields) {
            for (const [label, text] of FEW_STRINGS) {
              await send(
                who,
                `intent ${intent} ${field}=${label}`,
                'POST',
                route.url,
                urlencoded({ ...base, [field]: text }),
              );
            }
            if (/id$|count$/i.test(field)) {
              for (const [label, id] of ODD_IDS) {
                await send(
                  who,
                  `intent ${intent} ${field}=${label}`,
                  'POST',
                  route.url,
                  urlencoded({ ...base, [field]: id }),
                );
              }
            }
          }
          if (files.length) {
            const parts = Object.entries(base) as [string, string][];
            const twice = await multipartOf([
              ...parts,
              ...files.flatMap((f): [string, { name: string; data: Uint8Array }][] => [
                [f, { name: 'a.pdf', data: PDF }],
                [f, { name: 'b.pdf', data: PDF }],
              ]),
            ]);
            await send(who, `intent ${intent} files twice`, 'POST', route.url, twice);
            const odd = await multipartOf([
              ...parts,
              ...files.map((f): [string, { name: string; data: Uint8Array }] => [
                f,
                { name: 'x\u202e\u0000.pdf', data: PDF },
              ]),
            ]);
            await send(who, `intent ${intent} odd file names`, 'POST', route.url, odd);
          }
        }
      }
    }
    console.log(`Page fuzz: ${log.summary()}`);
    expect(log.failures, log.summary()).toEqual([]);
  }, 900_000);
});
