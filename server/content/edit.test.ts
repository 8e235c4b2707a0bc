import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITORIAL_BOARD_KEY, SPECIAL_ISSUES_KEY, pageKey } from '../../common/content.ts';
import { auditLog } from '../audit/tables.ts';
import { type TestContext, createTestContext } from '../testing/harness.ts';

let t: TestContext;
const editor = { id: 0, username: '' };

beforeAll(async () => {
  t = await createTestContext();
  const u = await t.createUser({ role: 'editor', status: 'approved' });
  Object.assign(editor, { id: u.id, username: u.username });
});
afterAll(async () => {
  await t?.close();
});

describe("editing the journal's content", () => {
  it('saves a page with its audit record; readers get the new words at once', async () => {
    const base = await t.services.content.version(pageKey('apc'));
    await t.services.content.editPage(editor, 'apc', '# Article Processing Charge\n\nNo charge at all in {{journal.abbreviation}}.', base);
    expect((await t.services.content.page('apc'))!.html).toContain('No charge at all in CJEI.');
    const [entry] = await t.services.db.select().from(auditLog).where(eq(auditLog.action, 'content.page.update'));
    expect(entry).toMatchObject({ actorUsername: editor.username, targetType: 'content', targetId: 'content.page.apc' });
  });

  it('refuses a save made from an older version, and changes nothing', async () => {
    const stale = await t.services.content.version(pageKey('ethics'));
    await t.services.content.editPage(editor, 'ethics', '# Publication Ethics\n\nFirst editor.', stale);
    await expect(
      t.services.content.editPage(editor, 'ethics', '# Publication Ethics\n\nSecond editor.', stale),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(await t.services.content.pageSource('ethics')).toBe('# Publication Ethics\n\nFirst editor.');
  });

  it('refuses a page without its heading as invalid (400 at the API)', async () => {
    await expect(t.services.content.editPage(editor, 'apc', 'No heading here.')).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(/must start with its heading/) });
  });

  it('previews Markdown with placeholders filled, without saving', async () => {
    const before = await t.services.content.pageSource('overview');
    const page = await t.services.content.preview('# Preview\n\n**Bold** {{journal.name}} <script>x</script>');
    expect(page.title).toBe('Preview');
    expect(page.html).toContain('<strong>Bold</strong>');
    expect(page.html).not.toContain('<script>');
    expect(page.html).not.toContain('{{journal.name}}');
    expect(await t.services.content.pageSource('overview')).toBe(before);
  });

  it('saves the board and the special issues, validated and audited', async () => {
    const board = await t.services.content.boardMembers();
    await t.services.content.editEditorialBoard(editor, board.slice(1), await t.services.content.version(EDITORIAL_BOARD_KEY));
    expect(await t.services.content.boardMembers()).toEqual(board.slice(1));
    await expect(
      t.services.content.editEditorialBoard(editor, [{ ...board[0], email: 'not-an-address' }]),
    ).rejects.toThrow(/valid e-mail/);

    const calls = await t.services.content.specialIssuesSource();
    const next = [...calls, { ...calls[0], id: 'a-new-call', title: 'A new call', deadline: '2099-01-31' }];
    await t.services.content.editSpecialIssues(editor, next, await t.services.content.version(SPECIAL_ISSUES_KEY));
    const open = (await t.services.content.specialIssues(new Date('2098-01-01'))).filter((c) => c.status === 'Open');
    expect(open.map((c) => c.id)).toEqual(['a-new-call']);
    await expect(t.services.content.editSpecialIssues(editor, [...next, next[0]])).rejects.toThrow(/share an id/);

    const actions = (await t.services.db.select({ action: auditLog.action }).from(auditLog)).map((r) => r.action);
    expect(actions).toContain('content.board.update');
    expect(actions).toContain('content.special-issues.update');
  });
});
