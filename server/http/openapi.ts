import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import type { Api } from './api.ts';
import { staticDocumentCsp } from './security-headers.ts';

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Doc = ReturnType<Api['openApi']>;

/** The reference page's only styling, inline; its policy allows exactly this text (by hash). */
export const API_DOCS_CSS = `
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem 1.25rem;color:#1c1c1c}
h1{font-family:Georgia,serif}code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f5f3ef;padding:.75rem;overflow:auto;border-radius:4px}
.op{border-top:1px solid #ddd;padding:.5rem 0}.m{display:inline-block;min-width:4.5em;text-align:center;border-radius:3px;padding:0 .4em;color:#fff;font-size:.85em}
.m-get{background:#1d5f8a}.m-post{background:#2c6e3f}.m-patch,.m-put{background:#8a5a00}.m-delete{background:#9b1c1c}.who{color:#555;font-size:.9em}
a{color:#1d5f8a}
`;

/** No scripts, nothing from elsewhere: the inline style above and nothing else (decision 0015). */
export const API_DOCS_CSP = staticDocumentCsp([API_DOCS_CSS]);

/** A plain, readable rendering of the OpenAPI document: no scripts, nothing fetched from elsewhere. */
export function renderApiDocs(doc: Doc): string {
  const sections = Object.entries(doc.paths)
    .flatMap(([p, ops]) => Object.entries(ops).map(([method, op]) => ({ p, method, op: op as Record<string, any> })))
    .map(({ p, method, op }) => {
      const params = (op.parameters ?? []) as { name: string; in: string; required: boolean; schema: unknown }[];
      const body = op.requestBody?.content as Record<string, { schema: unknown }> | undefined;
      const responses = Object.entries(op.responses as Record<string, { description: string; content?: Record<string, { schema: unknown }> }>);
      const perm = op['x-permission'] as { name: string; roles: string[]; requireApproved: boolean } | undefined;
      return `<section class="op" id="${esc(op.operationId)}">
  <h3><span class="m m-${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(p)}</code></h3>
  <p>${esc(op.summary)}</p>${op.description ? `<p class="d">${esc(op.description)}</p>` : ''}
  <p class="who">${perm ? `Requires: ${esc(perm.roles.join(', '))}${perm.requireApproved ? ' (approved, except admins)' : ''}` : op.security?.length ? 'Signed-in optional' : 'Public'}</p>
  ${params.length ? `<h4>Parameters</h4><ul>${params.map((x) => `<li><code>${esc(x.name)}</code> in ${esc(x.in)}${x.required ? ' (required)' : ''}</li>`).join('')}</ul>` : ''}
  ${body ? Object.entries(body).map(([type, c]) => `<details><summary>Request body: ${esc(type)}</summary><pre>${esc(JSON.stringify(c.schema, null, 2))}</pre></details>`).join('') : ''}
  <h4>Responses</h4><ul>${responses
    .map(([code, r]) => `<li><strong>${esc(code)}</strong> ${esc(r.description)}${r.content ? Object.entries(r.content).map(([t, c]) => `<details><summary>${esc(t)}</summary><pre>${esc(JSON.stringify(c.schema, null, 2))}</pre></details>`).join('') : ''}</li>`)
    .join('')}</ul>
</section>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)}: API reference</title>
<style>${API_DOCS_CSS}</style></head><body><main>
<h1>${esc(doc.info.title)}: API reference</h1><p>${esc(doc.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${esc(doc.openapi)}). Authenticate with <code>Authorization: Bearer &lt;token&gt;</code> from <code>POST /api/auth/login</code>.</p>
${sections}
</main></body></html>`;
}

export function openApiRoutes(app: FastifyInstance, api: Api, services: Services) {
  let doc: Doc | undefined;
  const get = () =>
    (doc ??= api.openApi({
      title: 'Colophon journal API',
      version: '1.0.0',
      description:
        'The JSON API of the journal: articles, accounts, submissions, subscriptions and editorial work. Errors are { message, errors? }.',
      serverUrl: services.journalUrl(),
    }));
  app.get('/api/openapi.json', async () => get());
  app.get('/api/docs', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', API_DOCS_CSP)
      .send(renderApiDocs(get())),
  );
}
