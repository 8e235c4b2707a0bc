import { orcidUrl } from '../../common/citation.ts';

/**
 * The ORCID iD mark: a green disc with "iD", drawn here (no image request), 1em square so it sits in a
 * line of text at any size. Decorative: the link around it carries the words.
 */
export function OrcidMark() {
  return (
    <svg
      className="orcid-mark"
      viewBox="0 0 24 24"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="12" fill="#a6ce39" />
      <g fill="#fff">
        <circle cx="7.4" cy="6.9" r="1.3" />
        <rect x="6.4" y="9.4" width="2" height="8.6" />
        <path
          fillRule="evenodd"
          d="M10.6 9.4h3.3c3 0 5 1.8 5 4.3s-2 4.3-5 4.3h-3.3zm2 1.8v5h1.2c1.9 0 3-1 3-2.5s-1.1-2.5-3-2.5z"
        />
      </g>
    </svg>
  );
}

/**
 * An author's (or reviewer's) ORCID iD, linked to their record at orcid.org. `compact`: the mark alone, as
 * in an article's by-line, its accessible name "ORCID iD of {name}"; otherwise the mark and the iD written
 * out (the desk and the author's page, where the editors check it), the name still read before it.
 */
export function OrcidLink({ orcid, name, compact }: { orcid: string; name: string; compact?: boolean }) {
  return (
    <a className={compact ? 'orcid-link orcid-link--compact' : 'orcid-link'} href={orcidUrl(orcid)}>
      <OrcidMark />
      <span className="visually-hidden">
        ORCID iD of {name}
        {compact ? '' : ':'}
      </span>
      {compact ? null : (
        <>
          {' '}
          <span className="orcid-link__id">{orcid}</span>
        </>
      )}
    </a>
  );
}
