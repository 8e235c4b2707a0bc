import { CheckField, SelectField, TextField } from '../components/FormField.tsx';
import { SimilarityReport } from '../components/similarity/SimilarityReport.tsx';
import { editorReport } from '../components/similarity/report.server.ts';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { orNotFound } from '../lib/not-found.server.ts';
import { idParam } from '../lib/route-params.ts';
import similarityCss from '../styles/similarity.css?url';
import type { Route } from './+types/editor-dashboard.submissions.$id.similarity';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: similarityCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: pageTitle(
      matches,
      loaderData
        ? `Similarity report · ${loaderData.submission.reference} · Editorial dashboard`
        : 'Similarity report',
    ),
  },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireEditor(context, request);
  const id = idParam(params.id);
  return orNotFound(editorReport(context, auth.user, id, new URL(request.url)));
}

export default function SubmissionSimilarity({ loaderData }: Route.ComponentProps) {
  const { submission, filters, filterErrors } = loaderData;
  const versions = loaderData.ok ? loaderData.result.versions : loaderData.versions;
  const base = `/editor-dashboard/submissions/${submission.id}`;
  return (
    <section aria-labelledby="similarity-title" className="sim-editor">
      <p className="muted">
        <a href={base}>
          {submission.reference}: {submission.title}
        </a>
      </p>
      <h1 id="similarity-title">Similarity report</h1>
      <form method="get" action={`${base}/similarity`} className="sim-filters" aria-label="Report filters">
        <input type="hidden" name="options" value="1" />
        {versions.length > 1 ? (
          <SelectField
            id="sim-version"
            name="fileId"
            label="Version"
            fieldClassName="field--short"
            defaultValue={String(
              loaderData.ok
                ? loaderData.result.submissionFileId
                : (filters.fileId ?? versions.at(-1)?.submissionFileId),
            )}
            options={versions.map((v) => ({
              value: String(v.submissionFileId),
              label: `Version ${v.version}`,
            }))}
          />
        ) : null}
        <CheckField
          name="excludeBibliography"
          label="Leave out the bibliography"
          defaultChecked={filters.excludeBibliography}
        />
        <CheckField
          name="excludeQuotes"
          label="Leave out quotations"
          defaultChecked={filters.excludeQuotes}
        />
        <TextField
          id="sim-min"
          name="minMatchWords"
          label="Smallest match (words)"
          type="number"
          inputMode="numeric"
          min={3}
          max={200}
          defaultValue={filters.minMatchWords}
          error={
            filterErrors.minMatchWords ? `${filterErrors.minMatchWords} The default is used.` : undefined
          }
          fieldClassName="field--short"
        />
        <button type="submit" className="button button--primary">
          Update the report
        </button>
        <button type="submit" name="refresh" value="1" className="button button--secondary">
          Check again now
        </button>
      </form>
      {loaderData.ok ? (
        <>
          <p className="muted">
            Version {loaderData.result.version} ·{' '}
            {loaderData.result.stored
              ? 'the report kept for this version (made when it arrived, or when last checked again)'
              : 'checked just now with these filters'}
            . The other versions of this submission are never counted as sources.
          </p>
          <SimilarityReport
            report={loaderData.result.report}
            headingLevel={2}
            checkedAt={loaderData.result.checkedAt}
            stored={loaderData.result.stored}
          />
        </>
      ) : (
        <div role="alert" className="alert alert--error">
          <p>No report: {loaderData.message}</p>
        </div>
      )}
    </section>
  );
}
