import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../api";
import { type Column, DataTable } from "../components/DataTable";
import { Field, FormMessage } from "../components/Field";
import { Link } from "../components/Link";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { formatCount, formatPrice } from "../format";
import { formErrors } from "../formerrors";
import { useAsync } from "../hooks";
import { type Route, SCOPES, SHORTLIST_TYPES, formatRoute } from "../route";
import { updateRoute } from "../router";
import { IST_LABEL, IST_ZONE, formatIST, istTime, istWallClock } from "../time";
import { orderTotals, outcomeKind } from "../totals";
import { OutcomeBadge } from "./OrdersTable";

type ShortlistRoute = Extract<Route, { page: "shortlist" }>;
type Entry = Schemas["DashboardShortlistEntry"] & { rank: number };

const FIELDS = ["datetime", "type", "scope", "takeProfitPercentage", "stopLossPercentage"];

function entryPrice(e: Entry): number | undefined {
  return e.price || e.quote?.quoteData?.payload?.last_price || undefined;
}

/** The shortlist at a chosen snapshot, each entry with the outcome of buying it then. */
export function ShortlistPage({ route }: { route: ShortlistRoute }): VNode {
  const [tp, setTp] = useState(route.tp === undefined ? "" : String(route.tp));
  const [sl, setSl] = useState(route.sl === undefined ? "" : String(route.sl));
  useEffect(() => setTp(route.tp === undefined ? "" : String(route.tp)), [route.tp]);
  useEffect(() => setSl(route.sl === undefined ? "" : String(route.sl)), [route.sl]);

  const dates = useAsync(async () => (await api().call("GET", "/v1/dashboard/available-datetimes")).dates ?? [], []);
  const date = route.date ?? dates.data?.at(-1)?.date;
  const times = useAsync(async () => {
    if (!date) return [];
    const answer = await api().call("GET", "/v1/dashboard/available-datetimes", { params: { query: { date } } });
    return answer.dates?.find((d) => d.date === date)?.timestamps ?? [];
  }, [date]);
  const shortlist = useAsync(async () => {
    if (!route.at) return undefined;
    return api().call("GET", "/v1/dashboard/shortlists", {
      params: {
        query: {
          datetime: route.at, timezone: IST_ZONE, type: route.type, scope: route.scope,
          ...(route.tp !== undefined ? { takeProfitPercentage: route.tp } : {}),
          ...(route.sl !== undefined ? { stopLossPercentage: route.sl } : {}),
        },
      },
    });
  }, [route.at, route.type, route.scope, route.tp, route.sl]);

  const errors = shortlist.state === "error" ? formErrors(shortlist.error, FIELDS) : { fields: {} as Record<string, string>, message: undefined };
  const entries = useMemo<Entry[]>(() => (shortlist.data?.entries ?? []).map((e, i) => ({ ...e, rank: i + 1 })), [shortlist.data]);
  const totals = useMemo(() => orderTotals(entries.map((e) => ({ entryPrice: entryPrice(e), outcome: e.outcome }))), [entries]);
  const withOutcome = route.tp !== undefined && route.sl !== undefined;

  const apply = (e: Event) => {
    e.preventDefault();
    const n = (s: string) => (s.trim() === "" ? undefined : Number(s));
    updateRoute(route, { tp: n(tp), sl: n(sl) });
  };
  const columns: Column<Entry>[] = [
    { key: "rank", label: "Rank", value: (e) => e.rank, numeric: true },
    {
      key: "symbol", label: "Symbol", value: (e) => e.nseSymbol,
      render: (e) => <Link to={formatRoute({ page: "chart", symbol: e.nseSymbol, date, interval: "5minute" })}>{e.nseSymbol}</Link>,
    },
    { key: "name", label: "Name", value: (e) => e.name },
    { key: "price", label: "Price", value: (e) => e.price, render: (e) => formatPrice(e.price), numeric: true },
    { key: "last", label: "Last price", value: (e) => e.quote?.quoteData?.payload?.last_price, render: (e) => formatPrice(e.quote?.quoteData?.payload?.last_price), numeric: true },
  ];
  if (withOutcome) {
    columns.push(
      { key: "target", label: "Target", value: (e) => e.outcome?.targetPrice, render: (e) => formatPrice(e.outcome?.targetPrice), numeric: true },
      { key: "stop", label: "Stop", value: (e) => e.outcome?.stopLossPrice, render: (e) => formatPrice(e.outcome?.stopLossPrice), numeric: true },
      { key: "outcome", label: "Outcome", value: (e) => outcomeKind(e.outcome), render: (e) => <OutcomeBadge kind={outcomeKind(e.outcome)} /> },
      { key: "toTarget", label: "Min to target", value: (e) => e.outcome?.minutesToTarget, render: (e) => formatCount(e.outcome?.minutesToTarget), numeric: true },
      { key: "toStop", label: "Min to stop", value: (e) => e.outcome?.minutesToStopLoss, render: (e) => formatCount(e.outcome?.minutesToStopLoss), numeric: true },
    );
  }

  return (
    <section>
      <h1>Shortlist</h1>
      <form class="toolbar" onSubmit={apply}>
        <Field id="sl-type" label="List" className="inline" error={errors.fields["type"]}>
          {(input) => (
            <select {...input} value={route.type} onChange={(e) => updateRoute(route, { type: e.currentTarget.value as ShortlistRoute["type"] })}>
              {SHORTLIST_TYPES.map((t) => <option key={t} value={t}>{t === "TOP_GAINERS" ? "Top gainers" : "Volume shockers"}</option>)}
            </select>
          )}
        </Field>
        <Field id="sl-scope" label="Scope" className="inline" error={errors.fields["scope"]}>
          {(input) => (
            <select {...input} value={route.scope} onChange={(e) => updateRoute(route, { scope: e.currentTarget.value as ShortlistRoute["scope"] })}>
              {SCOPES.map((s) => <option key={s} value={s}>{s === "TOP_5" ? "Top 5" : "Full"}</option>)}
            </select>
          )}
        </Field>
        <Field id="sl-date" label={`Date (${IST_LABEL})`} className="inline">
          {(input) => (
            <select {...input} value={date ?? ""} disabled={!dates.data?.length} onChange={(e) => updateRoute(route, { date: e.currentTarget.value, at: undefined })}>
              {!dates.data?.length && <option value="">{dates.state === "loading" ? "Loading…" : "No dates"}</option>}
              {(dates.data ?? []).map((d) => <option key={d.date} value={d.date}>{d.date} ({d.count})</option>)}
            </select>
          )}
        </Field>
        <Field id="sl-time" label={`Snapshot (${IST_LABEL})`} className="inline" error={errors.fields["datetime"]}>
          {(input) => (
            <select {...input} value={route.at ?? ""} disabled={!times.data?.length} onChange={(e) => updateRoute(route, { date, at: e.currentTarget.value || undefined })}>
              <option value="">{times.state === "loading" ? "Loading…" : "Choose a time"}</option>
              {(times.data ?? []).map((t) => {
                const at = new Date(t);
                return <option key={t} value={istWallClock(at)}>{istTime(at)}</option>;
              })}
            </select>
          )}
        </Field>
        <Field id="sl-tp" label="Take profit %" className="inline" error={errors.fields["takeProfitPercentage"]}>
          {(input) => <input {...input} type="number" min="0" step="any" inputMode="decimal" value={tp} onInput={(e) => setTp(e.currentTarget.value)} />}
        </Field>
        <Field id="sl-sl" label="Stop loss %" className="inline" error={errors.fields["stopLossPercentage"]}>
          {(input) => <input {...input} type="number" min="0" max="100" step="any" inputMode="decimal" value={sl} onInput={(e) => setSl(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="primary">Apply</button>
      </form>
      {dates.state === "error" && <ErrorNote error={dates.error} retry={dates.reload} />}
      {dates.state === "ready" && dates.data.length === 0 && <Empty>No shortlist has been stored yet.</Empty>}
      {date && !route.at && times.state === "ready" && <Empty>Choose a snapshot time of {date}.</Empty>}
      {shortlist.state === "error" && <FormMessage message={errors.message} />}
      {shortlist.state === "loading" && route.at && <Loading what="the shortlist" />}
      {shortlist.data && (
        <>
          <p class="note">
            Snapshot of {formatIST(shortlist.data.timestamp)}
            {withOutcome ? `: buying each entry at its price, target +${route.tp}%, stop -${route.sl}%.` : ". Enter take profit and stop loss percentages to see each entry's outcome."}
          </p>
          {withOutcome && entries.length > 0 && (
            <dl class="totals" data-testid="shortlist-totals">
              <div><dt>Entries</dt><dd>{totals.orders}</dd></div>
              <div><dt>Target hit</dt><dd>{totals.target}</dd></div>
              <div><dt>Stop hit</dt><dd>{totals.stop}</dd></div>
              <div><dt>Open</dt><dd>{totals.open}</dd></div>
              <div><dt>No data</dt><dd>{totals.noData}</dd></div>
              <div><dt>Hit rate</dt><dd>{totals.hitRate === undefined ? "—" : `${totals.hitRate.toFixed(1)}%`}</dd></div>
            </dl>
          )}
          {entries.length === 0 ? (
            <Empty>This snapshot is empty.</Empty>
          ) : (
            <DataTable
              caption={`${entries.length} entries of ${route.type === "TOP_GAINERS" ? "top gainers" : "volume shockers"}`}
              columns={columns}
              rows={entries}
              rowKey={(e) => `${e.rank}`}
              sort={route.sort}
              onSort={(sort) => updateRoute(route, { sort })}
              testId="shortlist-table"
            />
          )}
        </>
      )}
    </section>
  );
}
