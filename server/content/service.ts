import {
  BOARD_ROLES,
  BOARD_ROLE_LABELS,
  type BoardMember,
  type BoardRole,
  EDITORIAL_BOARD_KEY,
  type EditorialBoard,
  type PageSlug,
  SPECIAL_ISSUES_KEY,
  type SpecialIssue,
  type SpecialIssueStatus,
  type SpecialIssueWithStatus,
  editorialBoardSchema,
  pageKey,
  pageMarkdownSchema,
  specialIssuesSchema,
} from '../../common/content.ts';
import type { JournalSettings } from '../../common/journal.ts';
import type { Tx } from '../db/client.ts';
import { copyrightFormPdf } from '../seed/pdf.ts';
import type { SettingsService } from '../settings/service.ts';
import { type RenderedPage, fillPlaceholders, placeholderValues, renderPage } from './markdown.ts';
import { TEMPLATE_FILES, type TemplateFile, isTemplateFile, templateFilename } from './templates.ts';

export interface ContentPage extends RenderedPage {
  slug: PageSlug;
}

export interface BoardSection {
  role: BoardRole;
  heading: string;
  members: BoardMember[];
}

export interface Download {
  bytes: Uint8Array;
  filename: string;
  mediaType: string;
}

/** Whether a call is still open at `now`: it is until the end of its deadline day, in UTC. */
export function specialIssueStatus(deadline: string, now: Date): SpecialIssueStatus {
  const [y, m, d] = deadline.split('-').map(Number);
  return now.getTime() < Date.UTC(y, m - 1, d + 1) ? 'Open' : 'Closed';
}

/**
 * The journal's pages, editorial board and special issues, as the editorial office keeps them in the
 * settings table (see common/content.ts for the keys and shapes). Pages are Markdown with `{{journal.…}}`
 * placeholders, filled from the journal settings and rendered to sanitized HTML here, on the server.
 */
export class ContentService {
  /** Rendered pages by their filled-in Markdown: an edit or a settings change makes a new key. */
  private rendered = new Map<string, RenderedPage>();
  /** Generated downloads per journal settings object (the settings service replaces it on every change). */
  private downloads = new WeakMap<JournalSettings, Map<string, Promise<Download>>>();

  constructor(private readonly settings: SettingsService) {}

  /** A page, ready to show; null when the office has removed it. */
  async page(slug: PageSlug): Promise<ContentPage | null> {
    const markdown = await this.pageSource(slug);
    if (markdown === null) return null;
    const filled = fillPlaceholders(markdown, placeholderValues(await this.settings.journal()));
    let page = this.rendered.get(filled);
    if (!page) {
      page = renderPage(filled);
      if (this.rendered.size > 100) this.rendered.clear();
      this.rendered.set(filled, page);
    }
    return { slug, ...page };
  }

  /** A page's Markdown as stored, placeholders and all (what an editor edits). */
  async pageSource(slug: PageSlug): Promise<string | null> {
    const value = await this.settings.get<unknown>(pageKey(slug));
    return value === undefined ? null : pageMarkdownSchema.parse(value);
  }

  async savePage(tx: Tx, slug: PageSlug, markdown: string): Promise<void> {
    await this.settings.set(tx, pageKey(slug), pageMarkdownSchema.parse(markdown));
  }

  /** The board's members as stored. */
  async boardMembers(): Promise<EditorialBoard> {
    return editorialBoardSchema.parse((await this.settings.get<unknown>(EDITORIAL_BOARD_KEY)) ?? []);
  }

  /** The board by section, in the order of BOARD_ROLES; sections without members are left out. */
  async editorialBoard(): Promise<BoardSection[]> {
    const members = await this.boardMembers();
    return BOARD_ROLES.map((role) => {
      const inRole = members.filter((m) => m.role === role);
      return { role, heading: BOARD_ROLE_LABELS[role][inRole.length === 1 ? 'one' : 'many'], members: inRole };
    }).filter((section) => section.members.length > 0);
  }

  async saveEditorialBoard(tx: Tx, board: EditorialBoard): Promise<void> {
    await this.settings.set(tx, EDITORIAL_BOARD_KEY, editorialBoardSchema.parse(board));
  }

  /** Every call for papers with its status at `now`, by deadline (earliest first). */
  async specialIssues(now: Date): Promise<SpecialIssueWithStatus[]> {
    const list = specialIssuesSchema.parse((await this.settings.get<unknown>(SPECIAL_ISSUES_KEY)) ?? []);
    return list
      .map((issue) => ({ ...issue, status: specialIssueStatus(issue.deadline, now) }))
      .sort((a, b) => a.deadline.localeCompare(b.deadline) || a.title.localeCompare(b.title));
  }

  async saveSpecialIssues(tx: Tx, list: SpecialIssue[]): Promise<void> {
    await this.settings.set(tx, SPECIAL_ISSUES_KEY, specialIssuesSchema.parse(list));
  }

  /** The copyright transfer form authors complete before submitting, as a PDF. */
  async copyrightForm(): Promise<Download> {
    return this.download('copyright-form', async (journal) => ({
      bytes: await copyrightFormPdf(journal),
      filename: `${journal.abbreviation.replace(/[^A-Za-z0-9]+/g, '-')}-copyright-form.pdf`,
      mediaType: 'application/pdf',
    }));
  }

  /** A manuscript template (Word or LaTeX) from /instructions, by its file name; null for any other name. */
  async template(name: string): Promise<Download | null> {
    if (!isTemplateFile(name)) return null;
    const file: TemplateFile = name;
    return this.download(`template:${file}`, async (journal) => ({
      bytes: TEMPLATE_FILES[file].build(journal),
      filename: templateFilename(journal, file),
      mediaType: TEMPLATE_FILES[file].mediaType,
    }));
  }

  private async download(key: string, make: (journal: JournalSettings) => Promise<Download>): Promise<Download> {
    const journal = await this.settings.journal();
    let cache = this.downloads.get(journal);
    if (!cache) {
      cache = new Map();
      this.downloads.set(journal, cache);
    }
    let pending = cache.get(key);
    if (!pending) {
      pending = make(journal);
      cache.set(key, pending);
      pending.catch(() => cache.delete(key));
    }
    return pending;
  }
}
