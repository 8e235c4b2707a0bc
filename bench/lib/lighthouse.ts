/**
 * Lighthouse's mobile performance score (its default settings: a mid-range phone, simulated slow 4G and a
 * 4× slower CPU, computed from one real load) in Debian's Chromium, through Lighthouse's Node API. Each page
 * loads in a fresh headless Chromium profile, so nothing is cached between pages.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/env.ts';

export interface LighthouseResult {
  url: string;
  /** 0-100, or null when Lighthouse could not score the page (see `error`). */
  score: number | null;
  /** The metrics the score is made of, in ms (CLS unitless). */
  metrics: Record<string, number | null>;
  /** Bytes the "enable text compression" audit would save. */
  compressionSavings: number | null;
  /** Bytes the page transferred, all requests together. */
  transferBytes: number | null;
  error?: string;
}

const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const;

export async function lighthouseMobile(url: string): Promise<LighthouseResult> {
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
  ]);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    const run = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      logLevel: 'error',
      output: 'json',
    });
    if (!run) throw new Error('Lighthouse returned no result');
    const { lhr } = run;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id];
    const score = lhr.categories.performance?.score;
    const compression = audit('uses-text-compression')?.details as
      | { overallSavingsBytes?: number }
      | undefined;
    return {
      url,
      score: score === null || score === undefined ? null : Math.round(score * 100),
      metrics: Object.fromEntries(
        Object.entries(METRICS).map(([name, id]) => [name, audit(id)?.numericValue ?? null]),
      ),
      compressionSavings: compression?.overallSavingsBytes ?? 0,
      transferBytes: audit('total-byte-weight')?.numericValue ?? null,
    };
  } catch (err) {
    return {
      url,
      score: null,
      metrics: {},
      compressionSavings: null,
      transferBytes: null,
      error: (err as Error).message,
    };
  } finally {
    chrome.kill();
  }
}
