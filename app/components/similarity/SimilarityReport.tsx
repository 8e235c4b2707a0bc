import { Link } from 'react-router';
import { Fragment, type ReactNode } from 'react';
import type {
  GrammarIssueData,
  ReportPassageData,
  ReportSourceData,
  SimilarityReportData,
} from '../../../common/similarity.ts';

/**
 * The similarity report, shown on /plagiarism and on an editor's report page: the two percentages, the
 * sources with their shares, the manuscript text with matched passages marked (<mark>, each naming its
 * source), the passages beside the source's text, and the grammar issues with suggestions.
 *
 * Only types come from common/similarity.ts: zod stays out of the pages' bundles.
 */

/** Two decimals, as the spec asks ("12.30 %"). */
export const percent = (n: number) => `${n.toFixed(2)} %`;

/** One colour per source, by its position (S1 … S8, then again); the label, not the colour, says which. */
const tone = (ref: string) => ((Number(ref.slice(1)) - 1) % 8) + 1;

export function SimilarityReport({
  report,
  headingLevel = 2,
  checkedAt,
  stored = false,
}: {
  report: SimilarityReportData;
  /** The level of the report's section headings (its sub-sections get one more). */
  headingLevel?: 2 | 3;
  /** When the report was made (the editor's stored report). */
  checkedAt?: string;
  /** The report kept for a manuscript version (made again by itself when its corpus was incomplete). */
  stored?: boolean;
}) {
  const H = `h${headingLevel}` as 'h2' | 'h3';
  return (
    <div className="sim-report">
      <CorpusNotice report={report} stored={stored} />
      <ScoreCards report={report} checkedAt={checkedAt} />
      <section aria-labelledby="sim-sources-title" className="sim-section">
        <H id="sim-sources-title">Sources</H>
        <SourceTable report={report} />
      </section>
      <section aria-labelledby="sim-text-title" className="sim-section">
        <H id="sim-text-title">The manuscript with matched passages</H>
        <ManuscriptWithPassages report={report} />
      </section>
      <section aria-labelledby="sim-grammar-title" className="sim-section">
        <H id="sim-grammar-title">Grammar</H>
        <GrammarIssues report={report} />
      </section>
    </div>
  );
}

export function ScoreCards({ report, checkedAt }: { report: SimilarityReportData; checkedAt?: string }) {
  const g = report.grammarQualityPercentage;
  return (
    <div className="sim-scores">
      <dl className="sim-scores__list">
        <div className="sim-score">
          <dt>Plagiarism</dt>
          <dd className="sim-score__value" data-testid="plagiarism-percentage">
            {percent(report.plagiarismPercentage)}
          </dd>
          <dd className="sim-score__note">
            {report.words.matched.toLocaleString('en')} of {report.words.counted.toLocaleString('en')} words
            match
            {report.sources.length === 1 ? ' one source' : ` ${report.sources.length} sources`}
          </dd>
        </div>
        <div className="sim-score">
          <dt>Grammar quality</dt>
          <dd className="sim-score__value">{g === null ? 'Not measured' : percent(g)}</dd>
          <dd className="sim-score__note">
            {g === null
              ? (report.grammar.error ?? 'The grammar check did not run.')
              : `${report.grammar.sentences - report.grammar.sentencesWithIssues} of ${report.grammar.sentences} sentences without an issue`}
          </dd>
        </div>
      </dl>
      <p className="sim-scores__settings muted">
        {settingsText(report.settings)}
        {report.words.bibliography
          ? ` The bibliography (${report.words.bibliography.toLocaleString('en')} words) is not counted.`
          : ''}
        {checkedAt ? (
          <>
            {' '}
            Checked <time dateTime={checkedAt}>{utc(checkedAt)}</time>.
          </>
        ) : null}
        {report.corpus?.complete ? (
          <>
            {' '}
            Compared with all {report.corpus.indexed.toLocaleString('en')} documents of the journal
            {report.corpus.newestIndexedAt ? (
              <>
                {' '}
                (the newest indexed{' '}
                <time dateTime={report.corpus.newestIndexedAt}>{utc(report.corpus.newestIndexedAt)}</time>)
              </>
            ) : null}
            .
          </>
        ) : null}
      </p>
    </div>
  );
}

const utc = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A check against a corpus still being indexed (after a first start, a reindex, an import or a restore) may
 * have missed a copy: said plainly, above the score, so that a low score is never read as a clean result.
 */
export function CorpusNotice({ report, stored }: { report: SimilarityReportData; stored: boolean }) {
  const c = report.corpus;
  if (!c || c.complete) return null;
  return (
    <div role="alert" className="alert alert--error sim-corpus" data-testid="corpus-incomplete">
      <p>
        <strong>Incomplete comparison.</strong> {c.message}
      </p>
      <p>
        Compared with {c.indexed.toLocaleString('en')} of {c.expected.toLocaleString('en')} documents
        {c.newestIndexedAt ? `; the newest indexed ${utc(c.newestIndexedAt)}` : ''}.
        {stored ? ' This report is made again by itself once indexing is complete.' : ''}
      </p>
    </div>
  );
}

function settingsText(s: SimilarityReportData['settings']) {
  return `Passages of at least ${s.minMatchWords} matching words; quotations ${s.excludeQuotes ? 'excluded' : 'included'}; bibliography ${s.excludeBibliography ? 'excluded' : 'included'}.`;
}

export function SourceLabel({ source }: { source: ReportSourceData }) {
  if (source.articleId !== null && source.journal)
    return (
      <>
        <a href={`${source.journal.url}/article/${source.articleId}`}>{source.label}</a> (
        {source.journal.title})
      </>
    );
  if (source.articleId !== null)
    return (
      <Link reloadDocument to={`/article/${source.articleId}`}>
        {source.label}
      </Link>
    );
  return <>{source.label}</>;
}

function kindText(source: ReportSourceData) {
  if (source.kind === 'article')
    return source.published ? 'Published article' : 'Article (not published now)';
  if (source.kind === 'submission_version') return 'Manuscript received by the journal';
  return 'Unpublished manuscript';
}

export function SourceTable({ report }: { report: SimilarityReportData }) {
  if (!report.sources.length) {
    return <p>No passage of this manuscript matches anything the journal has published or received.</p>;
  }
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="sim-table-scroll" aria-labelledby="sim-sources-caption" tabIndex={0}>
      <table className="sim-table">
        <caption id="sim-sources-caption">Matched sources, largest share first</caption>
        <thead>
          <tr>
            <th scope="col">Ref.</th>
            <th scope="col">Source</th>
            <th scope="col" className="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {report.sources.map((s) => (
            <tr key={s.ref}>
              <td>
                <span className={`sim-ref sim-tone-${tone(s.ref)}`}>{s.ref}</span>
              </td>
              <th scope="row">
                <SourceLabel source={s} />
                <span className="sim-table__kind">
                  {kindText(s)} · {s.matchedWords.toLocaleString('en')} words in {s.passageCount} passage
                  {s.passageCount === 1 ? '' : 's'}
                </span>
              </th>
              <td className="num">{percent(s.sharePercentage)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Words shown of a long passage on each side (the whole passage is marked in the text). */
const EXCERPT_WORDS = 60;

/** A passage's text, its first EXCERPT_WORDS words of a longer one followed by "…". */
function excerpt(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= EXCERPT_WORDS ? words.join(' ') : `${words.slice(0, EXCERPT_WORDS).join(' ')} …`;
}

/** PDF line breaks inside a paragraph become spaces (same length, so offsets stay right). */
const unwrap = (text: string) => text.replace(/([^\n])\n(?!\n)/g, '$1 ');

/** The manuscript with each matched passage in a <mark> that names its source (read out, not only coloured). */
export function HighlightedText({ report }: { report: SimilarityReportData }) {
  const text = unwrap(report.text);
  const parts: ReactNode[] = [];
  let at = 0;
  report.passages.forEach((p, i) => {
    if (p.manuscript.start < at) return; // overlapping (should not happen): keep the first
    if (p.manuscript.start > at)
      parts.push(<Fragment key={`t${at}`}>{text.slice(at, p.manuscript.start)}</Fragment>);
    parts.push(
      <mark
        key={`m${p.manuscript.start}`}
        id={`sim-passage-${i + 1}`}
        className={`sim-mark sim-tone-${tone(p.source)}`}
      >
        <span className="visually-hidden">
          [Matched passage {i + 1}, source {p.source}:]{' '}
        </span>
        {text.slice(p.manuscript.start, p.manuscript.end)}
        <span className="visually-hidden"> [end of passage {i + 1}]</span>
        <a
          href={`#sim-match-${i + 1}`}
          className="sim-mark__ref"
          aria-label={`Passage ${i + 1}: see the source ${p.source}`}
        >
          {p.source}
        </a>
      </mark>,
    );
    at = p.manuscript.end;
  });
  if (at < text.length) parts.push(<Fragment key="end">{text.slice(at)}</Fragment>);
  // A scrolling box must be reachable from the keyboard even with no passage (and so no link) in it.
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region is focusable so that keys scroll it
    <section className="sim-text" aria-label="The checked text" tabIndex={0}>
      {parts}
    </section>
  );
}

/** The text on one side, the matched passages with their source's words on the other. */
export function ManuscriptWithPassages({ report }: { report: SimilarityReportData }) {
  return (
    <div className="sim-compare">
      <div className="sim-compare__text">
        <p className="muted sim-compare__hint">
          {report.passages.length
            ? `${report.passages.length} matched passage${report.passages.length === 1 ? '' : 's'}, marked in the text with the source's reference.`
            : 'No matched passages.'}
        </p>
        <HighlightedText report={report} />
      </div>
      {report.passages.length ? (
        <ol className="sim-compare__passages" aria-label="Matched passages and their sources">
          {report.passages.map((p, i) => (
            <PassageItem key={`${p.source}-${p.manuscript.start}`} passage={p} index={i} report={report} />
          ))}
        </ol>
      ) : null}
    </div>
  );
}

function PassageItem({
  passage,
  index,
  report,
}: {
  passage: ReportPassageData;
  index: number;
  report: SimilarityReportData;
}) {
  const source = report.sources.find((s) => s.ref === passage.source);
  return (
    <li id={`sim-match-${index + 1}`} className={`sim-passage sim-tone-${tone(passage.source)}`}>
      <p className="sim-passage__head">
        <a href={`#sim-passage-${index + 1}`}>Passage {index + 1}</a>
        {' · '}
        <span className={`sim-ref sim-tone-${tone(passage.source)}`}>{passage.source}</span>{' '}
        {source ? <SourceLabel source={source} /> : null}
        <span className="muted">
          {' '}
          · {passage.words.toLocaleString('en')} words, {passage.exactWords.toLocaleString('en')} identical
          {passage.words > EXCERPT_WORDS
            ? ' (the beginning is shown here; the whole passage is marked in the text)'
            : ''}
        </span>
      </p>
      <div className="sim-passage__pair">
        <blockquote className="sim-passage__side">
          <p className="sim-passage__label">Manuscript</p>
          <p>{excerpt(passage.manuscript.text)}</p>
        </blockquote>
        <blockquote className="sim-passage__side">
          <p className="sim-passage__label">Source</p>
          {passage.sourceText ? (
            <p>{excerpt(passage.sourceText.text)}</p>
          ) : (
            <p className="muted">Not shown: the source is an unpublished manuscript held by the journal.</p>
          )}
        </blockquote>
      </div>
    </li>
  );
}

/** How many issues are listed; the rest are counted. */
const MAX_ISSUES = 150;

export function GrammarIssues({ report }: { report: SimilarityReportData }) {
  const g = report.grammar;
  if (!g.available) return <p>{g.error ?? 'The grammar check did not run.'}</p>;
  return (
    <>
      <p className="muted sim-grammar__measure">{g.measure}</p>
      {g.issues.length === 0 ? (
        <p>No grammar, agreement, spelling or usage issue was found.</p>
      ) : (
        <>
          <p>
            {g.issues.length} issue{g.issues.length === 1 ? '' : 's'} in {g.sentencesWithIssues} of{' '}
            {g.sentences} sentences
            {g.issues.length > MAX_ISSUES ? ` (the first ${MAX_ISSUES} are listed)` : ''}:
          </p>
          <ol className="sim-issues">
            {g.issues.slice(0, MAX_ISSUES).map((issue) => (
              <IssueItem key={`${issue.start}-${issue.rule}`} issue={issue} text={report.text} />
            ))}
          </ol>
        </>
      )}
    </>
  );
}

function IssueItem({ issue, text }: { issue: GrammarIssueData; text: string }) {
  // A little context either side, cut at word boundaries.
  const before = text
    .slice(Math.max(0, issue.start - 60), issue.start)
    .replace(/^\S*\s/, '…')
    .replace(/\s+/g, ' ');
  const after = text
    .slice(issue.end, issue.end + 60)
    .replace(/\s\S*$/, '…')
    .replace(/\s+/g, ' ');
  return (
    <li className="sim-issue">
      <p className="sim-issue__context">
        {before}
        <mark className="sim-issue__mark">
          <span className="visually-hidden">[issue:] </span>
          {text.slice(issue.start, issue.end)}
        </mark>
        {after}
      </p>
      <p className="sim-issue__message">
        <span className="sim-issue__kind">{issue.kind}</span> {issue.message}
        {issue.suggestions.length ? (
          <>
            {' '}
            Suggestion{issue.suggestions.length === 1 ? '' : 's'}:{' '}
            {issue.suggestions.slice(0, 3).map((s, i) => (
              <Fragment key={s}>
                {i ? ', ' : ''}
                <q className="sim-issue__suggestion">{s}</q>
              </Fragment>
            ))}
          </>
        ) : null}
      </p>
    </li>
  );
}
