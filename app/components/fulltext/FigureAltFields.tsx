import { useJournalHref } from '../../lib/journal-href.ts';
import { TextAreaField } from '../FormField.tsx';

/** A figure of a converted full text, as the editor's forms get it (server/fulltext/present.ts). */
export interface AltFigure {
  number: number;
  name: string;
  alt: string;
  width: number;
  height: number;
}

/**
 * One alt-text field per figure of a full text (`alt-N`, as the server reads them), each beside a thumbnail of
 * its figure: the desk's publish form and an article's edit view on the dashboard.
 */
export function FigureAltFields({
  figures,
  idPrefix,
  figureUrl,
  values,
  errors,
}: {
  figures: readonly AltFigure[];
  idPrefix: string;
  /** The editor's address of a figure's image, as the routes name it (put under the journal's path here). */
  figureUrl: (name: string) => string;
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  const journalHref = useJournalHref();
  return figures.map((f) => (
    <div key={f.name} className="fulltext-alt">
      <img src={journalHref(figureUrl(f.name))} alt="" width={f.width} height={f.height} loading="lazy" />
      <TextAreaField
        id={`${idPrefix}-${f.number}`}
        name={`alt-${f.number}`}
        label={`Figure ${f.number}`}
        marks
        required
        rows={2}
        defaultValue={values[`alt-${f.number}`] ?? f.alt}
        error={errors[`alt-${f.number}`]}
      />
    </div>
  ));
}
