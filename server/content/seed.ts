import {
  EDITORIAL_BOARD_KEY,
  PAGE_SLUGS,
  SPECIAL_ISSUES_KEY,
  editorialBoardSchema,
  pageKey,
  pageMarkdownSchema,
  specialIssuesSchema,
} from '../../common/content.ts';
import { editorialBoard } from '../../content/editorial-board.ts';
import { defaultPages } from '../../content/pages/index.ts';
import { specialIssues } from '../../content/special-issues.ts';
import type { Tx } from '../db/client.ts';
import type { SettingsService } from '../settings/service.ts';

/**
 * The journal's pages, board and special issues from `content/`, written on every start with setDefault:
 * a value the office has edited is never overwritten, and a data folder made before a page existed gets
 * it on its next start. Everything is validated first, so a broken content file stops the start-up here.
 */
export async function seedContent(settings: SettingsService, tx: Tx): Promise<void> {
  const pages = defaultPages();
  const values: [string, unknown][] = [
    ...PAGE_SLUGS.map((slug): [string, unknown] => [pageKey(slug), pageMarkdownSchema.parse(pages[slug])]),
    [EDITORIAL_BOARD_KEY, editorialBoardSchema.parse(editorialBoard)],
    [SPECIAL_ISSUES_KEY, specialIssuesSchema.parse(specialIssues)],
  ];
  for (const [key, value] of values) await settings.setDefault(tx, key, value);
}
