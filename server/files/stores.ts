import path from 'node:path';
import type { Config } from '../config.ts';
import { type BlobStore, LocalBlobStore } from './blob-store.ts';

export type BlobStoreKind = 'local' | 's3';

interface Logger {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** Which store the configuration names: the object store when S3_BUCKET is set, else DATA_DIR/files. */
export const configuredKind = (config: Config): BlobStoreKind => (config.S3_BUCKET ? 's3' : 'local');

/** The local store of a data folder (also where `files copy` reads or writes the local side). */
export const localBlobStore = (config: Config, log?: Logger) =>
  new LocalBlobStore(path.join(config.dataDir, 'files'), { log });

/**
 * The blob store of `kind` (by default the configured one), checked: a missing bucket or refused
 * credentials throw BlobStoreUnusableError, one line that start-up prints. The S3 client is loaded only
 * when it is used (it costs start-up time and memory, decision 0021).
 */
export async function openBlobStore(
  config: Config,
  log?: Logger,
  kind = configuredKind(config),
): Promise<BlobStore> {
  if (kind === 'local') return localBlobStore(config, log);
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is not set');
  const { S3BlobStore } = await import('./s3-blob-store.ts');
  const store = new S3BlobStore(
    {
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      prefix: config.S3_PREFIX ?? '',
    },
    { log },
  );
  await store.check();
  return store;
}
