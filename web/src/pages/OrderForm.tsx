import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { Field, FormMessage, WallClockInput } from "../components/Field";
import { type FormErrors, NO_ERRORS, formErrors } from "../formerrors";
import { createOrder } from "../runs";
import { IST_LABEL, checkWallClock } from "../time";

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
    const at = checkWallClock(values.datetime);
    if (!at.ok) {
      setErrors({ fields: { datetime: at.error } });
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      await createOrder(runId, {
        nseSymbol: values.nseSymbol.trim().toUpperCase(),
        datetime: at.value,
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
        <Field id="order-datetime" label={`Time (${IST_LABEL})`} hint="YYYY-MM-DD HH:MM" error={errors.fields["datetime"]}>
          {(input) => <WallClockInput {...input} value={values.datetime} onValue={(v) => setValues({ ...values, datetime: v })} />}
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
