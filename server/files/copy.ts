import { BlobDamagedError, type BlobStore } from './blob-store.ts';

export interface CopyCounts {
  /** Blobs in the source store. */
  total: number;
  bytesTotal: number;
  /** Blobs looked at so far, whatever came of them. */
  done: number;
  bytesDone: number;
  copied: number;
  /** Already in the destination, whole (the same size: a blob is written whole or not at all). */
  skipped: number;
  failed: number;
}

export interface CopyResult extends CopyCounts {
  failures: { key: string; error: string }[];
  /** The copy was stopped (`signal`) before every blob was looked at: run it again to go on. */
  interrupted: boolean;
}

export type CopyOutcome = 'copied' | 'skipped' | 'failed';

/**
 * Copies every blob of `from` into `to` (`npm run cli -- files copy`): resumable, since a blob already in
 * `to` at its full size is skipped; every copied blob's bytes are checked against its SHA-256 name as they
 * stream (BlobStore.putStream), so a damaged one is refused and left out, never stored. Failures are
 * counted and listed, not fatal: the rest is copied. `signal` stops it between blobs.
 */
export async function copyBlobs(
  from: BlobStore,
  to: BlobStore,
  opts: {
    concurrency?: number;
    signal?: AbortSignal;
    /** After the listing (`key` null), then after each blob. */
    onProgress?: (
      counts: CopyCounts,
      key: string | null,
      outcome: CopyOutcome | null,
      error?: string,
    ) => void;
  } = {},
): Promise<CopyResult> {
  const blobs: { key: string; size: number }[] = [];
  for await (const b of from.list()) blobs.push(b);
  const result: CopyResult = {
    total: blobs.length,
    bytesTotal: blobs.reduce((n, b) => n + b.size, 0),
    done: 0,
    bytesDone: 0,
    copied: 0,
    skipped: 0,
    failed: 0,
    failures: [],
    interrupted: false,
  };
  const counts = (): CopyCounts => {
    const { failures: _f, interrupted: _i, ...c } = result;
    return c;
  };
  opts.onProgress?.(counts(), null, null);

  const copyOne = async ({ key, size }: { key: string; size: number }): Promise<CopyOutcome> => {
    if ((await to.size(key)) === size) return 'skipped';
    // A smaller or larger blob there is damaged: the checked copy replaces it.
    await to.putStream(key, size, await from.read(key));
    return 'copied';
  };

  let next = 0;
  const worker = async () => {
    while (next < blobs.length && !opts.signal?.aborted) {
      const blob = blobs[next++];
      let outcome: CopyOutcome;
      let error: string | undefined;
      try {
        outcome = await copyOne(blob);
      } catch (err) {
        outcome = 'failed';
        error = err instanceof BlobDamagedError ? err.message : `${blob.key}: ${explain(err)}`;
        result.failures.push({ key: blob.key, error });
      }
      result[outcome]++;
      result.done++;
      result.bytesDone += blob.size;
      opts.onProgress?.(counts(), blob.key, outcome, error);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
  result.interrupted = result.done < result.total;
  return result;
}

function explain(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

/** 12.3 MB, 512 KB, 10 B. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/** `[########------------]  40%  12/30 files, 1.2 MB of 3.0 MB (2 already there, 0 failed)` */
export function progressLine(c: CopyCounts, width = 24): string {
  const share = c.bytesTotal ? c.bytesDone / c.bytesTotal : c.total ? c.done / c.total : 1;
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${c.done}/${c.total} files, ${formatBytes(c.bytesDone)} of ${formatBytes(c.bytesTotal)} (${c.skipped} already there, ${c.failed} failed)`;
}
