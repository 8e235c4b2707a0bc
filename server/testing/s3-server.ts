import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { S3Options } from '../files/s3-blob-store.ts';

/** s3rver's one account: it checks the access key id, not (for SigV4) the secret. */
export const S3RVER_KEY = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  port: number;
  /** Store options for a bucket of this server (created at start when named in `buckets`). */
  options(bucket: string, extra?: Partial<S3Options>): S3Options;
  /** The S3_* variables that make Colophon use `bucket` on this server. */
  env(bucket: string): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts a real S3-protocol server (s3rver) on loopback, in a child process (s3rver-main.mjs says why),
 * with the buckets named; its objects in a temporary folder removed by `stop`.
 */
export async function startS3Server(buckets: string[] = ['colophon'], port = 0): Promise<TestS3Server> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'colophon-s3-'));
  const main = fileURLToPath(new URL('./s3rver-main.mjs', import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', main, dir, String(port), ...buckets],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the S3 test server exited (${code}) before it listened`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).port));
  });
  const endpoint = `http://127.0.0.1:${started}`;
  const options = (bucket: string, extra: Partial<S3Options> = {}): S3Options => ({
    endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    forcePathStyle: true,
    prefix: '',
    ...extra,
  });
  return {
    endpoint,
    port: started,
    options,
    env: (bucket) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    async stop() {
      child.stdin?.end();
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
