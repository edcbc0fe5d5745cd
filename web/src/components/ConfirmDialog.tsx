import type { ComponentChildren, VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { errorText } from "../formerrors";

/**
 * A modal question (the browser's <dialog>: focus stays inside, Escape
 * cancels). With `typed`, the confirm button works only once that text was
 * typed, for deletes that cannot be undone. onConfirm's error is shown in the
 * dialog, which stays open.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  typed?: string | undefined;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}): VNode {
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.open && dialog.close();
  }, []);
  const ready = !busy && (props.typed === undefined || text === props.typed);
  const confirm = async (e: Event) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" onClose={props.onClose}>
      <form method="dialog" onSubmit={confirm}>
        <h2 id="dialog-title">{props.title}</h2>
        <div class="dialog-body">{props.children}</div>
        {props.typed !== undefined && (
          <div class="field">
            <label for="dialog-typed">
              Type <code>{props.typed}</code> to confirm
            </label>
            <input id="dialog-typed" autoComplete="off" spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
          </div>
        )}
        {error !== undefined && <p class="form-error" role="alert">{errorText(error)}</p>}
        <div class="actions">
          <button type="button" onClick={props.onClose}>Cancel</button>
          <button type="submit" class="danger" disabled={!ready}>{busy ? "Working…" : props.confirmLabel}</button>
        </div>
      </form>
    </dialog>
  );
}
