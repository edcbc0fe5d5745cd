import type { VNode } from "preact";
import { Link } from "../../components/Link";
import { ADJUSTMENTS, RANGES, type Route } from "../../route";
import { checkDate } from "../../time";
import { INDICATOR_SPECS } from "./indicators";
import { intervalLabel } from "./QuotesTable";
import { RANGE_LABELS } from "./ranges";

type ChartRoute = Extract<Route, { page: "chart" }>;

/** "INFY, 1 day, 3 months, SMA 20 + RSI 14" for a remembered view. */
export function describeView(view: string): string {
  const q = new URL(view, "http://x.invalid").searchParams;
  const range = q.get("range") as keyof typeof RANGE_LABELS | null;
  const ind = (q.get("ind") ?? "").split(",").filter(Boolean).map((i) => INDICATOR_SPECS[i as keyof typeof INDICATOR_SPECS]?.label ?? i);
  return [q.get("symbol"), intervalLabel((q.get("interval") ?? "5minute") as ChartRoute["interval"]), range && RANGE_LABELS[range],
    q.get("nifty") ? "NIFTY 50 overlay" : undefined, ind.length ? ind.join(" + ") : undefined].filter(Boolean).join(", ");
}

/** Why a parameter of a chart link was not used. */
export function explainParam(name: string, text: string): string {
  if (name === "date") {
    const checked = checkDate(text);
    return `The date “${text}”: ${checked.ok ? "not a date." : checked.error} Enter a date above.`;
  }
  if (name === "symbol") return `The symbol “${text}”: symbols are 1-32 letters, digits and & . _ - (no spaces).`;
  if (name === "range") return `The range “${text}”: one of ${RANGES.join(", ")}. One day is shown.`;
  if (name === "adj") return `The adjustment “${text}”: one of ${ADJUSTMENTS.join(", ")}. Prices are shown as stored.`;
  return `${name} “${text}”.`;
}

/** The chart views opened last (recent.ts), each a link on `date` (the latest day when none). */
export function RecentCharts({ views, date }: { views: readonly string[]; date: string | undefined }): VNode | null {
  if (views.length === 0) return null;
  return (
    <nav class="recent" aria-label="Recent charts">
      <h2>Recent charts</h2>
      <ul data-testid="recent-charts">
        {views.map((view) => <li key={view}><Link to={date ? `${view}&date=${date}` : view}>{describeView(view)}</Link></li>)}
      </ul>
    </nav>
  );
}
