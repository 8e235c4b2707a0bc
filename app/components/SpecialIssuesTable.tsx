import type { SpecialIssueWithStatus } from '../../common/content.ts';
import { formatDeadline } from '../../common/dates.ts';

/**
 * Calls for special-issue papers as a table: title (with its scope), guest editors, deadline and status.
 * On narrow screens each row becomes a card, each cell labelled with its column.
 */
export function SpecialIssuesTable({
  issues,
  caption,
}: {
  issues: SpecialIssueWithStatus[];
  caption: string;
}) {
  return (
    <table className="special-issues">
      <caption className="special-issues__caption">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Special issue</th>
          <th scope="col">Guest editors</th>
          <th scope="col">Submission deadline</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {issues.map((issue) => (
          <tr key={issue.id} id={issue.id}>
            <td data-label="Special issue">
              <span className="special-issues__title">{issue.title}</span>
              <span className="special-issues__summary">{issue.summary}</span>
            </td>
            <td data-label="Guest editors">
              <ul className="special-issues__editors">
                {issue.guestEditors.map((editor) => (
                  <li key={editor.name}>
                    {editor.name}
                    <span className="special-issues__affiliation">{editor.affiliation}</span>
                  </li>
                ))}
              </ul>
            </td>
            <td data-label="Submission deadline">
              <time dateTime={issue.deadline}>{formatDeadline(issue.deadline)}</time>
            </td>
            <td data-label="Status">
              <span className={`status status--${issue.status.toLowerCase()}`}>{issue.status}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** How to propose a special issue: by e-mail to the editorial board. */
export function ProposeSpecialIssue({ email }: { email: string }) {
  const href = `mailto:${email}?subject=${encodeURIComponent('Special issue proposal')}`;
  return (
    <section className="propose" aria-labelledby="propose-title">
      <h2 id="propose-title">Propose a special issue</h2>
      <p>
        We welcome proposals for special issues on timely topics within the journal's scope. Proposals go to the
        editorial board by e-mail: <a href={href}>{email}</a>.
      </p>
      <p>Please include:</p>
      <ul className="propose__list">
        <li>a working title and a summary of the topic, of about 300 words, explaining why it matters now;</li>
        <li>a list of suggested topics for contributions;</li>
        <li>the names, affiliations and short CVs of two or three guest editors, from more than one institution;</li>
        <li>a timeline, with the proposed submission deadline, and some likely contributors.</li>
      </ul>
      <p>
        The editorial board replies within four weeks. Special-issue papers go through the same peer review as
        every other article, and guest editors do not handle their own submissions.
      </p>
    </section>
  );
}
