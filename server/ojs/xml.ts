import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import sax from 'sax';

/**
 * A streaming reader of OJS's XML exports (issue 26): the file is read chunk by chunk and handed out one record
 * at a time (an `<issue>`, an `<article>`, a `<user>`), each as a small element tree, while the contents of
 * every `<embed>` (base64, often a whole PDF) go straight to a file of their own, decoded as they arrive and
 * hashed on the way. Memory is bounded by the largest record's metadata, never by the file or the files in it:
 * sax hands long text over in pieces of at most 64 KiB.
 *
 * What an XML file can do to its reader is refused before it happens: a DOCTYPE (so no entity is ever
 * declared, and none expanded: no billion laughs, no external entity reaching /etc/passwd), an unknown entity,
 * nesting deeper than any export has, and text outside an `<embed>` longer than any metadata is.
 */

export type XmlElement = {
  /** The local name (`issue`, `title`, …); `ns` its namespace URI ('' for none). */
  name: string;
  ns: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The text directly inside it (an `<embed>`'s goes to `file` instead). */
  text: string;
  /** Where it starts in the file (1-based line), and its path from the root, for messages. */
  line: number;
  path: string;
  file?: EmbeddedFile;
};

/** An `<embed>`'s decoded bytes, in a file of their own; `error` when its text is not base64. */
export type EmbeddedFile = { path: string; size: number; sha256: string; error?: string };

export type XmlRoot = { name: string; ns: string; attrs: Record<string, string> };

/** A refusal of the whole file, with where it happened. */
export class XmlReadError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
    readonly where: string | null = null,
  ) {
    super(message);
    this.name = 'XmlReadError';
  }
}

export type ReadOptions = {
  /** Local names of the records handed out whole (not inside another record). */
  records: ReadonlySet<string>;
  /** Where the `<embed>` files go (a folder of the import's own; the caller removes it). */
  tmpDir: string;
  /** Called with the root element as soon as it opens (to refuse a wrong one early). */
  onRoot?: (root: XmlRoot) => void;
  /** Text outside an `<embed>`, per element: an abstract or a reference list is far below it. */
  maxText?: number;
  maxDepth?: number;
};

const MAX_TEXT = 4 * 1024 * 1024;
const MAX_DEPTH = 48;

/** base64 decoded as it streams: whitespace skipped, anything else outside the alphabet refused. */
export class Base64Stream {
  private carry = '';
  private ended = false;
  error: string | null = null;

  /** The bytes of `text` that make whole groups of four (the rest waits for the next piece). */
  push(text: string): Buffer | null {
    if (this.error) return null;
    const clean = text.replace(/[\s]+/g, '');
    if (!clean) return null;
    if (!/^[A-Za-z0-9+/=]*$/.test(clean)) {
      this.error = 'its contents are not base64';
      return null;
    }
    if (this.ended) {
      this.error = 'base64 goes on after its padding';
      return null;
    }
    const all = this.carry + clean;
    const whole = all.length - (all.length % 4);
    this.carry = all.slice(whole);
    const body = all.slice(0, whole);
    const pad = body.indexOf('=');
    if (pad !== -1) {
      // Padding only at the very end of the last group.
      if (pad < body.length - 2 || !/^=*$/.test(body.slice(pad)) || this.carry) {
        this.error = 'base64 padding in the middle of its contents';
        return null;
      }
      this.ended = true;
    }
    return Buffer.from(body, 'base64');
  }

  /** Checks nothing was left over. */
  end(): void {
    if (!this.error && this.carry) this.error = 'its base64 ends in the middle of a group';
  }
}

class FileSink {
  private fd: number;
  private hash: Hash = createHash('sha256');
  private size = 0;
  private decoder = new Base64Stream();

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(text: string) {
    const bytes = this.decoder.push(text);
    if (!bytes?.length) return;
    writeSync(this.fd, bytes);
    this.hash.update(bytes);
    this.size += bytes.length;
  }

  end(): EmbeddedFile {
    this.decoder.end();
    closeSync(this.fd);
    const file: EmbeddedFile = { path: this.path, size: this.size, sha256: this.hash.digest('hex') };
    if (this.decoder.error) {
      file.error = this.decoder.error;
      rmSync(this.path, { force: true });
    }
    return file;
  }

  abandon() {
    try {
      closeSync(this.fd);
    } catch {}
    rmSync(this.path, { force: true });
  }
}

type Open = { el: XmlElement; counts: Map<string, number>; textSize: number; sink?: FileSink };

/**
 * Reads `source` (the file's bytes, in chunks) and yields each record whole, in the file's order. Throws an
 * `XmlReadError` for a file that is not well-formed XML (with its line), declares a DOCTYPE, or ends early.
 * The caller removes a record's embedded files once it is done with them (`removeFiles`).
 */
export async function* readRecords(
  source: AsyncIterable<Buffer | string>,
  options: ReadOptions,
): AsyncGenerator<XmlElement> {
  const maxText = options.maxText ?? MAX_TEXT;
  const maxDepth = options.maxDepth ?? MAX_DEPTH;
  const parser = sax.parser(true, { xmlns: true, position: true });
  const stack: Open[] = [];
  const ready: XmlElement[] = [];
  let recordDepth = -1;
  let sawRoot = false;
  let rootName = '';
  let closedRoot = false;
  let embeds = 0;
  let failure: XmlReadError | null = null;

  const where = () => stack.map((o) => o.el.path.split('/').pop()).join('/') || null;
  const fail = (message: string) => {
    if (!failure) failure = new XmlReadError(message, parser.line + 1, where());
    throw failure;
  };

  parser.ondoctype = () =>
    fail('The file declares a DOCTYPE: an OJS export has none, and entities it might declare are not read.');
  parser.onopentag = (tag) => {
    const t = tag as sax.QualifiedTag;
    if (stack.length >= maxDepth) fail(`Elements are nested more than ${maxDepth} deep.`);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(t.attributes)) {
      if (a.prefix === 'xmlns' || a.name === 'xmlns') continue;
      attrs[a.local || a.name] = a.value;
    }
    const parent = stack.at(-1);
    const index = (parent?.counts.get(t.local) ?? 0) + 1;
    parent?.counts.set(t.local, index);
    const el: XmlElement = {
      name: t.local,
      ns: t.uri,
      attrs,
      children: [],
      text: '',
      line: parser.line + 1,
      path: parent ? `${parent.el.path}/${t.local}${index > 1 ? `[${index}]` : ''}` : t.local,
    };
    if (!sawRoot) {
      sawRoot = true;
      rootName = t.local;
      options.onRoot?.({ name: t.local, ns: t.uri, attrs });
    }
    const open: Open = { el, counts: new Map(), textSize: 0 };
    if (recordDepth === -1 && options.records.has(t.local)) recordDepth = stack.length;
    if (recordDepth !== -1) {
      parent && stack.length > recordDepth && parent.el.children.push(el);
      if (t.local === 'embed') {
        embeds += 1;
        open.sink = new FileSink(path.join(options.tmpDir, `embed-${embeds}`));
      }
    }
    stack.push(open);
  };
  const ontext = (text: string) => {
    const open = stack.at(-1);
    // Outside a record (between the root's children) text is only layout.
    if (!open || recordDepth === -1) return;
    if (open.sink) {
      open.sink.write(text);
      return;
    }
    open.textSize += text.length;
    if (open.textSize > maxText) fail(`The text of <${open.el.name}> is longer than ${maxText} characters.`);
    open.el.text += text;
  };
  parser.ontext = ontext;
  parser.oncdata = ontext;
  parser.onclosetag = () => {
    const open = stack.pop();
    if (!open) return;
    if (open.sink) open.el.file = open.sink.end();
    if (stack.length === recordDepth) {
      ready.push(open.el);
      recordDepth = -1;
    }
    if (stack.length === 0) closedRoot = true;
  };
  parser.onerror = (err) => {
    const first = String(err.message).split('\n')[0];
    fail(sawRoot ? `The file is not well-formed XML: ${first}.` : `The file is not XML: ${first}.`);
  };

  const decoder = new StringDecoder('utf8');
  let first = true;
  try {
    for await (const chunk of source) {
      let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      if (first && text) {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      if (closedRoot && text.trim()) fail('There is more after the root element closes.');
      parser.write(text);
      while (ready.length) yield ready.shift()!;
    }
    const rest = decoder.end();
    if (rest) parser.write(rest);
    if (!sawRoot) throw new XmlReadError('The file is empty: it holds no XML element.', null);
    if (!closedRoot) {
      throw new XmlReadError(
        `The file ends before <${rootName}> is closed: it was cut off (line ${parser.line + 1}).`,
        parser.line + 1,
        where(),
      );
    }
    parser.close();
    while (ready.length) yield ready.shift()!;
  } finally {
    for (const open of stack) open.sink?.abandon();
    for (const el of ready) removeFiles(el);
  }
}

/** Removes the embedded files a record's tree holds (once it is imported, or refused). */
export function removeFiles(el: XmlElement): void {
  if (el.file) rmSync(el.file.path, { force: true });
  for (const child of el.children) removeFiles(child);
}

/** The children named `name` (local name). */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name);
}

/** An element's text, trimmed ('' when absent). */
export function textOf(el: XmlElement | undefined): string {
  return el ? el.text.trim() : '';
}

/**
 * How many elements named `names` a file holds, by a scan of its bytes (no parsing: base64 has no `<`), so a
 * progress bar knows its total before the import starts. An element inside a comment or CDATA counts too: the
 * total is an estimate the progress never passes.
 */
export async function countElements(
  source: AsyncIterable<Buffer>,
  names: readonly string[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const patterns = names.map((n) => ({ n, re: new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${n}[\\s/>]`, 'g') }));
  const longest = Math.max(...names.map((n) => n.length)) + 80;
  let tail = '';
  for await (const chunk of source) {
    const text = tail + chunk.toString('latin1');
    // Matches starting in the kept tail were counted with the chunk before: count only those starting after it.
    const from = tail.length;
    for (const { n, re } of patterns) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m.index + m[0].length > from) counts[n] += 1;
      }
    }
    tail = text.slice(-longest);
  }
  return counts;
}
