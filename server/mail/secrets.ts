import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Mail } from './mailer.ts';

/**
 * The secrets a message carries (the token of a reset, confirmation, unsubscribe or invitation link) are
 * never stored in clear (decision 0022): the queued job keeps the message with a marker in their place and
 * the secrets themselves encrypted (AES-256-GCM, with a key derived from the server's secret); the mail log
 * keeps the text with each link that holds one replaced by LINK_REMOVED.
 */
export const LINK_REMOVED = '[link removed]';

const marker = (i: number) => `⟦secret ${i}⟧`;

/** A key for sealing mail secrets, derived from the server's secret (SESSION_SECRET) and used for nothing else. */
export function mailSecretsKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'colophon', 'mail secrets v1', 32));
}

export function sealSecrets(secrets: string[], key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The secrets again; throws when the key is not the one they were sealed with (the server secret changed). */
export function openSecrets(sealed: string, key: Buffer): string[] {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  return JSON.parse(text) as string[];
}

/** Longest first, so that a secret containing another is replaced whole. */
const ordered = (secrets: string[]) =>
  secrets.map((s, i) => ({ s, i })).sort((a, b) => b.s.length - a.s.length);

function mapStrings(mail: Mail, f: (s: string) => string): Mail {
  return {
    ...mail,
    to: Array.isArray(mail.to) ? mail.to.map(f) : f(mail.to),
    subject: f(mail.subject),
    text: f(mail.text),
    ...(mail.html === undefined ? {} : { html: f(mail.html) }),
    ...(mail.replyTo === undefined ? {} : { replyTo: f(mail.replyTo) }),
    ...(mail.headers
      ? { headers: Object.fromEntries(Object.entries(mail.headers).map(([k, v]) => [k, f(v)])) }
      : {}),
  };
}

/** The message with each secret replaced by its marker (what the job payload keeps). */
export function hideSecrets(mail: Mail, secrets: string[]): Mail {
  const list = ordered(secrets);
  return mapStrings(mail, (s) =>
    list.reduce((acc, { s: secret, i }) => acc.split(secret).join(marker(i)), s),
  );
}

/** The message as it is to be sent: each marker replaced by its secret. */
export function revealSecrets(mail: Mail, secrets: string[]): Mail {
  return mapStrings(mail, (s) => secrets.reduce((acc, secret, i) => acc.split(marker(i)).join(secret), s));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with every link (any run of characters up to a space, quote or bracket) holding a secret removed. */
export function redactLinks(text: string, secrets: string[]): string {
  return ordered(secrets).reduce(
    (acc, { s }) =>
      acc.replace(new RegExp(`[^\\s<>"'()]*${escapeRegExp(s)}[^\\s<>"'()]*`, 'g'), LINK_REMOVED),
    text,
  );
}

/**
 * The secrets of a message, checked: each long enough to be one (a short string would redact ordinary
 * words) and present in the message (a secret passed but not found is a caller's mistake, and the token
 * it meant is then in clear).
 */
export function checkSecrets(mail: Mail, secrets: string[] = []): string[] {
  const all = JSON.stringify(mail);
  for (const secret of secrets) {
    if (secret.length < 16) throw new Error('A mail secret must be at least 16 characters long.');
    if (!all.includes(JSON.stringify(secret).slice(1, -1))) {
      throw new Error('A mail secret was given that the message does not contain.');
    }
  }
  return [...new Set(secrets)];
}
