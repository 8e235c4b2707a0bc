import { ODD_BODIES, ODD_IDS, ODD_JSON, ODD_STRINGS, multipartOf } from './values.ts';

/**
 * Requests that try every route of the OpenAPI document with odd inputs, one field at a time, the others
 * plausible: odd ids in the path, odd strings and repeated names in the query, wrong types, huge, NUL and
 * lone-surrogate strings in each body field, bodies of the wrong type, odd multipart bodies.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  default?: unknown;
};

interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }[];
  json?: JsonSchema;
  multipart?: JsonSchema;
}

export interface FuzzRequest {
  what: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export function operations(doc: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        parameters?: Operation['parameters'];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      };
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        json: op.requestBody?.content['application/json']?.schema,
        multipart: op.requestBody?.content['multipart/form-data']?.schema,
      });
    }
  }
  return ops;
}

/** A plausible value for a field, from its schema and its name. */
export function plausible(name: string, schema: JsonSchema = {}): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return plausible(name, options.find((o) => o.type !== 'null') ?? options[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const lower = name.toLowerCase();
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (type === 'boolean') return true;
  if (type === 'array') return [plausible(name, schema.items)];
  if (type === 'object') return plausibleObject(schema);
  if (schema.format === 'email' || lower.includes('email')) return 'fuzz@example.org';
  if (lower === 'doi') return '10.1234/fuzz.1';
  if (lower === 'pages') return '1-10';
  if (lower === 'authors') {
    return JSON.stringify([
      { name: 'Ada Fuzz', email: 'ada@example.org', affiliation: 'Fuzz University', superscript: '1' },
    ]);
  }
  if (lower.includes('password')) return 'password-123456';
  if (lower === 'username') return 'fuzz_user';
  if (lower.includes('orcid')) return '0000-0002-1825-0097';
  if (lower.includes('date') || lower === 'from' || lower === 'to' || lower.includes('until'))
    return '2026-01-15';
  if (lower.includes('url')) return 'https://example.org/';
  if (lower.includes('phone') || lower.includes('contact')) return '+44 20 7946 0000';
  if (lower.endsWith('id') || lower === 'id') return '1';
  return 'Plausible text';
}

function plausibleObject(schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, plausible(k, s)]));
}

function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? '1');
}

function withQuery(url: string, query: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** Every odd request for one operation. */
export async function fuzzRequests(op: Operation): Promise<FuzzRequest[]> {
  const out: FuzzRequest[] = [];
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const baseQuery = Object.fromEntries(
    queryParams.filter((p) => p.required).map((p) => [p.name, String(plausible(p.name, p.schema))]),
  );
  const base = (what: string, extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
    what: `${op.method} ${op.path}: ${what}`,
    method: op.method,
    url: withQuery(fill(op.path), baseQuery),
    headers: {},
    ...extra,
  });

  for (const p of pathParams) {
    for (const [label, id] of ODD_IDS) {
      out.push(
        base(`path ${p.name} = ${label}`, { url: withQuery(fill(op.path, { [p.name]: id }), baseQuery) }),
      );
    }
  }
  for (const p of queryParams) {
    const url = (value: string | string[]) => withQuery(fill(op.path), { ...baseQuery, [p.name]: value });
    for (const [label, text] of ODD_STRINGS) {
      if (label === 'huge') continue; // an address that long is refused by the HTTP parser itself
      out.push(base(`query ${p.name} = ${label}`, { url: url(text) }));
    }
    out.push(base(`query ${p.name} = 5,000 characters`, { url: url('q'.repeat(5000)) }));
    for (const [label, id] of ODD_IDS)
      out.push(
        base(`query ${p.name} = id ${label}`, {
          url: url(decodeURIComponent(id.replace(/%(?![0-9a-f]{2})/gi, '%25'))),
        }),
      );
    out.push(base(`query ${p.name} repeated`, { url: url(['1', '2']) }));
  }

  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  if (op.json) {
    const valid = plausibleObject(op.json);
    const json = (what: string, body: unknown) =>
      base(what, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    out.push(json('plausible body', valid));
    for (const field of Object.keys(op.json.properties ?? {})) {
      for (const [label, text] of ODD_STRINGS)
        out.push(json(`body ${field} = ${label}`, { ...valid, [field]: text }));
      for (const [label, value] of ODD_JSON)
        out.push(json(`body ${field} = ${label}`, { ...valid, [field]: value }));
      const { [field]: _, ...without } = valid;
      out.push(json(`body without ${field}`, without));
    }
    out.push(json('extra fields', { ...valid, unexpected: 'x', constructor: { prototype: 1 } }));
  }
  if (hasBody) {
    for (const [label, { type, body }] of ODD_BODIES) {
      out.push(base(`body: ${label}`, { headers: type ? { 'content-type': type } : {}, body }));
    }
  }
  if (op.multipart) {
    const props = op.multipart.properties ?? {};
    const fileFields = Object.entries(props)
      .filter(([, s]) => s.format === 'binary' || (s as { contentMediaType?: string }).contentMediaType)
      .map(([k]) => k);
    const textFields = Object.keys(props).filter((k) => !fileFields.includes(k));
    const texts = (over: Record<string, string> = {}): [string, string][] =>
      Object.entries({
        ...Object.fromEntries(textFields.map((k) => [k, String(plausible(k, props[k]))])),
        ...over,
      });
    const files = (data: Uint8Array, name: string) =>
      fileFields.map((f): [string, { name: string; data: Uint8Array }] => [f, { name, data }]);
    const send = async (what: string, parts: Parameters<typeof multipartOf>[0]) => {
      const { type, body } = await multipartOf(parts);
      out.push(base(what, { headers: { 'content-type': type }, body }));
    };
    await send('multipart: plausible with a tiny PDF', [...texts(), ...files(PDF, 'paper.pdf')]);
    await send('multipart: a PNG named .pdf', [...texts(), ...files(PNG, 'paper.pdf')]);
    await send('multipart: empty files', [...texts(), ...files(new Uint8Array(0), '')]);
    await send('multipart: every file twice', [...texts(), ...files(PDF, 'a.pdf'), ...files(PDF, 'b.pdf')]);
    await send('multipart: a file in an unknown field', [
      ...texts(),
      ['intruder', { name: 'x.exe', data: PNG }],
    ]);
    await send('multipart: an RTL file name', [...texts(), ...files(PDF, 'x\u202efdp.exe.pdf')]);
    await send('multipart: a NUL file name', [...texts(), ...files(PDF, 'a\u0000.pdf')]);
    for (const field of textFields) {
      for (const [label, text] of ODD_STRINGS) {
        if (label === 'huge') continue;
        await send(`multipart ${field} = ${label}`, [
          ...texts({ [field]: text }),
          ...files(PDF, 'paper.pdf'),
        ]);
      }
    }
    await send('multipart: a NUL in a field name', [
      ['a\u0000b', 'x'],
      ...texts(),
      ...files(PDF, 'paper.pdf'),
    ]);
    await send('multipart: 500 fields', [
      ...texts(),
      ...Array.from({ length: 500 }, (_, i): [string, string] => [`f${i}`, 'x']),
    ]);
  }
  return out;
}
