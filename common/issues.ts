/**
 * An issue as a choice in a form: "Volume 1, Issue 2", with its title after a colon only when the title says
 * more than "Issue 2" (a special issue's name, say).
 */
export function issueLabel(issue: { volume_number: number; issue_number: number; title: string }): string {
  const base = `Volume ${issue.volume_number}, Issue ${issue.issue_number}`;
  const title = issue.title.trim();
  return title && !/^issue\s*\d+$/i.test(title) ? `${base}: ${title}` : base;
}
