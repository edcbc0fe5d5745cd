import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Field } from "../../components/Field";
import { LiveToggle } from "../../components/LiveToggle";
import type { LiveState } from "../../live";
import { SCOPES, SHORTLIST_TYPES } from "../../route";
import { updateRoute } from "../../router";
import { IST_LABEL } from "../../time";
import { plural } from "../../words";
import type { ShortlistRoute } from "./useShortlist";

export const LIST_NAMES = { TOP_GAINERS: "top gainers", VOLUME_SHOCKERS: "volume shockers" } as const;

type AvailableDate = Schemas["AvailableDate"];

/** The list, scope and day to show, the take profit and stop loss to value entries with, and the live switch. */
export function ShortlistToolbar({ route, date, dates, datesLoading, fieldErrors, liveState }: {
  route: ShortlistRoute;
  date: string | undefined;
  dates: readonly AvailableDate[] | undefined;
  datesLoading: boolean;
  fieldErrors: Record<string, string>;
  liveState: LiveState;
}): VNode {
  // The percentages as typed; the route takes them on Apply.
  const [tp, setTp] = useState(route.tp === undefined ? "" : String(route.tp));
  const [sl, setSl] = useState(route.sl === undefined ? "" : String(route.sl));
  useEffect(() => setTp(route.tp === undefined ? "" : String(route.tp)), [route.tp]);
  useEffect(() => setSl(route.sl === undefined ? "" : String(route.sl)), [route.sl]);
  const apply = (e: Event) => {
    e.preventDefault();
    const n = (s: string) => (s.trim() === "" ? undefined : Number(s));
    updateRoute(route, { tp: n(tp), sl: n(sl) });
  };

  return (
    <form class="toolbar" onSubmit={apply}>
      <Field id="sl-type" label="List" className="inline" error={fieldErrors["type"]}>
        {(input) => (
          <select {...input} value={route.type} onChange={(e) => updateRoute(route, { type: e.currentTarget.value as ShortlistRoute["type"], at: undefined })}>
            {SHORTLIST_TYPES.map((t) => <option key={t} value={t}>{t === "TOP_GAINERS" ? "Top gainers" : "Volume shockers"}</option>)}
          </select>
        )}
      </Field>
      <Field id="sl-scope" label="Scope" className="inline" error={fieldErrors["scope"]}>
        {(input) => (
          <select {...input} value={route.scope} onChange={(e) => updateRoute(route, { scope: e.currentTarget.value as ShortlistRoute["scope"], at: undefined })}>
            {SCOPES.map((s) => <option key={s} value={s}>{s === "TOP_5" ? "Top 5" : "Full"}</option>)}
          </select>
        )}
      </Field>
      <Field id="sl-date" label={`Date (${IST_LABEL})`} className="inline">
        {(input) => (
          <select {...input} value={date ?? ""} disabled={!dates?.length}
            onChange={(e) => updateRoute(route, { date: e.currentTarget.value, at: undefined, live: undefined })}>
            {!dates?.length && <option value="">{datesLoading ? "Loading…" : "No dates"}</option>}
            {(dates ?? []).map((d) => <option key={d.date} value={d.date}>{d.date} ({plural(d.count ?? 0, "snapshot")})</option>)}
          </select>
        )}
      </Field>
      <Field id="sl-tp" label="Take profit %" className="inline" error={fieldErrors["takeProfitPercentage"]}>
        {(input) => <input {...input} type="number" min="0" step="any" inputMode="decimal" value={tp} onInput={(e) => setTp(e.currentTarget.value)} />}
      </Field>
      <Field id="sl-sl" label="Stop loss %" className="inline" error={fieldErrors["stopLossPercentage"]}>
        {(input) => <input {...input} type="number" min="0" max="100" step="any" inputMode="decimal" value={sl} onInput={(e) => setSl(e.currentTarget.value)} />}
      </Field>
      <button type="submit" class="primary">Apply</button>
      <LiveToggle on={Boolean(route.live)} state={liveState} what={`new ${LIST_NAMES[route.type]} snapshots`}
        onChange={(on) => updateRoute(route, on ? { live: true, date: undefined, at: undefined } : { live: undefined })} />
    </form>
  );
}
