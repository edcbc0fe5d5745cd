/**
 * Corporate actions on the chart (docs/api.md section 13.3): a short label
 * for each (as a marker's text and in the list under the chart) and the
 * markers themselves, on the bar where each action takes effect.
 */
import type { Schemas } from "@mdc/client";
import { formatPrice } from "../../format";
import { chartTime } from "../../time";
import { type Marker, barAt } from "./chartdata";

export type CorporateAction = Schemas["CorporateActionInfo"];

export const ACTION_COLOR = "#7c3aed";

const rupees = (n: number | null | undefined) => `₹${formatPrice(n)}`;

/** "Bonus 1:1", "Split ₹10 → ₹2", "Dividend ₹4", "Rights 1:4 @ ₹120". */
export function actionLabel(a: CorporateAction): string {
  const ratio = `${a.newShares ?? 0}:${a.heldShares ?? 0}`;
  switch (a.kind) {
    case "bonus":
      return `Bonus ${ratio}`;
    case "split":
    case "consolidation":
      return `${a.kind === "split" ? "Split" : "Consolidation"} ${rupees(a.oldFaceValue)} → ${rupees(a.newFaceValue)}`;
    case "dividend":
      return `Dividend ${rupees(a.amount)}`;
    case "rights":
      return `Rights ${ratio} @ ${rupees(a.amount)}`;
    default:
      return a.description ?? a.kind ?? "Corporate action";
  }
}

/**
 * A marker above the bar each action takes effect on: a daily bar, the first
 * session on or after its ex-date; a weekly bar, the week holding it.
 * Actions outside the bars drawn get none. Sorted by time, as the chart wants.
 */
export function actionMarkers(actions: readonly CorporateAction[], barTimes: readonly number[], weekly: boolean): Marker[] {
  const markers: Marker[] = [];
  for (const a of actions) {
    if (!a.exDate) continue;
    const t = chartTime(new Date(`${a.exDate}T00:00:00+05:30`));
    const time = weekly ? barAt(barTimes, t) : barTimes.find((b) => b >= t);
    if (time === undefined || (weekly && time + 7 * 86_400 <= t)) continue;
    markers.push({ time, position: "aboveBar", shape: "circle", color: ACTION_COLOR, text: actionLabel(a) });
  }
  return markers.sort((x, y) => x.time - y.time);
}
