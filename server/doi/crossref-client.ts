import { DOMParser } from '@xmldom/xmldom';

/**
 * Crossref's deposit API, as OJS 3.4+ speaks it (decision 0064): `POST …/v2/deposits` with multipart parts
 * `usr`, `pwd`, `operation=doMDUpload` and `mdFile` (the doi_batch XML as a file); the answer a
 * `doi_batch_diagnostic`, final (`completed`) or not yet (queued, in process), whose result is fetched later
 * from `…/servlet/submissionDownload` (`doi_batch_id`, `type=result`). The password goes in the request's
 * body only: never in a URL, a message or a log line.
 */

export interface CrossrefCredentials {
  username: string;
  password: string;
}

/** How one exchange with Crossref ended. */
export type CrossrefOutcome =
  /** Crossref finished with the batch: registered (perhaps with warnings), or refused with its message. */
  | {
      kind: 'completed';
      success: boolean;
      message: string | null;
      batchId: string | null;
      submissionId: string | null;
    }
  /** Taken, not processed yet: its result is to be asked for later. */
  | { kind: 'pending'; batchId: string | null; submissionId: string | null; message: string | null }
  /** Refused for good (bad credentials, forbidden prefix): no retry mends it. */
  | { kind: 'refused'; message: string };

/** A failure a later attempt may not meet: a 5xx, a timeout, a cut connection. */
export class TransientCrossrefError extends Error {}

const text = (el: Element | undefined | null) => el?.textContent?.trim() || null;

/** Reads a `doi_batch_diagnostic` (a deposit's answer or its result); null when the body is not one. */
export function readDiagnostic(xml: string): CrossrefOutcome | null {
  if (!xml.includes('doi_batch_diagnostic')) return null;
  let doc: Document;
  try {
    doc = new DOMParser({ errorHandler: () => {} }).parseFromString(xml, 'text/xml') as unknown as Document;
  } catch {
    return null;
  }
  const root = doc.getElementsByTagName('doi_batch_diagnostic')[0];
  if (!root) return null;
  const status = (root.getAttribute('status') ?? '').toLowerCase();
  const batchId = text(root.getElementsByTagName('batch_id')[0]);
  const submissionId = text(root.getElementsByTagName('submission_id')[0]);
  if (status !== 'completed') {
    return { kind: 'pending', batchId, submissionId, message: status ? `Crossref says: ${status}.` : null };
  }
  const records = Array.from(root.getElementsByTagName('record_diagnostic'));
  const failed = records.filter((r) => (r.getAttribute('status') ?? '').toLowerCase() === 'failure');
  const count = (name: string) => Number(text(root.getElementsByTagName(name)[0]) ?? 0) || 0;
  if (failed.length || count('failure_count') > 0) {
    const msg = failed
      .map((r) => text(r.getElementsByTagName('msg')[0]))
      .filter(Boolean)
      .join(' ');
    return {
      kind: 'completed',
      success: false,
      message: msg || 'Crossref refused the deposit.',
      batchId,
      submissionId,
    };
  }
  const warnings = records
    .filter((r) => (r.getAttribute('status') ?? '').toLowerCase() === 'warning')
    .map((r) => text(r.getElementsByTagName('msg')[0]))
    .filter(Boolean);
  const warned = warnings.length || count('warning_count') > 0;
  return {
    kind: 'completed',
    success: true,
    message: warned ? `Registered with a warning: ${warnings.join(' ') || 'see Crossref.'}` : null,
    batchId,
    submissionId,
  };
}

function refusalMessage(status: number, body: string): string {
  if (status === 401) return 'Crossref refused the username and password: check them in the DOI settings.';
  const msg = /<msg>([\s\S]*?)<\/msg>/.exec(body)?.[1]?.trim();
  if (status === 403) return `Crossref refused the deposit: ${msg || 'forbidden (is the prefix yours?)'}`;
  return `Crossref refused the deposit (HTTP ${status})${msg ? `: ${msg}` : '.'}`;
}

export class CrossrefClient {
  constructor(private readonly opts: { timeoutMs?: number } = {}) {}

  private async post(url: string, form: FormData): Promise<{ status: number; body: string }> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000),
        redirect: 'error',
      });
      return { status: res.status, body: await res.text() };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const why =
        e.name === 'TimeoutError' || e.name === 'AbortError'
          ? 'Crossref did not answer in time'
          : `Crossref could not be reached (${e.cause?.code ?? e.message})`;
      throw new TransientCrossrefError(why);
    }
  }

  private interpret(status: number, body: string): CrossrefOutcome {
    if (status >= 500 || status === 429 || status === 408)
      throw new TransientCrossrefError(`Crossref answered HTTP ${status}; trying again later`);
    if (status >= 400) return { kind: 'refused', message: refusalMessage(status, body) };
    return readDiagnostic(body) ?? { kind: 'pending', batchId: null, submissionId: null, message: null };
  }

  /** Sends one doi_batch to the deposit endpoint. */
  async deposit(
    endpoint: string,
    who: CrossrefCredentials,
    xml: string,
    filename: string,
  ): Promise<CrossrefOutcome> {
    const form = new FormData();
    form.set('usr', who.username);
    form.set('pwd', who.password);
    form.set('operation', 'doMDUpload');
    form.set('mdFile', new Blob([xml], { type: 'application/xml' }), filename);
    const { status, body } = await this.post(endpoint, form);
    return this.interpret(status, body);
  }

  /** Asks for a batch's result (`…/servlet/submissionDownload` at the deposit endpoint's host). */
  async result(endpoint: string, who: CrossrefCredentials, batchId: string): Promise<CrossrefOutcome> {
    const form = new FormData();
    form.set('usr', who.username);
    form.set('pwd', who.password);
    form.set('doi_batch_id', batchId);
    form.set('type', 'result');
    const { status, body } = await this.post(resultUrl(endpoint), form);
    return this.interpret(status, body);
  }
}

/** The result servlet on the deposit endpoint's host. */
export function resultUrl(endpoint: string): string {
  return new URL('/servlet/submissionDownload', endpoint).toString();
}
