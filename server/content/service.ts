import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  BOARD_ROLE_LABELS,
  BOARD_ROLES,
  type BoardMember,
  type BoardRole,
  EDITORIAL_BOARD_KEY,
  type EditorialBoard,
  editorialBoardSchema,
  type PageSlug,
  pageKey,
  pageMarkdownSchema,
  SPECIAL_ISSUES_KEY,
  type SpecialIssue,
  type SpecialIssueStatus,
  type SpecialIssueWithStatus,
  specialIssuesSchema,
} from '../../common/content.ts';
import {
  JOURNAL_FACT_FIELDS,
  JOURNAL_SETTINGS_FIELDS,
  type JournalLogo,
  type JournalSettings,
  type JournalSettingsEdit,
  journalSettingsEditSchema,
} from '../../common/journal.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { FileService } from '../files/service.ts';
import type { RawUpload } from '../files/uploads.ts';
import { removeJournalLogo, setJournalLogo } from './logo.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { contentTag, SITE, validUntil } from '../cache/dependencies.ts';
import type { Db, Tx } from '../db/client.ts';
import { copyrightFormPdf } from '../documents/copyright-form.ts';
import { conflict, parseInput } from '../errors.ts';
import { JOURNAL_KEY, type SettingsService } from '../settings/service.ts';
import { settings as settingsTable } from '../settings/tables.ts';
import { fillPlaceholders, placeholderValues, type RenderedPage, renderPage } from './markdown.ts';
import { isTemplateFile, TEMPLATE_FILES, type TemplateFile, templateFilename } from './templates.ts';

export interface ContentPage extends RenderedPage {
  slug: PageSlug;
}

export interface BoardSection {
  role: BoardRole;
  heading: string;
  members: BoardMember[];
}

/** A short fingerprint of a stored value: an edit form carries it, so a save never overwrites a newer edit. */
export function contentVersion(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('base64url')
    .slice(0, 16);
}

/** The value when it passes the schema; else a 400 with each field's message (never a 500). */
function valid<T>(schema: z.ZodType<T>, value: unknown): T {
  return parseInput(schema, value);
}

export const STALE_EDIT =
  'Someone else saved this since you opened it. Your text is kept below: copy what you need, reload the page, and apply your changes again.';

export interface Download {
  bytes: Uint8Array;
  filename: string;
  mediaType: string;
}

/** Whether a call is still open at `now`: it is until the end of its deadline day, in UTC. */
export function specialIssueStatus(deadline: string, now: Date): SpecialIssueStatus {
  return now.getTime() < closingTime(deadline) ? 'Open' : 'Closed';
}

/** When a call closes: the end of its deadline day (UTC), epoch ms. */
function closingTime(deadline: string): number {
  const [y, m, d] = deadline.split('-').map(Number);
  return Date.UTC(y, m - 1, d + 1);
}

/**
 * The journal's pages, editorial board and special issues, as the editorial office keeps them in the
 * settings table (see common/content.ts for the keys and shapes). Pages are Markdown with `{{journal.…}}`
 * placeholders, filled from the journal settings and rendered to sanitized HTML here, on the server.
 */

/** What the admin edits of the journal's settings, besides peer review's defaults. */
const EDITED_FIELDS = [...JOURNAL_SETTINGS_FIELDS, ...JOURNAL_FACT_FIELDS];
export class ContentService {
  /** Rendered pages by their filled-in Markdown: an edit or a settings change makes a new key. */
  private rendered = new Map<string, RenderedPage>();
  /** Generated downloads per journal settings object (the settings service replaces it on every change). */
  private downloads = new WeakMap<JournalSettings, Map<string, Promise<Download>>>();

  constructor(
    private readonly settings: SettingsService,
    private readonly deps?: {
      db: Db;
      audit: AuditService;
      changes?: Pick<ChangeFeed, 'publish'>;
      /** Where the journal's logo is stored (decision 0062). */
      files?: FileService;
    },
  ) {}

  /** The journal at hand's logo (decision 0062), or null. */
  async logo(): Promise<JournalLogo | null> {
    return (await this.settings.journal()).logo ?? null;
  }

  /** Sets the journal's logo from an upload (a PNG or JPEG, checked by its bytes and its size). */
  setLogo(actor: Actor, upload: RawUpload): Promise<JournalLogo> {
    return setJournalLogo(this.logoDeps(), actor, upload);
  }

  /** Removes the journal's logo. */
  removeLogo(actor: Actor): Promise<void> {
    return removeJournalLogo(this.logoDeps(), actor);
  }

  private logoDeps() {
    if (!this.deps?.files) throw new Error('ContentService needs the file store for the logo.');
    return { ...this.deps, files: this.deps.files, settings: this.settings };
  }

  /** Markdown as a reader would see it, placeholders filled, without saving it (the editor's preview). */
  async preview(markdown: string): Promise<RenderedPage> {
    return renderPage(fillPlaceholders(markdown, placeholderValues(await this.settings.journal())));
  }

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

  /** The stored value's version, for an edit form to send back with its save. */
  async version(key: string): Promise<string> {
    return contentVersion(await this.settings.get<unknown>(key));
  }

  /**
   * An editor's change to a page, the board or the special issues: refused with 409 when the value changed
   * since `base` (the version the editor's form was made from), else saved with its audit record, together.
   */
  private async edit(
    actor: Actor,
    key: string,
    base: string | undefined,
    action: string,
    details: Record<string, unknown>,
    save: (tx: Tx) => Promise<void>,
  ): Promise<void> {
    if (!this.deps) throw new Error('ContentService needs the database and the audit log to record edits.');
    const { db, audit } = this.deps;
    await db.transaction(async (tx) => {
      if (base !== undefined) {
        const [row] = await tx
          .select({ value: settingsTable.value })
          .from(settingsTable)
          .where(eq(settingsTable.key, key))
          .for('update');
        if (contentVersion(row?.value) !== base) throw conflict(STALE_EDIT);
      }
      await save(tx);
      await audit.record(tx, actor, action, { type: 'content', id: key }, details);
      // At the commit, in every process: every kept page that shows it goes (the journal's settings are on
      // every page, and the kept settings with them: server/services.ts).
      await this.deps!.changes?.publish(tx, [key === JOURNAL_KEY ? SITE : contentTag(key)]);
    });
  }

  async editPage(actor: Actor, slug: PageSlug, markdown: string, base?: string): Promise<void> {
    const text = valid(pageMarkdownSchema, markdown);
    return this.edit(
      actor,
      pageKey(slug),
      base,
      'content.page.update',
      { slug, characters: text.length },
      (tx) => this.savePage(tx, slug, text),
    );
  }

  async editEditorialBoard(actor: Actor, board: EditorialBoard, base?: string): Promise<void> {
    const members = valid(editorialBoardSchema, board);
    return this.edit(
      actor,
      EDITORIAL_BOARD_KEY,
      base,
      'content.board.update',
      { members: members.length },
      (tx) => this.saveEditorialBoard(tx, members),
    );
  }

  async editSpecialIssues(actor: Actor, list: SpecialIssue[], base?: string): Promise<void> {
    const calls = valid(specialIssuesSchema, list);
    return this.edit(
      actor,
      SPECIAL_ISSUES_KEY,
      base,
      'content.special-issues.update',
      { calls: calls.map((c) => c.id) },
      (tx) => this.saveSpecialIssues(tx, calls),
    );
  }

  /** The editable part of the journal's settings, and the version an edit of them sends back. */
  async journalSettingsForEdit(): Promise<{ settings: JournalSettingsEdit; version: string }> {
    const journal = await this.settings.journal();
    return {
      settings: {
        ...Object.fromEntries(EDITED_FIELDS.map((k) => [k, journal[k]])),
        review: journal.review,
      } as JournalSettingsEdit,
      version: await this.version(JOURNAL_KEY),
    };
  }

  /**
   * The admin's edit of the journal's settings (title, ISSN, the journal's facts, publisher and contact,
   * Crossref deposit, who may download): merged into the stored settings (a fact left out stays as stored),
   * refused with 409 when they changed since `base`. Returns the names of the settings that changed.
   */
  async editJournalSettings(actor: Actor, input: JournalSettingsEdit, base?: string): Promise<string[]> {
    const edit = valid(journalSettingsEditSchema, input);
    const current = await this.settings.journal();
    const given = Object.fromEntries(Object.entries(edit).filter(([, v]) => v !== undefined));
    const next: JournalSettings = { ...current, ...given, review: edit.review ?? current.review };
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const changed: string[] = EDITED_FIELDS.filter((k) => !same(current[k], next[k]));
    if (!same(current.review, next.review)) changed.push('review');
    await this.edit(actor, JOURNAL_KEY, base, 'settings.journal.update', { changed }, (tx) =>
      this.settings.set(tx, JOURNAL_KEY, next),
    );
    return changed;
  }

  /** The special issues as stored, in the office's order (what an editor edits). */
  async specialIssuesSource(): Promise<SpecialIssue[]> {
    return specialIssuesSchema.parse((await this.settings.get<unknown>(SPECIAL_ISSUES_KEY)) ?? []);
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
      return {
        role,
        heading: BOARD_ROLE_LABELS[role][inRole.length === 1 ? 'one' : 'many'],
        members: inRole,
      };
    }).filter((section) => section.members.length > 0);
  }

  async saveEditorialBoard(tx: Tx, board: EditorialBoard): Promise<void> {
    await this.settings.set(tx, EDITORIAL_BOARD_KEY, editorialBoardSchema.parse(board));
  }

  /** Every call for papers with its status at `now`, by deadline (earliest first). */
  async specialIssues(now: Date): Promise<SpecialIssueWithStatus[]> {
    const list = specialIssuesSchema.parse((await this.settings.get<unknown>(SPECIAL_ISSUES_KEY)) ?? []);
    // A cached page of calls holds until the next deadline passes (a call then closes).
    const closes = list.map((c) => closingTime(c.deadline)).filter((t) => t > now.getTime());
    if (closes.length) validUntil(Math.min(...closes));
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

  private async download(
    key: string,
    make: (journal: JournalSettings) => Promise<Download>,
  ): Promise<Download> {
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
