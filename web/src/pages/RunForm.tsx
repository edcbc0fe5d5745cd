import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { Field, FormMessage, WallClockInput } from "../components/Field";
import { type FormErrors, NO_ERRORS, formErrors } from "../formerrors";
import { type Run, createRun, splitTags } from "../runs";
import { IST_LABEL, checkWallClock } from "../time";

const FIELDS = ["name", "tags", "startDatetime", "endDatetime"];

/** Creates a run; start and end are IST wall clocks. */
export function RunForm({ onCreated }: { onCreated: (run: Run) => void }): VNode {
  const [name, setName] = useState("");
  const [tags, setTags] = useState("");
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const submit = async (e: Event) => {
    e.preventDefault();
    // Checked here first: the person's own words about a date, not the API's.
    const from = checkWallClock(start);
    const to = checkWallClock(end);
    if (!from.ok || !to.ok) {
      setErrors({ fields: { ...(from.ok ? {} : { startDatetime: from.error }), ...(to.ok ? {} : { endDatetime: to.error }) } });
      return;
    }
    if (from.value > to.value) {
      setErrors({ fields: { startDatetime: "The start must not be after the end." } });
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const run = await createRun({ name: name.trim(), tags: splitTags(tags), start: from.value, end: to.value });
      setName("");
      setTags("");
      onCreated(run);
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card form-grid" onSubmit={submit} aria-labelledby="new-run-title" data-testid="run-form">
      <h2 id="new-run-title">New run</h2>
      <Field id="run-name" label="Name" error={errors.fields["name"]}>
        {(input) => <input {...input} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field id="run-tags" label="Tags" hint="Separated by commas or spaces" error={errors.fields["tags"]}>
        {(input) => <input {...input} value={tags} onInput={(e) => setTags(e.currentTarget.value)} />}
      </Field>
      <Field id="run-start" label={`Start (${IST_LABEL})`} hint="YYYY-MM-DD HH:MM" error={errors.fields["startDatetime"]}>
        {(input) => <WallClockInput {...input} value={start} onValue={setStart} />}
      </Field>
      <Field id="run-end" label={`End (${IST_LABEL})`} hint="YYYY-MM-DD HH:MM" error={errors.fields["endDatetime"]}>
        {(input) => <WallClockInput {...input} value={end} onValue={setEnd} />}
      </Field>
      <FormMessage message={errors.message} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>{busy ? "Creating…" : "Create run"}</button>
      </div>
    </form>
  );
}
