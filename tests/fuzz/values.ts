/**
 * Odd inputs for the fuzz tests: what careless clients and attackers send. Deterministic (no randomness), so a
 * failure names the exact input that caused it and runs again the same way.
 */

/** Strings that are hard to store or to parse. */
export const ODD_STRINGS: [string, string][] = [
  ['empty', ''],
  ['blank', '   '],
  ['NUL', 'a\u0000b'],
  ['only NUL', '\u0000'],
  ['lone high surrogate', 'x\ud800y'],
  ['lone low surrogate', '\udc00'],
  ['right-to-left override', 'report\u202efdp.exe'],
  ['emoji', '📄🔥'],
  ['huge', 'x'.repeat(200_000)],
  ['long line of digits', '9'.repeat(400)],
  ['sql', "'; drop table users; --"],
  ['html', '<script>alert(1)</script>'],
  ['path', '../../etc/passwd'],
  ['percent', '%00%zz%'],
  ['unicode spaces', '\u00a0\u2028\u2029'],
];

/** Values of the wrong type for a JSON field. */
export const ODD_JSON: [string, unknown][] = [
  ['null', null],
  ['true', true],
  ['zero', 0],
  ['negative', -1],
  ['fraction', 1.5],
  ['huge number', 1e300],
  ['array', [1]],
  ['nested array', [[['x']]]],
  ['object', { a: 1 }],
  ['prototype key', JSON.parse('{"__proto__":{"polluted":1}}')],
];

/** Ids as they arrive in paths and forms. */
export const ODD_IDS: [string, string][] = [
  ['zero', '0'],
  ['negative', '-1'],
  ['fraction', '1.5'],
  ['exponent', '1e3'],
  ['hex', '0x10'],
  ['array', '[1]'],
  ['boolean', 'true'],
  ['letters', 'abc'],
  ['past int4', '2147483648'],
  ['past safe integer', '99999999999999999999'],
  ['encoded NUL', '%00'],
  ['spaces', '%20%201'],
  ['unicode digits', '١٢'],
];

/** Whole bodies that are not what a JSON route expects. */
export const ODD_BODIES: [string, { type?: string; body: string | Buffer }][] = [
  ['malformed JSON', { type: 'application/json', body: '{"a":' }],
  ['JSON array', { type: 'application/json', body: '[1,2]' }],
  ['JSON string', { type: 'application/json', body: '"x"' }],
  ['JSON null', { type: 'application/json', body: 'null' }],
  ['empty JSON', { type: 'application/json', body: '' }],
  ['deep JSON', { type: 'application/json', body: `${'['.repeat(5000)}${']'.repeat(5000)}` }],
  ['text/plain', { type: 'text/plain', body: 'x' }],
  ['xml', { type: 'application/xml', body: '<a/>' }],
  ['form-encoded', { type: 'application/x-www-form-urlencoded', body: 'a=1&a=2&b=%00' }],
  ['multipart without boundary', { type: 'multipart/form-data', body: 'x' }],
  ['multipart garbage', { type: 'multipart/form-data; boundary=zz', body: '--zz\r\nnonsense\r\n--zz--' }],
  ['no content type', { body: 'x' }],
  ['JSON with a NUL key', { type: 'application/json', body: '{"a\\u0000":"b"}' }],
  ['JSON with a lone surrogate', { type: 'application/json', body: '{"x":"\\ud800"}' }],
];

/** A multipart body built the way a browser builds it, with any parts (repeated names allowed). */
export async function multipartOf(
  parts: ([string, string] | [string, { name: string; data: Uint8Array; type?: string }])[],
): Promise<{ type: string; body: Buffer }> {
  const form = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else
      form.append(
        name,
        new Blob([new Uint8Array(value.data)], { type: value.type ?? 'application/octet-stream' }),
        value.name,
      );
  }
  const request = new Request('http://local/', { method: 'POST', body: form });
  return { type: request.headers.get('content-type')!, body: Buffer.from(await request.arrayBuffer()) };
}

/** Collects answers that should never have been 5xx, with what was sent. */
export class FuzzLog {
  requests = 0;
  readonly failures: string[] = [];

  record(what: string, status: number, body: string) {
    this.requests++;
    if (status >= 500) this.failures.push(`${what} → ${status} ${body.slice(0, 300)}`);
  }

  summary(): string {
    return `${this.requests} requests, ${this.failures.length} answered 5xx${
      this.failures.length ? `:\n${this.failures.slice(0, 40).join('\n')}` : ''
    }`;
  }
}
