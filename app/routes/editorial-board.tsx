import { Link } from 'react-router';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { contentLinks, contentMeta } from '../lib/content-page.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/editorial-board';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = contentLinks;

/** The board as the office keeps it (settings key `content.editorial-board`), by section. */
export async function loader({ context }: Route.LoaderArgs) {
  const { content, settings } = context.services;
  const baseUrl = context.services.journalUrl();
  const [sections, journal] = await Promise.all([content.editorialBoard(), settings.journal()]);
  return {
    title: 'Editorial Board',
    description: `The editors of the ${journal.name}: the Editor-in-Chief, Associate Editors-in-Chief, Associate Editors and Editorial Board Members, with their affiliations and research areas.`,
    canonicalUrl: `${baseUrl}/editorial-board`,
    journalName: journal.name,
    email: journal.email,
    sections,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => contentMeta(matches, loaderData);

export default function EditorialBoardPage({ loaderData }: Route.ComponentProps) {
  const { title, journalName, email, sections } = loaderData;
  return (
    <JournalPageLayout
      title={title}
      lead={`The ${journalName} is run by researchers from universities and institutes around the world. They handle manuscripts, choose reviewers and make every editorial decision, independently of the publisher.`}
    >
      {sections.length ? (
        sections.map((section) => (
          <section key={section.role} className="board-section" aria-labelledby={`board-${section.role}`}>
            <h2 id={`board-${section.role}`}>{section.heading}</h2>
            <ul className="board-list">
              {section.members.map((member) => (
                <li key={`${member.name}-${member.email}`} className="board-member">
                  <h3 className="board-member__name">{member.name}</h3>
                  <p className="board-member__affiliation">
                    {member.affiliation}, {member.country}
                  </p>
                  <p className="board-member__areas">
                    <span className="board-member__label">Research areas: </span>
                    {member.researchAreas.join(', ')}
                  </p>
                  <p className="board-member__email">
                    <span className="board-member__label">E-mail: </span>
                    <a href={`mailto:${member.email}`}>{member.email}</a>
                  </p>
                </li>
              ))}
            </ul>
          </section>
        ))
      ) : (
        <p>The editorial board is being formed; its members will be listed here.</p>
      )}
      <section className="board-section" aria-labelledby="board-join">
        <h2 id="board-join">Reviewing for the journal</h2>
        <p>
          Researchers who would like to review for the journal, or to join the editorial board, are welcome to
          write to <a href={`mailto:${email}`}>{email}</a> with a short CV and their areas of expertise. Board
          members follow our <Link to="/ethics">publication ethics</Link> policy, including its rules on
          conflicts of interest.
        </p>
      </section>
    </JournalPageLayout>
  );
}
