import { Marked, type Token, type Tokens } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { currencyName, ruleLines } from '../../common/apc.ts';
import type { JournalSettings } from '../../common/journal.ts';

/**
 * The journal pages' Markdown, turned into safe HTML on the server (the browser never gets a Markdown
 * parser). Pages are written by the editorial office, but what they write is still treated as untrusted:
 * the HTML passes an allow-list sanitizer, so a pasted `<script>` or `onerror=` never reaches a reader.
 */

export interface RenderedPage {
  /** The page's heading, from its leading `# ...` line (plain text). */
  title: string;
  /** The first paragraph after the heading, as plain text, shortened for `<meta name="description">`. */
  description: string;
  /** Sanitized HTML of everything after the heading; its headings start at h2 and carry ids. */
  html: string;
}

// ---------- Placeholders ----------

/**
 * Values for `{{journal.…}}` placeholders: every text or number field of the journal settings by its path
 * (`journal.name`, `journal.license.url`, …) and a few derived ones. `{{journal.frequency | lower}}` gives
 * "quarterly". A placeholder nobody knows is left as written, so a typo shows on the page, not a blank.
 */
export function placeholderValues(journal: JournalSettings): Map<string, string> {
  const values = new Map<string, string>();
  const walk = (prefix: string, obj: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(obj)) {
      const path = `${prefix}.${key}`;
      if (typeof value === 'string' || typeof value === 'number') values.set(path, String(value));
      else if (value && typeof value === 'object' && !Array.isArray(value)) walk(path, value as Record<string, unknown>);
    }
  };
  walk('journal', journal as unknown as Record<string, unknown>);
  // A new journal has no ISSN and no areas until its editors give them (decision 0062): its pages say so.
  if (!journal.issnOnline) values.set('journal.issnOnline', 'not yet assigned');
  values.set('journal.areas', journal.areas.join(', ') || 'not yet listed');
  values.set(
    'journal.areasList',
    journal.areas.length ? journal.areas.map((area) => `- ${area}`).join('\n') : '- Not yet listed',
  );
  values.set('journal.languageName', languageName(journal.language));
  // The article processing charge's rule, from the settings the invoices use (decision 0063).
  const apc = journal.apc;
  values.set(
    'apc.rule',
    [
      '| Manuscript first submitted | Article processing charge |',
      '| --- | --- |',
      ...ruleLines(apc).map((line) => `| ${line.when} | **${line.charge}** |`),
    ].join('\n'),
  );
  values.set('apc.currency', apc.currency);
  values.set('apc.currencyName', currencyName(apc.currency));
  values.set('apc.paymentInstructions', apc.paymentInstructions);
  return values;
}

export const PLACEHOLDER_FILTERS: Record<string, (s: string) => string> = {
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
};

const PLACEHOLDER = /\{\{\s*([A-Za-z][\w.]*)\s*(?:\|\s*(\w+)\s*)?\}\}/g;

export function fillPlaceholders(markdown: string, values: Map<string, string>): string {
  return markdown.replace(PLACEHOLDER, (whole, name: string, filter: string | undefined) => {
    const value = values.get(name);
    if (value === undefined) return whole;
    if (!filter) return value;
    const apply = PLACEHOLDER_FILTERS[filter];
    return apply ? apply(value) : whole;
  });
}

function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

// ---------- Markdown ----------

/** "Peer-review process" → "peer-review-process": the anchor a heading gets. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
  return slug || 'section';
}

/** The words of inline tokens, without markup. */
function plainText(tokens: Token[] | undefined): string {
  if (!tokens) return '';
  return tokens
    .map((t) => {
      if (t.type === 'br') return ' ';
      if (t.type === 'html') return '';
      if ('tokens' in t && t.tokens) return plainText(t.tokens);
      return 'text' in t ? decodeEntities(String(t.text)) : '';
    })
    .join('');
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Cuts at a word boundary near `max` characters. */
function shorten(text: string, max = 165): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:.]+$/, '')}…`;
}

/** Links to files a reader downloads rather than reads in the browser. */
const DOWNLOAD = /\.(pdf|docx?|rtf|odt|tex|zip)(?:[?#].*)?$/i;

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd',
    'strong', 'em', 'del', 'sup', 'sub', 'span', 'a', 'img',
    'table', 'thead', 'tbody', 'tr', 'th', 'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'class'],
    p: ['class'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    h2: ['id'], h3: ['id'], h4: ['id'], h5: ['id'], h6: ['id'],
    ol: ['start'],
    th: ['align', 'scope'],
    td: ['align'],
    span: ['class'],
  },
  allowedClasses: { span: ['badge'], p: ['download'], a: ['download__link'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Markdown tables only have column headers: scope="col" has each cell announced with its column.
  transformTags: {
    th: (tagName, attribs) => ({ tagName, attribs: { ...attribs, scope: attribs.scope === 'row' ? 'row' : 'col' } }),
  },
};

/** Sanitizes HTML with the pages' allow-list. Exported for tests and for any other editor-written HTML. */
export function sanitize(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/**
 * Renders one page's Markdown: the leading `# Heading` becomes the title (the layout renders it as the
 * page's one h1), the rest becomes HTML whose headings start at h2, each with a unique id.
 */
export function renderPage(markdown: string): RenderedPage {
  const used = new Map<string, number>();
  const uniqueId = (text: string) => {
    const base = slugify(text);
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    return n ? `${base}-${n + 1}` : base;
  };

  const marked = new Marked({ gfm: true, breaks: false });
  marked.use({
    renderer: {
      // A paragraph that is only a link to a file (PDF, Word, LaTeX, ...) is a download: shown as a button.
      paragraph({ tokens }: Tokens.Paragraph) {
        const [only] = tokens;
        if (tokens.length !== 1 || only.type !== 'link' || !DOWNLOAD.test((only as Tokens.Link).href)) return false;
        return `<p class="download">${this.parser.parseInline(tokens).replace(/^<a /, '<a class="download__link" ')}</p>\n`;
      },
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${uniqueId(plainText(tokens))}">${inner}</h${depth}>\n`;
      },
    },
  });

  const tokens = marked.lexer(markdown);
  let title = '';
  const first = tokens.findIndex((t) => t.type !== 'space');
  if (first >= 0 && tokens[first].type === 'heading' && (tokens[first] as Tokens.Heading).depth === 1) {
    title = plainText((tokens[first] as Tokens.Heading).tokens).trim();
    tokens.splice(first, 1);
  }

  // The page's own h1 comes from the layout: any further level-1 headings move down one level.
  const headings = tokens.filter((t): t is Tokens.Heading => t.type === 'heading');
  if (headings.some((h) => h.depth === 1)) for (const h of headings) h.depth = Math.min(h.depth + 1, 6);

  const paragraph = tokens.find((t): t is Tokens.Paragraph => t.type === 'paragraph');
  const description = paragraph ? shorten(plainText(paragraph.tokens)) : title;

  const html = sanitize(marked.parser(tokens));
  return { title, description, html };
}
