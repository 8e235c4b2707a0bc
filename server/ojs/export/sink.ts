import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { escapeAttr, escapeText } from '../../discovery/xml.ts';

/**
 * Where an export goes, written piece by piece (issue 26): a file, or an HTTP answer. Each write waits while the
 * destination's buffer is full, so an export of any size holds only the piece at hand in memory.
 */
export interface Sink {
  write(piece: string | Buffer): Promise<void>;
}

export function sinkOf(out: Writable): Sink {
  return {
    async write(piece) {
      if (out.destroyed) throw new Error('The destination was closed before the export ended.');
      if (!out.write(piece)) {
        // 'close' too: a reader that goes away (a download cancelled) ends the wait, and the export.
        await Promise.race([once(out, 'drain'), once(out, 'close')]);
        if (out.destroyed) throw new Error('The destination was closed before the export ended.');
      }
    },
  };
}

/** `text` as element content / an attribute value (characters XML does not allow left out). */
export const text = escapeText;
export const attr = escapeAttr;

/** One element with escaped text and attributes; '' when the text is empty (optional elements). */
export function el(
  name: string,
  value: string | number | null | undefined,
  attrs: Record<string, string> = {},
) {
  if (value === null || value === undefined || value === '') return '';
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${attr(v)}"`)
    .join('');
  return `<${name}${a}>${text(String(value))}</${name}>`;
}

/** Bytes per base64 line: 57 bytes make the 76 characters of a MIME line. */
const LINE_BYTES = 57;

function base64Lines(bytes: Buffer): string {
  const b64 = bytes.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\n`;
  return out;
}

/**
 * A stream's bytes as base64 in lines of 76, as OJS writes them: each chunk is encoded as it arrives (the
 * bytes that do not fill a line wait for the next chunk), so a 2 GB PDF goes through a few kilobytes at a time.
 */
export async function writeBase64(sink: Sink, stream: Readable): Promise<number> {
  let carry: Buffer = Buffer.alloc(0);
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    const buf = carry.length ? Buffer.concat([carry, bytes]) : bytes;
    const whole = buf.length - (buf.length % LINE_BYTES);
    if (whole) await sink.write(base64Lines(buf.subarray(0, whole)));
    carry = Buffer.from(buf.subarray(whole));
  }
  if (carry.length) await sink.write(base64Lines(carry));
  return size;
}
