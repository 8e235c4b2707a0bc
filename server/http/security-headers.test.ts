import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DENIED_FEATURES,
  MINIMAL_CSP,
  PERMISSIONS_POLICY,
  PRIVATE_NO_STORE,
  cspHash,
  hasCredentials,
  isAccountPage,
  pageCsp,
  securityHeaders,
  staticDocumentCsp,
} from './security-headers.ts';

/** A policy as a map of directive → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

const anonymous = { secure: false, credentials: false };
const json = { contentType: 'application/json; charset=utf-8', hasCsp: false, setsCookie: false };
const html = { contentType: 'text/html; charset=utf-8', hasCsp: false, setsCookie: false };
const page = { nonce: 'bm9uY2Utbm9uY2Utbm9uY2U=', mode: 'production' as const };

describe('pageCsp', () => {
  it('runs scripts only by nonce, with nothing inline, no eval, no plugins, no framing', () => {
    const d = directives(pageCsp('abc+/=='));
    expect(d.get('script-src')).toEqual(["'nonce-abc+/=='", "'strict-dynamic'"]);
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'self'"]);
    expect(d.get('form-action')).toEqual(["'self'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(pageCsp('x')).not.toMatch(/unsafe|\*/);
  });

  it("loosens only styles and Vite's websocket in development", () => {
    const prod = directives(pageCsp('n'));
    const dev = directives(pageCsp('n', 'development'));
    expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev.get('connect-src')).toEqual(["'self'", 'ws:', 'wss:']);
    for (const name of ['script-src', 'object-src', 'frame-ancestors', 'base-uri', 'form-action']) {
      expect(dev.get(name), name).toEqual(prod.get(name));
    }
  });
});

describe('staticDocumentCsp', () => {
  it("allows exactly the given inline styles by hash, and nothing else but the site's images", () => {
    const css = 'body{color:#111}';
    const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    expect(cspHash(css)).toBe(hash);
    const d = directives(staticDocumentCsp([css]));
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('style-src')).toEqual([hash]);
    expect(d.get('img-src')).toEqual(["'self'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.has('script-src')).toBe(false);
  });
});

describe('Permissions-Policy', () => {
  it('denies each feature with an empty allow-list, in the header syntax', () => {
    expect(PERMISSIONS_POLICY).toMatch(/^[a-z-]+=\(\)(, [a-z-]+=\(\))*$/);
    expect(PERMISSIONS_POLICY.split(', ')).toHaveLength(DENIED_FEATURES.length);
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'interest-cohort']) {
      expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
    }
    // Chromium does not know these and logs an error for each: never list them.
    for (const unknown of ['battery', 'ambient-light-sensor', 'document-domain', 'web-share', 'bluetooth']) {
      expect(DENIED_FEATURES as readonly string[]).not.toContain(unknown);
    }
    // The citation "Copy" button writes to the clipboard.
    expect(PERMISSIONS_POLICY).not.toContain('clipboard');
  });
});

describe('isAccountPage', () => {
  it.each([
    '/login',
    '/login/',
    '/LOGIN',
    '/login?redirectTo=%2Fsubmission',
    '/regist',
    '/logout',
    '/account',
    '/account/sessions',
    '/my-submissions',
    '/my-submissions/12',
    '/my-submissions/12.data',
    '/submission',
    '/submission.data',
    '/plagiarism',
    '/editor-dashboard',
    '/editor-dashboard/users',
    '/editor-dashboard/content/about.data',
    '/l%6Fgin',
  ])('%s is an account page', (path) => expect(isAccountPage(path)).toBe(true));

  it.each([
    '/',
    '/home',
    '/article/1',
    '/volumes',
    '/search',
    '/contact',
    '/submissions',
    '/loginx',
    '/about',
    '/%E0%A4%A',
  ])('%s is not', (path) => expect(isAccountPage(path)).toBe(false));
});

describe('hasCredentials', () => {
  it('sees a bearer token or the session cookie, nothing else', () => {
    expect(hasCredentials({ authorization: 'Bearer abc.def.ghi' })).toBe(true);
    expect(hasCredentials({ cookie: 'theme=dark; colophon_session=abc' })).toBe(true);
    expect(hasCredentials({ cookie: 'theme=dark' })).toBe(false);
    expect(hasCredentials({ cookie: 'colophon_session=' })).toBe(false);
    expect(hasCredentials({ authorization: 'Basic YTpi' })).toBe(false);
    expect(hasCredentials({})).toBe(false);
  });
});

describe('securityHeaders', () => {
  it('gives every response nosniff, the referrer and permissions policies and X-Frame-Options', () => {
    for (const response of [json, html, { hasCsp: false, setsCookie: false }]) {
      expect(securityHeaders(anonymous, response)).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'permissions-policy': PERMISSIONS_POLICY,
        'x-frame-options': 'DENY',
      });
    }
  });

  it('sends HSTS only over https', () => {
    expect(securityHeaders(anonymous, json)).not.toHaveProperty('strict-transport-security');
    expect(securityHeaders({ ...anonymous, secure: true }, json)['strict-transport-security']).toBe(
      'max-age=31536000',
    );
  });

  it("gives React Router's HTML the page policy with its nonce, and anything else the minimal one", () => {
    expect(securityHeaders({ ...anonymous, page }, html)['content-security-policy']).toBe(
      pageCsp(page.nonce),
    );
    // A page route that answers something else (a PDF, a redirect without a body, a plain-text error).
    for (const other of [
      { ...json, contentType: 'application/pdf' },
      { ...json, contentType: 'text/plain; charset=utf-8' },
      { hasCsp: false, setsCookie: false },
    ]) {
      expect(securityHeaders({ ...anonymous, page }, other)['content-security-policy']).toBe(MINIMAL_CSP);
    }
    // HTML that is not one of our pages (no nonce) does not get the page policy.
    expect(securityHeaders(anonymous, html)['content-security-policy']).toBe(MINIMAL_CSP);
  });

  it("keeps a route's own Content-Security-Policy", () => {
    expect(securityHeaders(anonymous, { ...html, hasCsp: true })).not.toHaveProperty(
      'content-security-policy',
    );
  });

  it("leaves an anonymous answer's caching as the route chose", () => {
    expect(securityHeaders(anonymous, json)).not.toHaveProperty('cache-control');
    expect(securityHeaders({ ...anonymous, page }, html)).not.toHaveProperty('cache-control');
    expect(securityHeaders(anonymous, { ...json, cacheControl: 'public, max-age=300' })).not.toHaveProperty(
      'cache-control',
    );
  });

  it('makes private anything that sets a cookie, every account page, and answers to signed-in requests', () => {
    expect(securityHeaders(anonymous, { ...json, setsCookie: true })['cache-control']).toBe(PRIVATE_NO_STORE);
    expect(
      securityHeaders(anonymous, { ...json, setsCookie: true, cacheControl: 'public, max-age=60' })[
        'cache-control'
      ],
    ).toBe(PRIVATE_NO_STORE);
    expect(securityHeaders({ ...anonymous, page, accountPage: true }, html)['cache-control']).toBe(
      PRIVATE_NO_STORE,
    );
    const signedIn = { secure: false, credentials: true };
    expect(securityHeaders(signedIn, json)['cache-control']).toBe(PRIVATE_NO_STORE);
    expect(securityHeaders(signedIn, { ...json, cacheControl: 'no-cache' })['cache-control']).toBe(
      PRIVATE_NO_STORE,
    );
    expect(securityHeaders({ ...signedIn, page }, html)['cache-control']).toBe(PRIVATE_NO_STORE);
  });

  it('never lets a page rendered for a signed-in reader be public', () => {
    expect(
      securityHeaders(
        { secure: false, credentials: true, page },
        { ...html, cacheControl: 'public, max-age=60' },
      )['cache-control'],
    ).toBe(PRIVATE_NO_STORE);
  });

  it('keeps a deliberate policy of public files and a stricter no-store for signed-in requests', () => {
    const signedIn = { secure: false, credentials: true };
    // A citation file, a feed, a static asset: the same bytes for every reader.
    expect(
      securityHeaders(signedIn, {
        ...json,
        contentType: 'application/x-bibtex',
        cacheControl: 'public, max-age=300',
      }),
    ).not.toHaveProperty('cache-control');
    expect(
      securityHeaders(signedIn, {
        ...json,
        contentType: 'text/javascript',
        cacheControl: 'public, max-age=31536000, immutable',
      }),
    ).not.toHaveProperty('cache-control');
    // OAI-PMH answers are never stored anywhere.
    expect(
      securityHeaders(signedIn, { ...json, contentType: 'text/xml', cacheControl: 'no-store' }),
    ).not.toHaveProperty('cache-control');
  });
});
