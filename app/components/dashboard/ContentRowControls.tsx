import { FormAlert, FormStatus } from '../FormAlert.tsx';

/**
 * The buttons of one row of a structured-content editor: move up, move down, remove. Each is a submit
 * button with its own `intent`, so the list is rearranged by the server and works without JavaScript.
 * `formNoValidate`: rearranging must not stop at an empty required field.
 */
export function ContentRowControls({ index, count, name }: { index: number; count: number; name: string }) {
  return (
    <div className="content-row__controls">
      <button
        type="submit"
        name="intent"
        value={`up:${index}`}
        formNoValidate
        className="button button--small button--secondary"
        disabled={index === 0}
      >
        Move up<span className="visually-hidden"> {name}</span>
      </button>
      <button
        type="submit"
        name="intent"
        value={`down:${index}`}
        formNoValidate
        className="button button--small button--secondary"
        disabled={index === count - 1}
      >
        Move down<span className="visually-hidden"> {name}</span>
      </button>
      <button
        type="submit"
        name="intent"
        value={`remove:${index}`}
        formNoValidate
        className="button button--small button--secondary"
      >
        Remove<span className="visually-hidden"> {name}</span>
      </button>
    </div>
  );
}

/** What a content editor's post answers: a message, and (unless saved) the rows to draw again. */
export type ContentEditResult =
  | { kind: 'saved'; message: string; at: number }
  | { kind: 'rows'; message: string; values: Record<string, string>; at: number }
  | { kind: 'refused'; message: string; errors: Record<string, string>; values: Record<string, string>; at: number };

/** The outcome of a content editor's post: role="status" when saved or rearranged, role="alert" when refused. */
export function ContentOutcome({ result }: { result: ContentEditResult | undefined }) {
  if (!result) return null;
  if (result.kind === 'refused') return <FormAlert message={result.message} attempt={result.at} />;
  return (
    <FormStatus>
      <p>{result.message}</p>
    </FormStatus>
  );
}
