import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { Field, FormMessage } from "../components/Field";
import { type FormErrors, NO_ERRORS, formErrors } from "../formerrors";
import { createOrder } from "../runs";
import { IST_LABEL, istWallClock, parseISTWallClock } from "../time";

const FIELDS = ["nseSymbol", "datetime", "entryPrice", "stopLossPrice", "takeProfitPrice"];

/** "" stays absent (the server says it is required); anything else is sent as a number. */
function numberOrUndefined(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

/** Adds an order to a run by hand (strategies add theirs through the API). */
export function OrderForm({ runId, onAdded }: { runId: string; onAdded: () => void }): VNode {
  const [values, setValues] = useState({ nseSymbol: "", datetime: "", entryPrice: "", stopLossPrice: "", takeProfitPrice: "" });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const set = (k: keyof typeof values) => (e: Event) => setValues({ ...values, [k]: (e.currentTarget as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const at = parseISTWallClock(values.datetime);
      await createOrder(runId, {
        nseSymbol: values.nseSymbol.trim(),
        datetime: at ? istWallClock(at) : values.datetime,
        entryPrice: numberOrUndefined(values.entryPrice) as number,
        stopLossPrice: numberOrUndefined(values.stopLossPrice) as number,
        takeProfitPrice: numberOrUndefined(values.takeProfitPrice) as number,
      });
      setValues({ ...values, nseSymbol: "", entryPrice: "", stopLossPrice: "", takeProfitPrice: "" });
      onAdded();
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setBusy(false);
    }
  };
  const price = (k: "entryPrice" | "stopLossPrice" | "takeProfitPrice", label: string) => (
    <Field id={`order-${k}`} label={label} error={errors.fields[k]}>
      {(input) => <input {...input} type="number" step="any" min="0" inputMode="decimal" value={values[k]} onInput={set(k)} />}
    </Field>
  );
  return (
    <details class="card">
      <summary>Add an order</summary>
      <form class="form-grid" onSubmit={submit} data-testid="order-form">
        <Field id="order-nseSymbol" label="Symbol" error={errors.fields["nseSymbol"]}>
          {(input) => <input {...input} value={values.nseSymbol} autoCapitalize="characters" spellcheck={false} onInput={set("nseSymbol")} />}
        </Field>
        <Field id="order-datetime" label={`Time (${IST_LABEL})`} error={errors.fields["datetime"]}>
          {(input) => <input {...input} type="datetime-local" step={1} value={values.datetime} onInput={set("datetime")} />}
        </Field>
        {price("entryPrice", "Entry price")}
        {price("stopLossPrice", "Stop-loss price")}
        {price("takeProfitPrice", "Take-profit price")}
        <FormMessage message={errors.message} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>{busy ? "Adding…" : "Add order"}</button>
        </div>
      </form>
    </details>
  );
}
