import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../../api";
import { holidaysOf } from "../../calendar";
import { DateInput, Field } from "../../components/Field";
import { InvalidParams } from "../../components/InvalidParams";
import { LiveToggle } from "../../components/LiveToggle";
import { Link } from "../../components/Link";
import { Empty, ErrorNote, Loading } from "../../components/Status";
import { SymbolSearch, matchSymbols, storedSymbol } from "../../components/SymbolSearch";
import { useAsync } from "../../hooks";
import { INTERVALS, RANGES, type Route, SYMBOL, formatRoute } from "../../route";
import { useKeys } from "../../keys";
import { updateRoute } from "../../router";
import { listOrders, listRuns } from "../../runs";
import { formatPrice } from "../../format";
import { IST_LABEL, checkDate, istDate, istTime, sessionOf, stepTradingDay } from "../../time";
import { plural } from "../../words";
import { CandleChart, type Overlay } from "./CandleChart";
import { orderLines, orderMarkers } from "./chartdata";
import { RecentCharts, explainParam } from "./ChartLinks";
import { INTERVAL_MINUTES, QuotesTable, intervalLabel } from "./QuotesTable";
import { RANGE_LABELS, isDaily, rangeStart, sessionsOf } from "./ranges";
import { recentCharts, rememberChart } from "../../recent";
import { UserLines, useUserLines } from "./UserLines";
import { AdjustmentControls, ADJUSTMENT_LABELS } from "./AdjustmentControls";
import { ActionsList } from "./ActionsList";
import { actionMarkers } from "./corporateActions";
import { useCorporateActions } from "./useCorporateActions";
import { NIFTY, useLiveDay } from "./useLiveDay";

type ChartRoute = Extract<Route, { page: "chart" }>;
type Order = Schemas["Order"];

/**
 * A symbol's candles of one day (NIFTY 50 as the symbol NIFTY), the orders
 * of a run on them, NIFTY as an optional overlay on a percent scale, and the
 * day's quotes beneath; in live mode the chart and the quotes follow new
 * quotes as they are written.
 */
export default function ChartPage({ route }: { route: ChartRoute }): VNode {
  const [symbolText, setSymbolText] = useState(route.symbol ?? route.invalid?.["symbol"] ?? "");
  const [dateText, setDateText] = useState(route.date ?? route.invalid?.["date"] ?? "");
  const [errors, setErrors] = useState<{ symbol?: string; date?: string }>({});
  const [more, setMore] = useState(false);
  useEffect(() => setSymbolText(route.symbol ?? route.invalid?.["symbol"] ?? ""), [route.symbol]);
  useEffect(() => setDateText(route.date ?? route.invalid?.["date"] ?? ""), [route.date]);
  // A date the link gave that is not one: said, not replaced by the latest day.
  const badDate = route.invalid?.["date"];

  // The day's symbols (the suggestions), and without a date the latest trading day with data.
  const coverage = useAsync(async () => ({
    asked: route.date,
    ...(await api().call("GET", "/v1/dashboard/coverage", { params: { query: route.date ? { date: route.date } : {} } })),
  }), [route.date]);
  useEffect(() => {
    // Only an answer to the question without a date names the latest day (a reload keeps the old answer meanwhile).
    if (!route.date && !badDate && coverage.data?.asked === undefined && coverage.data?.date) updateRoute(route, { date: coverage.data.date });
  }, [coverage.data, route.date]);
  const symbols = useMemo(
    () => [...(coverage.data?.nifty ? [NIFTY] : []), ...(coverage.data?.symbols ?? []).map((s) => s.nseSymbol ?? "")],
    [coverage.data],
  );
  const dayHasData = coverage.state === "ready" && coverage.data.date === route.date;
  const known = route.symbol ? storedSymbol(symbols, route.symbol) : undefined;
  // A symbol typed in another case is shown in the stored one.
  useEffect(() => {
    if (route.symbol && known && known !== route.symbol) updateRoute(route, { symbol: known });
  }, [known, route.symbol]);

  const symbol = known ?? route.symbol;
  // Remembered once the symbol is the stored one (or has no data that day).
  useEffect(() => {
    if (route.symbol && (known === route.symbol || (dayHasData && !known))) rememberChart(route);
  }, [route.symbol, route.interval, route.range, route.ind?.join(), route.nifty, known, dayHasData]);
  const recent = useMemo(() => (route.symbol ? [] : recentCharts()), [route.symbol]);
  const date = route.date;
  const ready = Boolean(symbol && date);
  const minutes = INTERVAL_MINUTES[route.interval];
  const session = useMemo(() => (date ? sessionOf(date) : undefined), [date]);
  const holidays = useAsync(async () => (date ? holidaysOf(Number(date.slice(0, 4))) : new Set<string>()), [date?.slice(0, 4)]);
  // Over a range (or in daily candles) the chart reads the candles of [from, date]; one day alone, the day's.
  const daily = isDaily(route.interval);
  const ranged = daily || Boolean(route.range && route.range !== "1d");
  const from = date && ranged ? rangeStart(date, route.range ?? "1d", holidays.data ?? new Set()) : date;

  const { day, data, rows, live, liveBars, overlayPoints, liveState } = useLiveDay({ route, symbol, date, ranged, from, session, minutes });

  const runs = useAsync(() => listRuns(), []);
  const orders = useAsync(async () => (route.runId ? listOrders(route.runId) : []), [route.runId]);
  const dayOrders = useMemo(
    () => (orders.data ?? []).filter((o: Order) => o.nseSymbol === symbol && o.time && istDate(new Date(o.time)) === date),
    [orders.data, symbol, date],
  );
  // Corporate actions: read over a range of a stock's candles when they are marked or the prices adjusted.
  const adjustable = ranged && Boolean(symbol) && symbol !== NIFTY;
  const corporate = useCorporateActions(symbol, from, date, adjustable && Boolean(route.adj || route.acts));
  // One array per answer: the chart sets its markers again only when they change.
  const markedActions = useMemo(
    () => (adjustable && route.acts ? (corporate.data?.actions ?? []) : []),
    [adjustable, route.acts, corporate.data],
  );
  const markers = useMemo(
    () => (symbol && date && !ranged
      ? orderMarkers(orders.data ?? [], symbol, date, data.prices.map((b) => b.time))
      : actionMarkers(markedActions, data.prices.map((b) => b.time), route.interval === "1week")),
    [orders.data, data, symbol, date, ranged, markedActions, route.interval],
  );
  const chosenOrder = dayOrders.find((o) => o.id === route.orderId) ?? dayOrders[0];
  const userLines = useUserLines(symbol);
  const priceLines = useMemo(
    () => [...(chosenOrder && !ranged ? orderLines(chosenOrder) : []), ...userLines.lines.map((price) => ({ price, color: "#0891b2", title: "Line", dashed: true }))],
    [chosenOrder, ranged, userLines.lines],
  );
  const overlay = useMemo<Overlay | undefined>(
    () => (route.nifty && symbol !== NIFTY && day.data?.nifty
      ? { label: "NIFTY 50", points: overlayPoints, base: day.data.nifty.candles.candles?.[0]?.open ?? undefined }
      : undefined),
    [route.nifty, symbol, day.data, overlayPoints],
  );

  const step = (dir: -1 | 1) => date && updateRoute(route, { date: stepTradingDay(date, dir, holidays.data ?? new Set()), live: undefined });
  const stepIn = <T,>(list: readonly T[], current: T, dir: -1 | 1): T => list[Math.min(list.length - 1, Math.max(0, list.indexOf(current) + dir))]!;
  useKeys({
    ArrowLeft: () => void step(-1),
    ArrowRight: () => void step(1),
    "+": () => updateRoute(route, { interval: stepIn(INTERVALS, route.interval, 1) }),
    "=": () => updateRoute(route, { interval: stepIn(INTERVALS, route.interval, 1) }),
    "-": () => updateRoute(route, { interval: stepIn(INTERVALS, route.interval, -1) }),
    "]": () => updateRoute(route, { range: stepIn(RANGES, route.range ?? "1d", 1), live: undefined }),
    "[": () => updateRoute(route, { range: stepIn(RANGES, route.range ?? "1d", -1) }),
    l: () => (ranged ? false : updateRoute(route, route.live ? { live: undefined } : { live: true, date: undefined })),
  });

  const show = (e: Event) => {
    e.preventDefault();
    const text = symbolText.trim();
    const found: { symbol?: string; date?: string } = {};
    if (!text) found.symbol = "Enter a symbol, for example RELIANCE, or NIFTY for the index.";
    else if (!SYMBOL.test(text)) found.symbol = `“${text}” is not a symbol: symbols are 1-32 letters, digits and & . _ - (no spaces).`;
    const checked = checkDate(dateText);
    if (!checked.ok) found.date = checked.error;
    setErrors(found);
    if (found.symbol || found.date || !checked.ok) return;
    const chosen = checked.value === date ? (storedSymbol(symbols, text) ?? text.toUpperCase()) : text.toUpperCase();
    updateRoute(route, { symbol: chosen, date: checked.value, orderId: undefined, live: checked.value === date ? route.live : undefined });
  };

  const unknownSymbol = dayHasData && route.symbol && !known;
  const sessions = sessionsOf(data.prices.map((b) => b.time)).length;
  const label = (ranged
    ? `${symbol === NIFTY ? "NIFTY 50" : symbol} from ${from} to ${date}, ${plural(data.prices.length, "candle")} of ${intervalLabel(route.interval)}` +
      (daily ? "" : ` over ${plural(sessions, "session")}`)
    : `${symbol === NIFTY ? "NIFTY 50" : symbol} on ${date}, ${plural(data.prices.length + liveBars, "candle")} of ${intervalLabel(route.interval)}`) +
    (route.runId && !ranged ? `, ${plural(markers.length, "order marker")} of run ${route.runId}` : "") +
    (adjustable && route.adj ? `, adjusted ${ADJUSTMENT_LABELS[route.adj].toLowerCase()}` : "") +
    (markedActions.length ? `, ${plural(markers.length, "corporate action")} marked` : "") +
    (overlay ? ", NIFTY 50 overlaid (percent scale)" : "");

  return (
    <section>
      <h1>Chart</h1>
      <form class="toolbar" onSubmit={show} noValidate>
        <Field id="chart-symbol" label="Symbol" className="inline" error={errors.symbol}>
          {(input) => (
            <SymbolSearch {...input} shortcut value={symbolText} symbols={symbols} onValue={setSymbolText}
              describe={(s) => (s === NIFTY ? "NIFTY 50 index" : undefined)}
              onPick={(s) => {
                setSymbolText(s);
                setErrors({});
                updateRoute(route, { symbol: s, orderId: undefined });
              }} />
          )}
        </Field>
        <Field id="chart-date" label={`Date (${IST_LABEL})`} className="inline" error={errors.date}>
          {(input) => <DateInput {...input} value={dateText} onValue={setDateText} />}
        </Field>
        <button type="submit" class="primary">Show</button>
        <div class="field inline day-steps" role="group" aria-label="Trading day">
          <span class="label-space" aria-hidden="true">&nbsp;</span>
          <span class="buttons">
            <button type="button" onClick={() => step(-1)} disabled={!date}>◀<span class="wide-text"> Previous day</span></button>
            <button type="button" onClick={() => step(1)} disabled={!date}><span class="wide-text">Next day </span>▶</button>
          </span>
        </div>
        <button type="button" class="more-toggle" aria-expanded={more} onClick={() => setMore(!more)}>{more ? "Fewer options" : "More options"}</button>
        <Field id="chart-interval" label="Interval" className="inline">
          {(input) => (
            <select {...input} value={route.interval} onChange={(e) => updateRoute(route, { interval: e.currentTarget.value as ChartRoute["interval"] })}>
              {INTERVALS.map((i) => <option key={i} value={i}>{intervalLabel(i)}</option>)}
            </select>
          )}
        </Field>
        <Field id="chart-range" label="Range" className="inline">
          {(input) => (
            <select {...input} value={route.range ?? "1d"}
              onChange={(e) => updateRoute(route, { range: e.currentTarget.value === "1d" ? undefined : (e.currentTarget.value as ChartRoute["range"]), live: undefined })}>
              {RANGES.map((r) => <option key={r} value={r}>{RANGE_LABELS[r]}</option>)}
            </select>
          )}
        </Field>
        {adjustable && (
          <AdjustmentControls adj={route.adj ?? "raw"} marked={Boolean(route.acts)}
            onAdj={(adj) => updateRoute(route, { adj: adj === "raw" ? undefined : adj })}
            onMarked={(on) => updateRoute(route, { acts: on || undefined })} />
        )}
        <div class={more ? "toolbar-more open" : "toolbar-more"}>
        <Field id="chart-run" label="Orders of run" className="inline">
          {(input) => (
            <select {...input} value={route.runId ?? ""} onChange={(e) => updateRoute(route, { runId: e.currentTarget.value || undefined, orderId: undefined })}>
              <option value="">None</option>
              {(runs.data ?? []).map((r) => <option key={r.id} value={r.id}>{r.name || `Run ${r.id}`} ({plural(r.orderCount ?? 0, "order")})</option>)}
            </select>
          )}
        </Field>
        {dayOrders.length > 1 && (
          <Field id="chart-order" label="Lines of order" className="inline">
            {(input) => (
              <select {...input} value={chosenOrder?.id ?? ""} onChange={(e) => updateRoute(route, { orderId: e.currentTarget.value || undefined })}>
                {dayOrders.map((o) => <option key={o.id} value={o.id}>{istTime(new Date(o.time ?? 0), false)} at {formatPrice(o.entryPrice)}</option>)}
              </select>
            )}
          </Field>
        )}
        <div class="field inline checkbox-field">
          <span class="label-space" aria-hidden="true">&nbsp;</span>
          <label class="check">
            <input type="checkbox" checked={Boolean(route.nifty)} disabled={symbol === NIFTY}
              onChange={(e) => updateRoute(route, { nifty: e.currentTarget.checked || undefined })} />
            NIFTY 50 overlay (percent scale)
          </label>
        </div>
        {!ranged && (
          <LiveToggle on={Boolean(route.live)} state={liveState}
            onChange={(on) => updateRoute(route, on ? { live: true, date: undefined } : { live: undefined })}
            what="new quotes of this symbol" />
        )}
        </div>
      </form>
      <InvalidParams invalid={route.invalid} explain={explainParam} />
      {coverage.state === "error" && <ErrorNote error={coverage.error} retry={coverage.reload} />}
      {!symbol && date && <Empty>Choose a symbol to see its candles of {date}: type a few letters for suggestions, or NIFTY for the index.</Empty>}
      {!symbol && <RecentCharts views={recent} date={date} />}
      {!date && coverage.state === "ready" && !coverage.data.date && <Empty>No market data is stored yet.</Empty>}
      {dayHasData && symbols.length === 0 && (
        <Empty>Nothing is stored for {date}. <button type="button" class="link" onClick={() => step(-1)}>Go to the previous trading day</button></Empty>
      )}
      {unknownSymbol && symbols.length > 0 && (
        <Empty>
          No quotes of {route.symbol} are stored for {date}.{" "}
          {matchSymbols(symbols, route.symbol ?? "", 8).length > 0 ? "Did you mean: " : "Symbols with data that day: "}
          {(matchSymbols(symbols, route.symbol ?? "", 8).length > 0 ? matchSymbols(symbols, route.symbol ?? "", 8) : symbols.slice(0, 8)).map((s, i) => (
            <span key={s}>{i > 0 && ", "}<Link to={formatRoute({ ...route, symbol: s, orderId: undefined })}>{s}</Link></span>
          ))}
        </Empty>
      )}
      {ready && !unknownSymbol && day.state === "error" && <ErrorNote error={day.error} retry={day.reload} />}
      {orders.state === "error" && <ErrorNote error={orders.error} retry={orders.reload} />}
      {ready && !unknownSymbol && day.state === "loading" && !day.data && <Loading what="candles" />}
      {ready && !unknownSymbol && day.data && data.prices.length === 0 && !route.live && (
        <Empty>No quotes of {symbol} are stored {ranged ? `from ${from} to ${date}` : `for the session of ${date}`}: nothing to draw.</Empty>
      )}
      {ready && !unknownSymbol && day.data && (data.prices.length > 0 || route.live) && (
        <>
          <CandleChart prices={data.prices} volumes={data.volumes} markers={markers} priceLines={priceLines} overlay={overlay}
            live={live} label={label} symbol={symbol === NIFTY ? "NIFTY 50" : (symbol ?? "")} daily={daily} breaks={ranged && !daily}
            indicators={route.ind} onIndicators={(ind) => updateRoute(route, { ind: ind.length ? ind : undefined })} />
          <UserLines lines={userLines} />
        </>
      )}
      {adjustable && (route.adj || route.acts) && corporate.state === "ready" && !corporate.data.known && (
        <Empty>{symbol} is not in the security master: there are no corporate actions to mark or adjust its prices for.</Empty>
      )}
      {corporate.state === "error" && <ErrorNote error={corporate.error} retry={corporate.reload} />}
      {adjustable && route.acts && corporate.data?.known && <ActionsList symbol={symbol ?? ""} actions={corporate.data.actions} />}
      {ready && !unknownSymbol && day.data && !ranged && (
        <QuotesTable symbol={symbol ?? ""} date={date ?? ""} rows={rows} nifty={symbol === NIFTY} />
      )}
    </section>
  );
}
