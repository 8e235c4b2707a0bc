import { type EmbeddedFile, type XmlElement, child, childrenNamed, textOf } from './xml.ts';

/**
 * What an OJS Native XML record says, read leniently (issue 26): OJS 3.3 to 3.5 and what 3.6 changes, whether
 * or not the file validates against its schema. Elements we do not know are kept out and reported (where, and
 * which); only what cannot be imported at all (an article without a title, a galley naming a file that is not
 * there) is refused, for that record alone.
 */

export const PKP_NS = 'http://pkp.sfu.ca';

/** Text per locale, as OJS keeps it (`en_US` in 3.3, `en` from 3.4): read with `inLocale`. */
export type Localized = Record<string, string>;

export type Notice = { path: string; line: number; message: string };

export type OjsFile = {
  /** The submission_file's id (what galleys name) and the stored file's. */
  id: number;
  fileId: number | null;
  name: string;
  genre: string;
  extension: string;
  mimeType: string;
  content: { embedded: EmbeddedFile } | { href: string } | null;
  path: string;
  line: number;
};

export type OjsAuthor = {
  ojsId: number | null;
  seq: number;
  given: Localized;
  family: Localized;
  affiliations: Array<{ name: Localized; ror: string | null }>;
  country: string;
  email: string;
  url: string;
  orcid: string;
  primaryContact: boolean;
};

export type OjsGalley = {
  ojsId: number | null;
  label: string;
  locale: string;
  /** The submission_file it shows, or a link elsewhere. */
  fileRef: number | null;
  remote: string | null;
  urlPath: string;
  path: string;
  line: number;
};

export type OjsPublication = {
  ojsId: number | null;
  /** Its version: OJS's `version`, or 3.6's major and minor as `major + minor / 1000`. */
  version: number;
  /** OJS: 1 queued, 3 published, 4 declined, 5 scheduled. */
  status: number;
  datePublished: string | null;
  sectionRef: string;
  seq: number;
  title: Localized;
  prefix: Localized;
  subtitle: Localized;
  abstract: Localized;
  keywords: Record<string, string[]>;
  licenseUrl: string;
  copyrightHolder: Localized;
  copyrightYear: number | null;
  rights: Localized;
  languages: string[];
  pages: string;
  doi: string | null;
  authors: OjsAuthor[];
  galleys: OjsGalley[];
  citations: string[];
  primaryContactId: number | null;
  urlPath: string;
  /** The issue it names (volume, number, year), when it names one. */
  issue: { volume: number | null; number: string; year: number | null } | null;
};

export type OjsArticle = {
  ojsId: number | null;
  doi: string | null;
  locale: string;
  /** The submission's status (3 published) and when it was submitted. */
  status: number | null;
  dateSubmitted: string | null;
  files: OjsFile[];
  publications: OjsPublication[];
  /** The publication readers see: the current one, else the latest published, else the latest. */
  current: OjsPublication;
  path: string;
  line: number;
};

export type OjsSection = { ref: string; ojsId: number | null; title: Localized; abbrev: Localized };

export type OjsIssue = {
  ojsId: number | null;
  doi: string | null;
  urlPath: string;
  published: boolean;
  volume: number | null;
  number: string;
  year: number | null;
  title: Localized;
  description: Localized;
  datePublished: string | null;
  sections: OjsSection[];
  cover: { name: string; embedded: EmbeddedFile } | null;
  articles: Array<OjsArticle | Refused>;
  path: string;
  line: number;
};

/** A record that cannot be imported, and why. */
export type Refused = { refused: string; path: string; line: number; ojsId: number | null; title: string };

export type Read<T> = { value: T; notices: Notice[] };

const KNOWN = {
  issue:
    'id description issue_identification date_published date_notified last_modified open_access_date sections covers issue_galleys articles',
  article: 'id submission_file publication',
  publication:
    'id title prefix subtitle abstract coverage type source rights licenseUrl copyrightHolder copyrightYear keywords agencies languages disciplines subjects authors article_galley citations issue_identification pages covers issueId',
  author:
    'givenname familyname affiliation rorAffiliation country email url orcid biography contributor_roles',
  submission_file: 'id creator description name publisher source sponsor subject submission_file_ref file',
};

/** Picks a text in `locale` (or its language), else the first non-empty one. */
export function inLocale(text: Localized, locale = 'en'): string {
  const language = locale.split(/[_-]/)[0];
  const keys = Object.keys(text);
  const key =
    keys.find((k) => k === locale) ??
    keys.find((k) => k.split(/[_-]/)[0] === language && text[k]) ??
    keys.find((k) => text[k]);
  return key ? text[key] : '';
}

const int = (s: string | undefined): number | null => {
  if (s === undefined) return null;
  const t = s.trim();
  return /^-?\d{1,9}$/.test(t) ? Number(t) : null;
};

/** A date as OJS writes it (`2024-06-15` or `2024-06-15 10:00:00`), as `YYYY-MM-DD`; null when not a date. */
export function ojsDate(s: string | undefined): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec((s ?? '').trim());
  if (!m) return null;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== m[0] ? null : m[0];
}

class Reader {
  notices: Notice[] = [];

  warn(el: XmlElement, message: string) {
    this.notices.push({ path: el.path, line: el.line, message });
  }

  unknown(el: XmlElement, known: string) {
    const names = new Set(known.split(' '));
    for (const c of el.children) {
      if (!names.has(c.name))
        this.warn(c, `<${c.name}> in <${el.name}> is not something OJS exports: left out.`);
      else if (c.ns && c.ns !== PKP_NS)
        this.warn(c, `<${c.name}> is in another namespace (${c.ns}): left out.`);
    }
  }

  localized(el: XmlElement, name: string): Localized {
    const out: Localized = {};
    for (const c of childrenNamed(el, name)) {
      const text = textOf(c);
      if (!text) continue;
      out[c.attrs.locale || ''] ??= text;
    }
    return out;
  }

  ids(el: XmlElement): { internal: number | null; doi: string | null } {
    let internal: number | null = null;
    let doi: string | null = null;
    for (const id of childrenNamed(el, 'id')) {
      const type = id.attrs.type ?? 'internal';
      if (type === 'internal') internal = int(id.text);
      else if (type === 'doi') {
        doi = normaliseDoi(textOf(id));
        if (!doi) this.warn(id, `"${textOf(id)}" is not a DOI: left out.`);
      }
    }
    return { internal, doi };
  }

  file(el: XmlElement): OjsFile {
    this.unknown(el, KNOWN.submission_file);
    const files = childrenNamed(el, 'file');
    if (files.length > 1) this.warn(el, 'It holds several revisions of its file: the last is imported.');
    const f = files.at(-1);
    let content: OjsFile['content'] = null;
    let mimeType = '';
    const embed = f && child(f, 'embed');
    const href = f && child(f, 'href');
    if (embed?.file) {
      content = { embedded: embed.file };
      mimeType = embed.attrs.mime_type ?? '';
    } else if (href?.attrs.src) {
      content = { href: href.attrs.src };
      mimeType = href.attrs.mime_type ?? '';
    }
    const names = this.localized(el, 'name');
    return {
      id: int(el.attrs.id) ?? -1,
      fileId: int(f?.attrs.id ?? el.attrs.file_id),
      name: inLocale(names) || `file-${el.attrs.id ?? ''}`,
      genre: el.attrs.genre ?? '',
      extension: (f?.attrs.extension ?? '').toLowerCase(),
      mimeType,
      content,
      path: el.path,
      line: el.line,
    };
  }

  author(el: XmlElement, index: number): OjsAuthor {
    this.unknown(el, KNOWN.author);
    const affiliations: OjsAuthor['affiliations'] = [];
    for (const c of el.children) {
      if (c.name === 'affiliation') {
        // 3.3/3.4: the text itself; 3.5: <name locale> inside.
        const names = childrenNamed(c, 'name').length
          ? this.localized(c, 'name')
          : { [c.attrs.locale || '']: textOf(c) };
        if (Object.values(names).some(Boolean)) affiliations.push({ name: names, ror: null });
      } else if (c.name === 'rorAffiliation') {
        affiliations.push({ name: this.localized(c, 'name'), ror: rorOf(textOf(child(c, 'ror'))) });
      }
    }
    const orcidText = textOf(child(el, 'orcid'));
    const orcid = orcidOf(orcidText);
    if (orcidText && !orcid) this.warn(child(el, 'orcid')!, `"${orcidText}" is not an ORCID iD: left out.`);
    return {
      ojsId: int(el.attrs.id),
      seq: int(el.attrs.seq) ?? index,
      given: this.localized(el, 'givenname'),
      family: this.localized(el, 'familyname'),
      affiliations,
      country: textOf(child(el, 'country')).toUpperCase(),
      email: textOf(child(el, 'email')),
      url: textOf(child(el, 'url')),
      orcid: orcid ?? '',
      primaryContact: el.attrs.primary_contact === 'true' || el.attrs.primary_contact === '1',
    };
  }

  publication(el: XmlElement): OjsPublication {
    this.unknown(el, KNOWN.publication);
    const { internal, doi } = this.ids(el);
    const keywords: Record<string, string[]> = {};
    for (const k of childrenNamed(el, 'keywords')) {
      const words = childrenNamed(k, 'keyword')
        // 3.5.0-4 on: <keyword><name>…</name></keyword>; before: the text.
        .map((w) => textOf(child(w, 'name')) || textOf(w))
        .filter(Boolean);
      const locale = k.attrs.locale ?? '';
      keywords[locale] = [...(keywords[locale] ?? []), ...words];
    }
    const authors = childrenNamed(child(el, 'authors') ?? el, 'author')
      .map((a, i) => this.author(a, i))
      .sort((a, b) => a.seq - b.seq);
    const galleys = childrenNamed(el, 'article_galley').map((g) => {
      const ref = child(g, 'submission_file_ref');
      const remote = child(g, 'remote');
      return {
        ojsId: this.ids(g).internal,
        label: inLocale(this.localized(g, 'name')) || 'Galley',
        locale: g.attrs.locale ?? '',
        fileRef: int(ref?.attrs.id),
        remote: remote?.attrs.src ?? null,
        urlPath: g.attrs.url_path ?? '',
        path: g.path,
        line: g.line,
      };
    });
    const citations = childrenNamed(el, 'citations').flatMap((c) =>
      childrenNamed(c, 'citation').map(textOf).filter(Boolean),
    );
    const ident = child(el, 'issue_identification');
    const languages = childrenNamed(el, 'languages').flatMap((l) => childrenNamed(l, 'language').map(textOf));
    return {
      ojsId: internal ?? int(el.attrs.id),
      // OJS 3.6 writes the version in parts (version_major, version_minor): 1.1 comes after 1.0, before 2.0.
      version:
        int(el.attrs.version) ??
        (int(el.attrs.version_major) ?? 1) + Math.min(int(el.attrs.version_minor) ?? 0, 999) / 1000,
      status: int(el.attrs.status) ?? 1,
      datePublished: ojsDate(el.attrs.date_published),
      sectionRef: el.attrs.section_ref ?? '',
      seq: int(el.attrs.seq) ?? 0,
      title: this.localized(el, 'title'),
      prefix: this.localized(el, 'prefix'),
      subtitle: this.localized(el, 'subtitle'),
      abstract: this.localized(el, 'abstract'),
      keywords,
      licenseUrl: textOf(child(el, 'licenseUrl')),
      copyrightHolder: this.localized(el, 'copyrightHolder'),
      copyrightYear: int(textOf(child(el, 'copyrightYear'))),
      rights: this.localized(el, 'rights'),
      languages: languages.filter(Boolean),
      pages: textOf(child(el, 'pages')),
      doi,
      authors,
      galleys,
      citations,
      primaryContactId: int(el.attrs.primary_contact_id),
      urlPath: el.attrs.url_path ?? '',
      issue: ident
        ? {
            volume: int(textOf(child(ident, 'volume'))),
            number: textOf(child(ident, 'number')),
            year: int(textOf(child(ident, 'year'))),
          }
        : null,
    };
  }

  article(el: XmlElement): OjsArticle | Refused {
    this.unknown(el, KNOWN.article);
    const { internal, doi } = this.ids(el);
    const publications = childrenNamed(el, 'publication').map((p) => this.publication(p));
    const titleOf = (p?: OjsPublication) => (p ? inLocale(p.title, el.attrs.locale) : '');
    const refuse = (why: string): Refused => ({
      refused: why,
      path: el.path,
      line: el.line,
      ojsId: internal,
      title: titleOf(publications.at(-1)),
    });
    if (!publications.length) return refuse('It has no <publication>: there is nothing to show.');
    const currentId = int(el.attrs.current_publication_id);
    const byVersion = [...publications].sort((a, b) => a.version - b.version);
    const current =
      publications.find((p) => currentId !== null && p.ojsId === currentId) ??
      byVersion.filter((p) => p.status === 3).at(-1) ??
      byVersion.at(-1)!;
    if (!titleOf(current)) return refuse('Its publication has no title.');
    const files = childrenNamed(el, 'submission_file').map((f) => this.file(f));
    const byId = new Map(files.map((f) => [f.id, f]));
    const byFileId = new Map(files.filter((f) => f.fileId !== null).map((f) => [f.fileId!, f]));
    for (const g of current.galleys) {
      if (g.fileRef === null) {
        if (!g.remote) this.warn(el, `The galley “${g.label}” names no file and no link: left out.`);
        continue;
      }
      // Galleys name a submission_file by its id; some exports write the stored file's id instead.
      const f = byId.get(g.fileRef) ?? byFileId.get(g.fileRef);
      if (!f)
        return refuse(
          `The galley “${g.label}” names the file ${g.fileRef}, which the article does not hold.`,
        );
      if (!f.content)
        return refuse(`The file “${f.name}” of the galley “${g.label}” has neither <embed> nor <href>.`);
      if ('embedded' in f.content && f.content.embedded.error) {
        return refuse(
          `The file “${f.name}” of the galley “${g.label}” cannot be read: ${f.content.embedded.error}.`,
        );
      }
      g.fileRef = f.id;
    }
    return {
      ojsId: internal,
      doi: doi ?? current.doi,
      locale: el.attrs.locale ?? '',
      status: int(el.attrs.status),
      dateSubmitted: ojsDate(el.attrs.date_submitted),
      files,
      publications,
      current,
      path: el.path,
      line: el.line,
    };
  }

  issue(el: XmlElement): OjsIssue {
    this.unknown(el, KNOWN.issue);
    const { internal, doi } = this.ids(el);
    const ident = child(el, 'issue_identification');
    const coverEl = child(el, 'covers') && childrenNamed(child(el, 'covers')!, 'cover')[0];
    const coverFile = coverEl && child(coverEl, 'embed')?.file;
    if (coverFile?.error)
      this.warn(coverEl!, `The cover image cannot be read (${coverFile.error}): left out.`);
    if (child(el, 'issue_galleys')?.children.length) {
      this.warn(child(el, 'issue_galleys')!, 'Issue galleys (a whole issue as one file) are not imported.');
    }
    return {
      ojsId: internal,
      doi,
      urlPath: el.attrs.url_path ?? '',
      published: el.attrs.published === '1' || el.attrs.published === 'true',
      volume: int(textOf(ident && child(ident, 'volume'))),
      number: textOf(ident && child(ident, 'number')),
      year: int(textOf(ident && child(ident, 'year'))),
      title: ident ? this.localized(ident, 'title') : {},
      description: this.localized(el, 'description'),
      datePublished: ojsDate(textOf(child(el, 'date_published'))),
      sections: childrenNamed(child(el, 'sections') ?? el, 'section').map((s) => ({
        ref: s.attrs.ref ?? '',
        ojsId: this.ids(s).internal,
        title: this.localized(s, 'title'),
        abbrev: this.localized(s, 'abbrev'),
      })),
      cover:
        coverFile && !coverFile.error
          ? { name: textOf(child(coverEl!, 'cover_image')) || 'cover', embedded: coverFile }
          : null,
      articles: childrenNamed(child(el, 'articles') ?? el, 'article').map((a) => this.article(a)),
      path: el.path,
      line: el.line,
    };
  }
}

/** An `<issue>` record with its articles. */
export function readIssue(el: XmlElement): Read<OjsIssue> {
  const r = new Reader();
  return { value: r.issue(el), notices: r.notices };
}

/** An `<article>` record of an `<articles>` export (no issue around it). */
export function readArticle(el: XmlElement): Read<OjsArticle | Refused> {
  const r = new Reader();
  return { value: r.article(el), notices: r.notices };
}

export const isRefused = (a: OjsArticle | Refused): a is Refused => 'refused' in a;

/** A DOI as `10.x/y`, from a bare DOI or a doi.org link; null when it is not one. */
export function normaliseDoi(text: string): string | null {
  const bare = text.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i, '');
  return /^10\.\d{4,9}\/\S+$/.test(bare) ? bare : null;
}

/** An ORCID iD, bare (`0000-0002-1825-0097`), from a bare iD or an orcid.org link. */
export function orcidOf(text: string): string | null {
  const m = /^(?:https?:\/\/(?:www\.)?orcid\.org\/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$/i.exec(text.trim());
  return m ? m[1].toUpperCase() : null;
}

/** A ROR id as its link (`https://ror.org/02crff812`). */
export function rorOf(text: string): string | null {
  const m = /^(?:https?:\/\/ror\.org\/)?(0[a-z0-9]{6}\d{2})$/i.exec(text.trim());
  return m ? `https://ror.org/${m[1].toLowerCase()}` : null;
}
