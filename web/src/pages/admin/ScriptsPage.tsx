import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { api } from "../../api";
import { DateInput, Field, FormMessage } from "../../components/Field";
import { type FormErrors, NO_ERRORS, formErrors } from "../../formerrors";

const SCRIPTS = [
  { name: "analyze", what: "ANALYZE every mdc table (refreshes the planner's statistics)." },
  { name: "vacuum", what: "VACUUM (ANALYZE) every mdc table; the log gives each table's dead rows." },
  { name: "purge-before", what: "Delete all market data of trading days before a date, in one transaction." },
  { name: "dedupe-check", what: "Read-only: list natural keys held by more than one row." },
] as const;

/** The maintenance scripts of the Admin API, a dry run first by default. */
export function ScriptsPage(): VNode {
  const [script, setScript] = useState<(typeof SCRIPTS)[number]["name"]>("analyze");
  const [before, setBefore] = useState("");
  const [dryRun, setDryRun] = useState(true);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [result, setResult] = useState<Schemas["RunDbScriptResponse"] | undefined>();
  const run = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    setResult(undefined);
    try {
      setResult(await api().call("POST", "/v1/admin/db-scripts", {
        body: { script, dryRun, ...(script === "purge-before" ? { args: { before } } : {}) },
      }));
    } catch (error) {
      setErrors(formErrors(error, ["script", "before", "dryRun"]));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section>
      <h1>Maintenance scripts</h1>
      <form class="card form-grid" onSubmit={run} data-testid="script-form">
        <fieldset>
          <legend>Script</legend>
          {SCRIPTS.map((s) => (
            <div class="field radio" key={s.name}>
              <input type="radio" name="script" id={`script-${s.name}`} value={s.name} checked={script === s.name} onChange={() => setScript(s.name)} />
              <label for={`script-${s.name}`}><code>{s.name}</code> — {s.what}</label>
            </div>
          ))}
          {errors.fields["script"] && <p class="field-error" role="alert">{errors.fields["script"]}</p>}
        </fieldset>
        {script === "purge-before" && (
          <Field id="script-before" label="Keep data from (first trading day kept)" error={errors.fields["before"]}>
            {(input) => <DateInput {...input} value={before} onValue={setBefore} />}
          </Field>
        )}
        <div class="field checkbox">
          <input id="script-dry-run" type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} />
          <label for="script-dry-run">Dry run (only report what would happen)</label>
        </div>
        <FormMessage message={errors.message} />
        <div class="actions">
          <button type="submit" class={dryRun ? "primary" : "danger"} disabled={busy}>
            {busy ? "Running…" : dryRun ? "Dry run" : `Run ${script}`}
          </button>
        </div>
      </form>
      {result && (
        <div class="card" role="status" data-testid="script-result">
          <h2>
            {result.script} {result.dryRun ? "(dry run)" : ""}: {result.affectedRows ?? 0} {result.script === "purge-before" ? "rows" : result.script === "dedupe-check" ? "duplicate keys" : "tables"}
          </h2>
          {(result.log ?? []).length > 0 ? <pre class="log">{(result.log ?? []).join("\n")}</pre> : <p>No log lines.</p>}
        </div>
      )}
    </section>
  );
}
