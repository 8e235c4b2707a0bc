import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Crossref on loopback for the tests (decision 0064), speaking the deposit API as documented:
 * `POST /v2/deposits` (multipart `usr`, `pwd`, `operation=doMDUpload`, `mdFile`) answered with a
 * `doi_batch_diagnostic`, and `POST /servlet/submissionDownload` (`doi_batch_id`, `type=result`) with the
 * batch's result. Each deposit takes the next scripted behaviour (`success` when none is left).
 */
export type CrossrefBehaviour =
  | { kind: 'success' }
  | { kind: 'warning'; msg: string }
  | { kind: 'failure'; msg: string }
  | { kind: 'unauthorized' }
  | { kind: 'forbidden'; msg: string }
  | { kind: 'error'; status: number }
  | { kind: 'cut' }
  | { kind: 'hang' }
  /** Queued at first; its result says so `polls` times, then completed with success. */
  | { kind: 'slow'; polls: number };

export interface ReceivedDeposit {
  usr: string;
  pwd: string;
  operation: string;
  filename: string;
  xml: string;
  batchId: string;
  timestamp: string;
  dois: string[];
}

export interface FakeCrossref {
  url: string;
  /** The deposit endpoint (…/v2/deposits). */
  endpoint: string;
  deposits: ReceivedDeposit[];
  /** Result requests received: the batch ids asked for. */
  resultRequests: string[];
  script(...behaviours: CrossrefBehaviour[]): void;
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function diagnostic(
  status: 'completed' | 'queued',
  batchId: string,
  dois: string[],
  record?: { status: string; msg: string },
) {
  const records =
    status === 'completed'
      ? dois
          .map(
            (doi) =>
              `<record_diagnostic status="${record?.status ?? 'Success'}"><doi>${esc(doi)}</doi><msg>${esc(record?.msg ?? 'Successfully added')}</msg></record_diagnostic>`,
          )
          .join('')
      : '';
  const failures = record?.status === 'Failure' ? dois.length : 0;
  const warnings = record?.status === 'Warning' ? dois.length : 0;
  return `<?xml version="1.0" encoding="UTF-8"?>
<doi_batch_diagnostic status="${status}" sp="fake-crossref">
  <submission_id>${1000 + Math.floor(Math.random() * 1000)}</submission_id>
  <batch_id>${esc(batchId)}</batch_id>
  ${records}
  <batch_data>
    <record_count>${dois.length}</record_count>
    <success_count>${status === 'completed' ? dois.length - failures : 0}</success_count>
    <warning_count>${warnings}</warning_count>
    <failure_count>${failures}</failure_count>
  </batch_data>
</doi_batch_diagnostic>`;
}

async function formOf(req: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const request = new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body,
  });
  return request.formData();
}

export async function startFakeCrossref(
  credentials = { usr: 'depositor', pwd: 'secret-pass' },
): Promise<FakeCrossref> {
  const queue: CrossrefBehaviour[] = [];
  const deposits: ReceivedDeposit[] = [];
  const resultRequests: string[] = [];
  /** Batches still processing: how many more result requests say "queued". */
  const pending = new Map<string, { polls: number; dois: string[] }>();
  const hanging = new Set<ServerResponse>();
  const send = (res: ServerResponse, status: number, body: string, type = 'application/xml') => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      if (req.method !== 'POST') return send(res, 405, 'POST only', 'text/plain');
      let form: FormData;
      try {
        form = await formOf(req);
      } catch {
        return send(res, 400, 'Not multipart', 'text/plain');
      }
      const usr = String(form.get('usr') ?? '');
      const pwd = String(form.get('pwd') ?? '');
      if (path === '/servlet/submissionDownload') {
        const batchId = String(form.get('doi_batch_id') ?? '');
        resultRequests.push(batchId);
        if (usr !== credentials.usr || pwd !== credentials.pwd)
          return send(res, 401, 'Unauthorized', 'text/plain');
        const p = pending.get(batchId);
        if (!p) return send(res, 200, diagnostic('completed', batchId, []));
        if (p.polls > 0) {
          p.polls--;
          return send(res, 200, diagnostic('queued', batchId, p.dois));
        }
        pending.delete(batchId);
        return send(res, 200, diagnostic('completed', batchId, p.dois));
      }
      if (path !== '/v2/deposits') return send(res, 404, 'Not found', 'text/plain');
      const file = form.get('mdFile');
      const xml = file instanceof Blob ? await file.text() : '';
      const batchId = /<doi_batch_id>([^<]*)<\/doi_batch_id>/.exec(xml)?.[1] ?? '';
      const timestamp = /<timestamp>([^<]*)<\/timestamp>/.exec(xml)?.[1] ?? '';
      const dois = [...xml.matchAll(/<doi>([^<]*)<\/doi>/g)].map((m) => m[1]);
      deposits.push({
        usr,
        pwd,
        operation: String(form.get('operation') ?? ''),
        filename: file instanceof File ? file.name : '',
        xml,
        batchId,
        timestamp,
        dois,
      });
      const b = queue.shift() ?? { kind: 'success' };
      if (b.kind === 'cut') return req.socket.destroy();
      if (b.kind === 'hang') return void hanging.add(res);
      if (b.kind === 'error') return send(res, b.status, 'Internal error', 'text/plain');
      if (b.kind === 'unauthorized' || usr !== credentials.usr || pwd !== credentials.pwd)
        return send(res, 401, 'Unauthorized', 'text/plain');
      if (b.kind === 'forbidden')
        return send(
          res,
          403,
          `<?xml version="1.0"?><doi_batch_diagnostic status="completed"><batch_id>${esc(batchId)}</batch_id><msg>${esc(b.msg)}</msg></doi_batch_diagnostic>`,
        );
      if (b.kind === 'failure')
        return send(res, 200, diagnostic('completed', batchId, dois, { status: 'Failure', msg: b.msg }));
      if (b.kind === 'warning')
        return send(res, 200, diagnostic('completed', batchId, dois, { status: 'Warning', msg: b.msg }));
      if (b.kind === 'slow') {
        pending.set(batchId, { polls: b.polls, dois });
        return send(res, 200, diagnostic('queued', batchId, dois));
      }
      return send(res, 200, diagnostic('completed', batchId, dois));
    })().catch(() => send(res, 500, 'fake crossref failed', 'text/plain'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    endpoint: `${url}/v2/deposits`,
    deposits,
    resultRequests,
    script: (...b) => queue.push(...b),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
