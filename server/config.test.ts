import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDuration, parseRateLimit, parseSize } from './config.ts';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.SESSION_TTL).toBe(8 * 3600);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toMatch(/data$/);
    expect(c.SEED_DEMO).toBe(true);
    expect(c.MAX_MANUSCRIPT_SIZE).toBe(20 * 1024 * 1024);
  });

  it('reads durations, sizes and rates', () => {
    expect(parseDuration('30s')).toBe(30);
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('8h')).toBe(28800);
    expect(parseDuration('8 hours')).toBeNull();
    expect(parseDuration('0s')).toBeNull();
    expect(parseSize('512KB')).toBe(512 * 1024);
    expect(parseSize('1.5mb')).toBe(1.5 * 1024 * 1024);
    expect(parseSize('lots')).toBeNull();
    expect(parseRateLimit('10/15m')).toEqual({ max: 10, windowSeconds: 900 });
    expect(parseRateLimit('off')).toBeNull();
    expect(parseRateLimit('ten')).toBeUndefined();
    // The page cache may be turned off with 0 (README); an upload limit may not be 0.
    expect(loadConfig({ PAGE_CACHE_SIZE: '0' }).PAGE_CACHE_SIZE).toBe(0);
    expect(loadConfig({ PAGE_CACHE_SIZE: '0MB' }).PAGE_CACHE_SIZE).toBe(0);
    expect(loadConfig({}).PAGE_CACHE_SIZE).toBe(64 * 1024 * 1024);
    expect(() => loadConfig({ MAX_MANUSCRIPT_SIZE: '0' })).toThrow(ConfigError);
    expect(loadConfig({ SESSION_TTL: '30s', SEED_DEMO: 'false' })).toMatchObject({
      SESSION_TTL: 30,
      SEED_DEMO: false,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SESSION_TTL: '8 hours' }, 'SESSION_TTL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ MAX_MANUSCRIPT_SIZE: 'big' }, 'MAX_MANUSCRIPT_SIZE'],
    [{ RATE_LIMIT_LOGIN: 'many' }, 'RATE_LIMIT_LOGIN'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    [{ S3_BUCKET: 'files', S3_PREFIX: '/journal' }, 'S3_PREFIX'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'AKIA' }, 'S3_SECRET_ACCESS_KEY'],
  ])('refuses %o with one line naming %s', (env, name) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message).not.toContain('\n');
  });

  it('reads the object store: off unless S3_BUCKET is set; a prefix names a folder', () => {
    expect(loadConfig({}).S3_BUCKET).toBeUndefined();
    expect(
      loadConfig({
        S3_BUCKET: 'journal-files',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'journal-a',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
      }),
    ).toMatchObject({
      S3_BUCKET: 'journal-files',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
      S3_PREFIX: 'journal-a/',
    });
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'a-secret-key' })).toThrow(
      'Configuration error: S3_SECRET_ACCESS_KEY is set, but S3_ACCESS_KEY_ID is not (set both, or neither to use the AWS variables).',
    );
  });

  it('never echoes secrets in its messages', () => {
    expect(() => loadConfig({ SESSION_SECRET: 'tiny-secret' })).toThrow(/^(?!.*tiny-secret)/);
  });
});
