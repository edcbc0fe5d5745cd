import type { VNode } from "preact";
import { plural } from "../../words";
import { type CorporateAction, actionLabel } from "./corporateActions";

/**
 * The corporate actions of the chart's range under it: what each marker on
 * the candles is, with the factors an adjusted chart multiplied earlier
 * prices and volumes by.
 */
export function ActionsList({ symbol, actions }: { symbol: string; actions: readonly CorporateAction[] }): VNode {
  if (actions.length === 0) return <p data-testid="corporate-actions">No corporate actions of {symbol} in this range.</p>;
  return (
    <section data-testid="corporate-actions" aria-label={`Corporate actions of ${symbol}`}>
      <h2>{plural(actions.length, "corporate action")}</h2>
      <ul>
        {actions.map((a) => (
          <li key={`${a.exDate}-${a.kind}-${a.description}`}>
            <b>{a.exDate}</b> {actionLabel(a)}
            {a.priceFactor != null ? ` (earlier prices × ${factor(a.priceFactor)}, volumes × ${factor(a.volumeFactor)})` : " (not applied: no close before it)"}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A factor to four decimals, without trailing zeros: 0.5, 0.96, 5. */
function factor(n: number | null | undefined): string {
  return n == null ? "—" : String(Number(n.toFixed(4)));
}
