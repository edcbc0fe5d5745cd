import type { Schemas, StreamEvent } from "@mdc/client";
import type { VNode } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../api";
import { type Column, DataTable } from "../components/DataTable";
import { Field, FormMessage } from "../components/Field";
import { InvalidParams } from "../components/InvalidParams";
import { Link } from "../components/Link";
import { LiveToggle } from "../components/LiveToggle";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { formatCount, formatPrice } from "../format";
import { formErrors } from "../formerrors";
import { useAsync } from "../hooks";
import { useWatch } from "../live";
import { type Route, SCOPES, SHORTLIST_TYPES, formatRoute } from "../route";
import { updateRoute } from "../router";
import { IST_LABEL, IST_ZONE, checkDate, checkWallClock, formatIST, istDate, istTime, istWallClock } from "../time";
import { runStats, valueOrders } from "../runstats";
import { OUTCOME_LABELS, outcomeKind } from "../totals";
import { plural } from "../words";
import { OutcomeBadge } from "./OrdersTable";

type ShortlistRoute = Extract<Route, { page: "shortlist" }>;
type Entry = Schemas["DashboardShortlistEntry"] & { rank: number };

const FIELDS = ["datetime", "type", "scope", "takeProfitPercentage", "stopLossPercentage"];
const LIST_NAMES = { TOP_GAINERS: "top gainers", VOLUME_SHOCKERS: "volume shockers" } as const;

function entryPrice(e: Entry): number | undefined {
  return e.price || e.quote?.quoteData?.payload?.last_price || undefined;
}

/** The snapshot instant at or before an IST time of day "HH:MM" of `times`, or what is wrong. */
function snapshotAt(times: readonly Date[], hhmm: string): { at: Date } | { error: string } {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return { error: `“${hhmm}” is not a time of day: write HH:MM (IST), for example 10:30.` };
  const wanted = `${m[1]!.padStart(2, "0")}:${m[2]}:59`;
  const before = times.filter((t) => istTime(t) <= wanted);
  const first = times[0];
  if (!before.length) return { error: first ? `The first snapshot of the day is at ${istTime(first)} ${IST_LABEL}.` : "There is no snapshot that day." };
  return { at: before.at(-1)! };
}

/** Why a parameter of a shortlist link was not used. */
function explainParam(name: string, text: string): string {
  switch (name) {
    case "at": {
      const checked = checkWallClock(text);
      return `The snapshot time “${text}”: ${checked.ok ? "write it as YYYY-MM-DDTHH:MM:SS (IST)." : checked.error} The day's latest snapshot is shown instead.`;
    }
    case "date": {
      const checked = checkDate(text);
      return `The date “${text}”: ${checked.ok ? "not a date." : checked.error} The latest day is shown instead.`;
    }
    case "tp": return `Take profit “${text}”: it must be a percentage of 0 or more. No outcomes are computed without it.`;
    case "sl": return `Stop loss “${text}”: it must be a percentage from 0 to 100. No outcomes are computed without it.`;
    default: return `${name} “${text}”.`;
  }
}

/** The shortlist at a chosen snapshot, each entry with the outcome of buying it then; live, it follows new snapshots. */
export function ShortlistPage({ route }: { route: ShortlistRoute }): VNode {
  const [tp, setTp] = useState(route.tp === undefined ? "" : String(route.tp));
  const [sl, setSl] = useState(route.sl === undefined ? "" : String(route.sl));
  const [goTo, setGoTo] = useState("");
  const [goError, setGoError] = useState<string | undefined>(undefined);
  useEffect(() => setTp(route.tp === undefined ? "" : String(route.tp)), [route.tp]);
  useEffect(() => setSl(route.sl === undefined ? "" : String(route.sl)), [route.sl]);

  const list = { type: route.type, scope: route.scope };
  const [liveEpoch, setLiveEpoch] = useState(0);
  // The dates and times of this list only (type and scope): no time is offered that it does not have.
  const dates = useAsync(
    async () => (await api().call("GET", "/v1/dashboard/available-datetimes", { params: { query: list } })).dates ?? [],
    [route.type, route.scope, liveEpoch],
  );
  const date = route.date ?? dates.data?.at(-1)?.date;
  const times = useAsync(async () => {
    if (!date) return [];
    const answer = await api().call("GET", "/v1/dashboard/available-datetimes", { params: { query: { date, ...list } } });
    return (answer.dates?.find((d) => d.date === date)?.timestamps ?? []).map((t) => new Date(t));
  }, [date, route.type, route.scope, liveEpoch]);
  // Without a chosen snapshot: the day's latest.
  const at = route.at ?? (times.data?.length ? istWallClock(times.data.at(-1)!) : undefined);
  const index = times.data?.findIndex((t) => istWallClock(t) === at) ?? -1;

  const shortlist = useAsync(async () => {
    if (!at) return undefined;
    return api().call("GET", "/v1/dashboard/shortlists", {
      params: {
        query: {
          datetime: at, timezone: IST_ZONE, type: route.type, scope: route.scope,
          ...(route.tp !== undefined ? { takeProfitPercentage: route.tp } : {}),
          ...(route.sl !== undefined ? { stopLossPercentage: route.sl } : {}),
        },
      },
    });
  }, [at, route.type, route.scope, route.tp, route.sl]);

  // Live: a new snapshot of this list is shown as it is written (and a new day as it starts).
  const onSnapshot = (event: StreamEvent) => {
    const snapshot = event.shortlist;
    if (!snapshot?.timestamp || snapshot.shortlistType !== route.type) return;
    // Following the latest: no chosen snapshot, and the day it belongs to.
    const day = istDate(snapshot.timestamp);
    if (route.at || (route.date && route.date !== day)) updateRoute(route, { date: undefined, at: undefined });
    setLiveEpoch((n) => n + 1);
  };
  const liveState = useWatch(
    route.live ? () => api().watchShortlists(route.type, { scope: route.scope }) : undefined,
    onSnapshot, [route.type, route.scope], () => setLiveEpoch((n) => n + 1));

  const errors = shortlist.state === "error" ? formErrors(shortlist.error, FIELDS) : { fields: {} as Record<string, string>, message: undefined };
  const entries = useMemo<Entry[]>(() => (shortlist.data?.entries ?? []).map((e, i) => ({ ...e, rank: i + 1 })), [shortlist.data]);
  // Counts and the hit rate; open entries are not valued here.
  const totals = useMemo(() => runStats(valueOrders(entries.map((e) => ({ entryPrice: entryPrice(e), outcome: e.outcome })), () => undefined)), [entries]);
  const withOutcome = route.tp !== undefined && route.sl !== undefined;

  const apply = (e: Event) => {
    e.preventDefault();
    const n = (s: string) => (s.trim() === "" ? undefined : Number(s));
    updateRoute(route, { tp: n(tp), sl: n(sl) });
  };
  const showSnapshot = (t: Date | undefined) => t && updateRoute(route, { date, at: istWallClock(t), live: undefined });
  const go = (e: Event) => {
    e.preventDefault();
    const found = snapshotAt(times.data ?? [], goTo);
    if ("error" in found) {
      setGoError(found.error);
      return;
    }
    setGoError(undefined);
    showSnapshot(found.at);
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
      {
        key: "outcome", label: "Outcome", value: (e) => outcomeKind(e.outcome), render: (e) => <OutcomeBadge kind={outcomeKind(e.outcome)} />,
        csv: (e) => OUTCOME_LABELS[outcomeKind(e.outcome)],
      },
      { key: "toTarget", label: "Min to target", value: (e) => e.outcome?.minutesToTarget, render: (e) => formatCount(e.outcome?.minutesToTarget), numeric: true },
      { key: "toStop", label: "Min to stop", value: (e) => e.outcome?.minutesToStopLoss, render: (e) => formatCount(e.outcome?.minutesToStopLoss), numeric: true },
    );
  }
  const times_ = times.data ?? [];

  return (
    <section>
      <h1>Shortlist</h1>
      <form class="toolbar" onSubmit={apply}>
        <Field id="sl-type" label="List" className="inline" error={errors.fields["type"]}>
          {(input) => (
            <select {...input} value={route.type} onChange={(e) => updateRoute(route, { type: e.currentTarget.value as ShortlistRoute["type"], at: undefined })}>
              {SHORTLIST_TYPES.map((t) => <option key={t} value={t}>{t === "TOP_GAINERS" ? "Top gainers" : "Volume shockers"}</option>)}
            </select>
          )}
        </Field>
        <Field id="sl-scope" label="Scope" className="inline" error={errors.fields["scope"]}>
          {(input) => (
            <select {...input} value={route.scope} onChange={(e) => updateRoute(route, { scope: e.currentTarget.value as ShortlistRoute["scope"], at: undefined })}>
              {SCOPES.map((s) => <option key={s} value={s}>{s === "TOP_5" ? "Top 5" : "Full"}</option>)}
            </select>
          )}
        </Field>
        <Field id="sl-date" label={`Date (${IST_LABEL})`} className="inline">
          {(input) => (
            <select {...input} value={date ?? ""} disabled={!dates.data?.length}
              onChange={(e) => updateRoute(route, { date: e.currentTarget.value, at: undefined, live: undefined })}>
              {!dates.data?.length && <option value="">{dates.state === "loading" ? "Loading…" : "No dates"}</option>}
              {(dates.data ?? []).map((d) => <option key={d.date} value={d.date}>{d.date} ({plural(d.count ?? 0, "snapshot")})</option>)}
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
        <LiveToggle on={Boolean(route.live)} state={liveState} what={`new ${LIST_NAMES[route.type]} snapshots`}
          onChange={(on) => updateRoute(route, on ? { live: true, date: undefined, at: undefined } : { live: undefined })} />
      </form>
      {times_.length > 0 && (
        <form class="toolbar snapshot-nav" onSubmit={go} aria-label="Snapshot">
          <div class="field inline">
            <span class="label-space">Snapshot ({IST_LABEL})</span>
            <span class="buttons">
              <button type="button" onClick={() => showSnapshot(times_[index - 1])} disabled={index <= 0}>◀ Previous</button>
              <output class="snapshot-now" data-testid="snapshot-now">
                {index >= 0 ? `${istTime(times_[index]!)} (${index + 1} of ${times_.length})` : at ? `as of ${at.slice(11)}` : "—"}
              </output>
              <button type="button" onClick={() => showSnapshot(times_[index + 1])} disabled={index < 0 || index >= times_.length - 1}>Next ▶</button>
              <button type="button" onClick={() => showSnapshot(times_.at(-1))} disabled={index === times_.length - 1}>Latest</button>
            </span>
          </div>
          <Field id="sl-goto" label="Go to time" className="inline" error={goError}>
            {(input) => <input {...input} inputMode="numeric" placeholder="HH:MM" size={6} value={goTo} onInput={(e) => setGoTo(e.currentTarget.value)} />}
          </Field>
          <button type="submit">Go</button>
        </form>
      )}
      <InvalidParams invalid={route.invalid} explain={explainParam} />
      {dates.state === "error" && <ErrorNote error={dates.error} retry={dates.reload} />}
      {dates.state === "ready" && dates.data.length === 0 && <Empty>No {LIST_NAMES[route.type]} snapshot ({route.scope === "TOP_5" ? "top 5" : "full"}) has been stored yet.</Empty>}
      {shortlist.state === "error" && <FormMessage message={errors.message ?? errors.fields["datetime"]} />}
      {shortlist.state === "loading" && at && !shortlist.data && <Loading what="the shortlist" />}
      {shortlist.data && (
        <>
          <p class="note" data-testid="snapshot-note">
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
              <div title="Of the entries that reached their target or their stop, the share that reached the target first."><dt>Hit rate</dt><dd>{totals.hitRate === undefined ? "—" : `${totals.hitRate.toFixed(1)}%`}</dd></div>
            </dl>
          )}
          {entries.length === 0 ? (
            <Empty>This snapshot is empty.</Empty>
          ) : (
            <DataTable
              caption={`${plural(entries.length, "entry", "entries")} of ${LIST_NAMES[route.type]}`}
              columns={columns}
              rows={entries}
              rowKey={(e) => `${e.rank}`}
              sort={route.sort}
              onSort={(sort) => updateRoute(route, { sort })}
              testId="shortlist-table"
              csv={["shortlist", route.type, route.scope, at?.replace(":", "").replace(":", "")]}
            />
          )}
        </>
      )}
    </section>
  );
}
