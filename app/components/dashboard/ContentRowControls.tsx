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
