import type { VNode } from "preact";
import { Field } from "../../components/Field";
import { ADJUSTMENTS, type AdjustmentName } from "../../route";

export const ADJUSTMENT_LABELS: Record<AdjustmentName, string> = {
  raw: "As stored", split: "For splits and bonuses", all: "For splits, bonuses and dividends",
};

/**
 * The chart's corporate-action options over a range: prices as stored or
 * adjusted (docs/api.md section 13.4), and whether the actions are marked on
 * the candles. Both read the security master, so both are offered only for a
 * stock (not NIFTY 50) over a range of days.
 */
export function AdjustmentControls(props: {
  adj: AdjustmentName;
  marked: boolean;
  onAdj: (adj: AdjustmentName) => void;
  onMarked: (marked: boolean) => void;
}): VNode {
  return (
    <>
      <Field id="chart-adjustment" label="Prices" className="inline">
        {(input) => (
          <select {...input} value={props.adj} onChange={(e) => props.onAdj(e.currentTarget.value as AdjustmentName)}>
            {ADJUSTMENTS.map((a) => <option key={a} value={a}>{ADJUSTMENT_LABELS[a]}</option>)}
          </select>
        )}
      </Field>
      <div class="field inline checkbox-field">
        <span class="label-space" aria-hidden="true">&nbsp;</span>
        <label class="check">
          <input type="checkbox" checked={props.marked} onChange={(e) => props.onMarked(e.currentTarget.checked)} />
          Mark corporate actions
        </label>
      </div>
    </>
  );
}
