import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Field, FormMessage } from "../components/Field";
import { type FormErrors, NO_ERRORS, formErrors } from "../formerrors";
import { type Run, splitTags, updateRun } from "../runs";

/** Renames a run, changes its tags, marks it completed. */
export function RunEditDialog({ run, onSaved, onClose }: { run: Run; onSaved: (run: Run) => void; onClose: () => void }): VNode {
  const ref = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(run.name ?? "");
  const [tags, setTags] = useState((run.tags ?? []).join(", "));
  const [completed, setCompleted] = useState(Boolean(run.completed));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.open && dialog.close();
  }, []);
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      onSaved(await updateRun(run.id ?? "", { name: name.trim(), tags: splitTags(tags), completed }));
      onClose();
    } catch (error) {
      setErrors(formErrors(error, ["name", "tags", "completed"]));
      setBusy(false);
    }
  };
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="edit-run-title" onClose={onClose}>
      <form method="dialog" onSubmit={save}>
        <h2 id="edit-run-title">Edit run {run.id}</h2>
        <Field id="edit-run-name" label="Name" error={errors.fields["name"]}>
          {(input) => <input {...input} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field id="edit-run-tags" label="Tags" hint="Separated by commas or spaces" error={errors.fields["tags"]}>
          {(input) => <input {...input} value={tags} onInput={(e) => setTags(e.currentTarget.value)} />}
        </Field>
        <div class="field checkbox">
          <input id="edit-run-completed" type="checkbox" checked={completed} onChange={(e) => setCompleted(e.currentTarget.checked)} />
          <label for="edit-run-completed">Completed</label>
        </div>
        <FormMessage message={errors.message} />
        <div class="actions">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="submit" class="primary" disabled={busy}>{busy ? "Saving…" : "Save"}</button>
        </div>
      </form>
    </dialog>
  );
}
