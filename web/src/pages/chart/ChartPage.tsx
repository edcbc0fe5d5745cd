import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../../api";
import { type Column, DataTable } from "../../components/DataTable";
import { Field } from "../../components/Field";
import { Empty, ErrorNote, Loading } from "../../components/Status";
import { formatCount, formatPercent, formatPrice } from "../../format";
import { useAsync } from "../../hooks";
import { INTERVALS, type Route } from "../../route";
import { updateRoute } from "../../router";
import { listOrders, listRuns } from "../../runs";
import type { SortSpec } from "../../sort";
import { IST_LABEL, formatIST } from "../../time";
import { CandleChart } from "./CandleChart";
import { bars, orderMarkers } from "./chartdata";

type ChartRoute = Extract<Route, { page: "chart" }>;
type Quote = Schemas["StockQuote"];

/** A symbol's candles of one day, a run's orders on them, and the day's quotes beneath. */
export default function ChartPage({ route }: { route: ChartRoute }): VNode {
  const [symbol, setSymbol] = useState(route.symbol ?? "");
  const [date, setDate] = useState(route.date ?? "");
  useEffect(() => setSymbol(route.symbol ?? ""), [route.symbol]);
  useEffect(() => setDate(route.date ?? ""), [route.date]);
  const [timelineSort, setTimelineSort] = useState<SortSpec | undefined>(undefined);

  const runs = useAsync(() => listRuns(), []);
  const dates = useAsync(async () => (await api().call("GET", "/v1/dashboard/available-datetimes")).dates ?? [], []);
  const ready = Boolean(route.symbol && route.date);
  const candles = useAsync(async () => {
    if (!route.symbol || !route.date) return undefined;
    return api().call("GET", "/v1/dashboard/candles", { params: { query: { symbol: route.symbol, date: route.date, interval: route.interval } } });
  }, [route.symbol, route.date, route.interval]);
  const orders = useAsync(async () => (route.runId ? listOrders(route.runId) : []), [route.runId]);
  const timeline = useAsync(async () => {
    if (!route.symbol || !route.date) return [];
    const answer = await api().call("GET", "/v1/dashboard/quote-timelines", { params: { query: { symbol: route.symbol, date: route.date } } });
    return answer.quotes ?? [];
  }, [route.symbol, route.date]);

  const data = useMemo(() => bars(candles.data?.candles ?? []), [candles.data]);
  const markers = useMemo(
    () => (route.symbol && route.date ? orderMarkers(orders.data ?? [], route.symbol, route.date, data.prices.map((b) => b.time)) : []),
    [orders.data, data, route.symbol, route.date],
  );

  const show = (e: Event) => {
    e.preventDefault();
    updateRoute(route, { symbol: symbol.trim() || undefined, date: date || undefined });
  };
  const quoteColumns: Column<Quote>[] = [
    { key: "time", label: `Time (${IST_LABEL})`, value: (q) => q.timestamp, render: (q) => formatIST(q.timestamp, { zone: false }) },
    { key: "last", label: "Last price", value: (q) => q.quoteData?.payload?.last_price, render: (q) => formatPrice(q.quoteData?.payload?.last_price), numeric: true },
    { key: "change", label: "Day change", value: (q) => q.quoteData?.payload?.day_change_perc, render: (q) => formatPercent(q.quoteData?.payload?.day_change_perc), numeric: true },
    { key: "volume", label: "Volume (day)", value: (q) => q.quoteData?.payload?.volume, render: (q) => formatCount(q.quoteData?.payload?.volume), numeric: true },
    { key: "status", label: "Status", value: (q) => String(q.quoteData?.status ?? "") },
  ];

  return (
    <section>
      <h1>Chart</h1>
      <form class="toolbar" onSubmit={show}>
        <Field id="chart-symbol" label="Symbol" className="inline">
          {(input) => <input {...input} required value={symbol} spellcheck={false} autoCapitalize="characters" onInput={(e) => setSymbol(e.currentTarget.value)} />}
        </Field>
        <Field id="chart-date" label={`Date (${IST_LABEL})`} className="inline">
          {(input) => (
            // Text, not type=date: a date input shows the browser's locale
            // (01/02/2025 reads as 1 February in India); the list offers the
            // dates with data.
            <input {...input} required list="chart-dates" placeholder="YYYY-MM-DD" pattern="\d{4}-\d{2}-\d{2}" size={11}
              inputMode="numeric" autoComplete="off" value={date} onInput={(e) => setDate(e.currentTarget.value)} />
          )}
        </Field>
        <datalist id="chart-dates">
          {(dates.data ?? []).map((d) => <option key={d.date} value={d.date} />)}
        </datalist>
        <button type="submit" class="primary">Show</button>
        <Field id="chart-interval" label="Interval" className="inline">
          {(input) => (
            <select {...input} value={route.interval} onChange={(e) => updateRoute(route, { interval: e.currentTarget.value as ChartRoute["interval"] })}>
              {INTERVALS.map((i) => <option key={i} value={i}>{i.replace("minute", " min").replace("hour", " hour")}</option>)}
            </select>
          )}
        </Field>
        <Field id="chart-run" label="Orders of run" className="inline">
          {(input) => (
            <select {...input} value={route.runId ?? ""} onChange={(e) => updateRoute(route, { runId: e.currentTarget.value || undefined })}>
              <option value="">None</option>
              {(runs.data ?? []).map((r) => <option key={r.id} value={r.id}>{r.name || `Run ${r.id}`} ({r.orderCount ?? 0})</option>)}
            </select>
          )}
        </Field>
      </form>
      {!ready && <Empty>Choose a symbol and a date to see its candles.</Empty>}
      {ready && candles.state === "error" && <ErrorNote error={candles.error} retry={candles.reload} />}
      {orders.state === "error" && <ErrorNote error={orders.error} retry={orders.reload} />}
      {ready && candles.state === "loading" && <Loading what="candles" />}
      {ready && candles.state === "ready" && data.prices.length === 0 && (
        <Empty>No quotes of {route.symbol} stored for {route.date}: nothing to draw.</Empty>
      )}
      {ready && candles.state === "ready" && data.prices.length > 0 && (
        <CandleChart
          prices={data.prices}
          volumes={data.volumes}
          markers={markers}
          label={`${route.symbol} on ${route.date}, ${data.prices.length} candles of ${route.interval}${route.runId ? `, ${markers.length} order markers of run ${route.runId}` : ""}`}
        />
      )}
      {ready && (
        <>
          <h2>Quotes of the day</h2>
          {timeline.state === "error" && <ErrorNote error={timeline.error} retry={timeline.reload} />}
          {timeline.state === "loading" && <Loading what="quotes" />}
          {timeline.state === "ready" && timeline.data.length === 0 && <Empty>No quotes stored for this day.</Empty>}
          {timeline.state === "ready" && timeline.data.length > 0 && (
            <DataTable
              caption={`${timeline.data.length} quotes of ${route.symbol} on ${route.date}`}
              columns={quoteColumns}
              rows={timeline.data}
              rowKey={(q) => q.timestamp ?? ""}
              sort={timelineSort}
              onSort={setTimelineSort}
              testId="timeline-table"
              scroll
            />
          )}
        </>
      )}
    </section>
  );
}
