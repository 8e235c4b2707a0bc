import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Durations such as `30s`, `15m`, `8h`, `2d`, returned in seconds. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
  return n > 0 ? n * unit : null;
}

/** Sizes such as `20MB`, `512KB`, `1048576`, returned in bytes. */
export function parseSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(text.trim());
  if (!m) return null;
  const mult = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  const n = Math.round(Number(m[1]) * mult);
  return n > 0 ? n : null;
}

/** Rate limits such as `10/15m`: at most 10 requests per 15 minutes. `off` disables the limit. */
export type RateLimit = { max: number; windowSeconds: number } | null;
export function parseRateLimit(text: string): RateLimit | undefined {
  if (text.trim() === 'off') return null;
  const m = /^(\d+)\s*\/\s*(.+)$/.exec(text.trim());
  if (!m) return undefined;
  const windowSeconds = parseDuration(m[2]);
  if (!windowSeconds || Number(m[1]) < 1) return undefined;
  return { max: Number(m[1]), windowSeconds };
}

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const s = parseDuration(v);
      if (s === null) {
        ctx.addIssue({ code: 'custom', message: `"${v}" is not a duration such as 30s, 15m or 8h` });
        return z.NEVER;
      }
      return s;
    });

/** A size such as 20MB; `orOff`: 0 is allowed too, and turns the thing off. */
const size = (fallback: string, orOff = false) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      if (orOff && /^0+\s*(b|kb|mb|gb)?$/i.test(v.trim())) return 0;
      const s = parseSize(v);
      if (s === null) {
        ctx.addIssue({ code: 'custom', message: `"${v}" is not a size such as 512KB or 20MB` });
        return z.NEVER;
      }
      return s;
    });

const rate = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const r = parseRateLimit(v);
      if (r === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${v}" is not a rate such as 10/15m (or off)` });
        return z.NEVER;
      }
      return r;
    });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const email = (fallback: string) => z.string().default(fallback).pipe(z.email('is not an e-mail address'));

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int('must be a whole number').min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  PUBLIC_URL: optionalString.pipe(z.url('must be a URL such as https://journal.example.org').optional()),
  // The site's own name and publisher, on its home when no journal is at its root (decision 0056); unset, both
  // are the first journal's publisher.
  SITE_NAME: optionalString.pipe(z.string().max(200, 'must be at most 200 characters').optional()),
  SITE_PUBLISHER: optionalString.pipe(z.string().max(200, 'must be at most 200 characters').optional()),
  SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SESSION_TTL: duration('8h'),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: email('editorial@colophon-journal.org'),
  EDITORIAL_EMAIL: email('editorial@colophon-journal.org'),
  ADMIN_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{3,40}$/, 'must be 3-40 letters, digits, _ . -')
    .default('admin'),
  ADMIN_PASSWORD: optionalString.pipe(z.string().min(8, 'must be at least 8 characters').optional()),
  ADMIN_EMAIL: email('admin@colophon-journal.org'),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], 'must be true or false')
    .default('true')
    .transform((v) => ['true', '1', 'yes'].includes(v)),
  MAX_MANUSCRIPT_SIZE: size('20MB'),
  MAX_ADDITIONAL_SIZE: size('50MB'),
  MAX_ARTICLE_PDF_SIZE: size('30MB'),
  /** An OJS import's uploaded exports together (issue 26): streamed to disk, never held in memory. */
  IMPORT_MAX_BYTES: size('4GB'),
  /** Memory for cached pages and public JSON (decision 0018); 0 turns the cache off. */
  PAGE_CACHE_SIZE: size('64MB', true),
  RATE_LIMIT_LOGIN: rate('10/15m'),
  RATE_LIMIT_LOGIN_USER: rate('5/15m'),
  RATE_LIMIT_REGISTER: rate('5/1h'),
  RATE_LIMIT_PASSWORD_RESET: rate('5/1h'),
  RATE_LIMIT_CONTACT: rate('5/1h'),
  /** E-mails the journal sends one person (its own addresses excepted), automatic and manual (decision 0038). */
  MAIL_LIMIT_RECIPIENT: rate('30/1d'),
  RATE_LIMIT_PLAGIARISM: rate('30/1h'),
  SIMILARITY_BACKGROUND: z
    .enum(['true', 'false'], 'must be true or false')
    .default('true')
    .transform((v) => v === 'true'),
  SIMILARITY_GRAMMAR: z
    .enum(['true', 'false'], 'must be true or false')
    .default('true')
    .transform((v) => v === 'true'),
  TRUST_PROXY: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true'),
  /** How long one call to Crossref's or DOAJ's API may take before it is retried later (decision 0064). */
  DEPOSIT_TIMEOUT: duration('60s'),
  /** Only deposit to 127.0.0.1/localhost (the tests' fake Crossref and DOAJ): never the internet. */
  DEPOSIT_LOOPBACK_ONLY: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true'),
  /** How long a SIGTERM waits for running requests and jobs before closing anyway (decision 0030). */
  SHUTDOWN_TIMEOUT: duration('20s'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Uploaded files in an S3-compatible object store instead of DATA_DIR/files (decision 0027). */
  S3_BUCKET: optionalString.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'is not a bucket name (3-63 lower-case letters, digits, . and -)',
      )
      .optional(),
  ),
  S3_ENDPOINT: optionalString.pipe(
    z.url({ protocol: /^https?$/, error: 'must be a URL such as https://s3.example.org' }).optional(),
  ),
  S3_REGION: z.string().trim().min(1, 'must not be empty').default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true'),
  S3_PREFIX: optionalString.pipe(
    z
      .string()
      .regex(
        /^[A-Za-z0-9!_.*'()-][A-Za-z0-9!_.*'()/-]*$/,
        "must be letters, digits and !_.*'()-/, not starting with /",
      )
      .optional(),
  ),
});

export type Config = z.output<typeof configSchema> & { sessionSecret: string; dataDir: string };

export class ConfigError extends Error {}

/**
 * Reads and validates the environment once. A wrong value raises ConfigError with one line naming the
 * variable, so start-up can stop with that line and nothing else.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'configuration');
    const value = env[name];
    const shown = value === undefined ? '' : name.match(/SECRET|PASSWORD|URL/) ? '' : ` (got "${value}")`;
    throw new ConfigError(`Configuration error: ${name} ${issue.message}${shown}.`);
  }
  const s3 = parsed.data;
  const lonely = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX'] as const).find(
    (name) => s3[name] !== undefined && !s3.S3_BUCKET,
  );
  if (lonely)
    throw new ConfigError(
      `Configuration error: ${lonely} is set, but S3_BUCKET is not (set both to keep files in an object store).`,
    );
  if (Boolean(s3.S3_ACCESS_KEY_ID) !== Boolean(s3.S3_SECRET_ACCESS_KEY)) {
    const [set, unset] = s3.S3_ACCESS_KEY_ID
      ? ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']
      : ['S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID'];
    throw new ConfigError(
      `Configuration error: ${set} is set, but ${unset} is not (set both, or neither to use the AWS variables).`,
    );
  }
  // A prefix names a folder: "journal-a" and "journal-a/" are the same.
  if (s3.S3_PREFIX && !s3.S3_PREFIX.endsWith('/')) s3.S3_PREFIX += '/';
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return { ...parsed.data, dataDir, sessionSecret: parsed.data.SESSION_SECRET ?? '' };
}

/** When SESSION_SECRET is unset, one is generated on first start and kept in the data folder. */
export function resolveSessionSecret(config: Config): Config {
  if (config.sessionSecret) return config;
  const file = path.join(config.dataDir, 'session-secret');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return { ...config, sessionSecret: readFileSync(file, 'utf8').trim() };
}

export function publicUrl(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}
