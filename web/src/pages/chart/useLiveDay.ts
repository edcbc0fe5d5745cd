import type { StreamEvent } from "@mdc/client";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api } from "../../api";
import { useAsync } from "../../hooks";
import { useWatch } from "../../live";
import type { Route } from "../../route";
import { IST_ZONE, addDays, istDate, type sessionOf } from "../../time";
import type { LiveUpdate, Overlay } from "./CandleChart";
import { bars, closeLine } from "./chartdata";
import { type LiveQuote, LiveSeries } from "./livebars";
import { type DayQuote, withRow } from "./QuotesTable";
import { isDaily } from "./ranges";

type ChartRoute = Extract<Route, { page: "chart" }>;

export const NIFTY = "NIFTY";

/** A live event as a quote of `symbol` (NIFTY 50's when the symbol is NIFTY), or undefined. */
function liveQuote(event: StreamEvent, symbol: string): (LiveQuote & { row: DayQuote }) | undefined {
  const record = symbol === NIFTY ? event.nifty : event.quote?.nseSymbol === symbol ? event.quote : undefined;
  if (!record?.timestamp) return undefined;
  const payload = record.quoteData?.payload;
  return {
    time: record.timestamp,
    price: payload?.last_price,
    volume: payload?.volume,
    row: { timestamp: record.timestamp.toISOString(), nseSymbol: symbol, quoteData: record.quoteData as DayQuote["quoteData"] },
  };
}

function liveQuotes(rows: readonly DayQuote[]): LiveQuote[] {
  return rows.map((q) => ({ time: new Date(q.timestamp ?? 0), price: q.quoteData?.payload?.last_price, volume: q.quoteData?.payload?.volume }));
}

/** What the chart shows of its day, and how it follows it live. */
export interface LiveDayOptions {
  route: ChartRoute;
  /** The chart's symbol (NIFTY for NIFTY 50) and day; nothing is read without both. */
  symbol: string | undefined;
  date: string | undefined;
  /** Over a range or in daily candles: the candles of [from, date], never followed live. */
  ranged: boolean;
  from: string | undefined;
  session: ReturnType<typeof sessionOf> | undefined;
  /** Minutes of a bar. */
  minutes: number;
}

/**
 * The chart's day: its candles, quotes and NIFTY overlay read from the
 * server, then, in live mode, kept up to date by the quote watches. The
 * watch opens before the day is read and the events that arrive while it is
 * read wait for its answer, so nothing written in between is missed or
 * counted twice; an event the bars cannot take in place (a reload) reads
 * the day again.
 */
export function useLiveDay({ route, symbol, date, ranged, from, session, minutes }: LiveDayOptions) {
  // Live: the watch opens first, then the day is read, so nothing written in between is missed.
  const [liveEpoch, setLiveEpoch] = useState(0);
  const liveNifty = Boolean(route.live && route.nifty && symbol !== NIFTY && !isDaily(route.interval) && !(route.range && route.range !== "1d"));
  // From the moment a read of the day is sent until the series are built from its answer, live events wait
  // (a ref, not the rendered state: an event can arrive between the read's start and the next render, or
  // between the render of its answer and the effect that builds the series).
  const readPending = useRef(false);
  const day = useAsync(async () => {
    readPending.current = true;
    if (!symbol || !date) return undefined;
    const withNifty = Boolean(route.nifty && symbol !== NIFTY);
    const candlesOf = (s: string) => (ranged && from
      ? api().call("GET", "/v1/developer/historical-candles", {
        params: { query: {
          symbol: s, interval: route.interval, start_datetime: `${from}T00:00:00`, end_datetime: `${addDays(date, 1)}T00:00:00`, timezone: IST_ZONE,
          // The index is never adjusted (docs/api.md section 13.4).
          ...(route.adj && s !== NIFTY ? { adjustment: route.adj } : {}),
        } },
      })
      : api().call("GET", "/v1/dashboard/candles", { params: { query: { symbol: s, date, interval: route.interval } } }));
    const quotesOf = async (s: string) =>
      ((await api().call("GET", "/v1/dashboard/quote-timelines", { params: { query: { symbol: s, date } } })).quotes ?? []) as DayQuote[];
    const [candles, quotes, niftyCandles, niftyQuotes] = await Promise.all([
      candlesOf(symbol),
      ranged ? [] : quotesOf(symbol),
      withNifty ? candlesOf(NIFTY) : undefined,
      // The overlay's quotes only to follow it live (its volume base).
      withNifty && route.live && !ranged ? quotesOf(NIFTY) : [],
    ]);
    return { candles, quotes, nifty: niftyCandles && { candles: niftyCandles, quotes: niftyQuotes } };
  }, [symbol, date, route.interval, route.nifty, liveEpoch, ranged, from, route.adj]);

  const data = useMemo(() => bars(day.data?.candles.candles ?? []), [day.data]);
  const [rows, setRows] = useState<DayQuote[]>([]);
  const [live, setLive] = useState<LiveUpdate | undefined>(undefined);
  const [liveBars, setLiveBars] = useState(0); // bars live quotes added since the day was read
  const [overlayPoints, setOverlayPoints] = useState<Overlay["points"]>([]);
  const series = useRef<{ main?: LiveSeries; nifty?: LiveSeries }>({});
  // Live events that arrive while the day is being read: applied once it is, those it already holds skipped.
  const waiting = useRef<{ main: StreamEvent[]; nifty: StreamEvent[] }>({ main: [], nifty: [] });

  /** A live event of the chart's symbol: a new or changed bar, and a row of the quotes. With `replay` (an
   * event that waited for the day's read), one the read already held is skipped rather than read again. */
  const takeMain = (event: StreamEvent, replay: boolean) => {
    if (!symbol || !date) return;
    const q = liveQuote(event, symbol);
    if (!q || istDate(q.time) !== date) return;
    setRows((prev) => withRow(prev, q.row));
    const step = series.current.main?.apply(q);
    if (step?.kind === "update") {
      setLive((prev) => ({ seq: (prev?.seq ?? 0) + 1, bar: step.bar, volume: step.volume }));
      if (step.added) setLiveBars((n) => n + 1);
    }
    if (step?.kind === "reload" && !replay) setLiveEpoch((n) => n + 1);
  };
  const takeNifty = (event: StreamEvent, replay: boolean) => {
    const q = liveQuote(event, NIFTY);
    if (!q || !date || istDate(q.time) !== date) return;
    const step = series.current.nifty?.apply(q);
    if (step?.kind === "update") {
      const point = { time: step.bar.time, value: step.bar.close };
      setOverlayPoints((prev) => (prev.at(-1)?.time === point.time ? [...prev.slice(0, -1), point] : [...prev, point]));
    }
    if (step?.kind === "reload" && !replay) setLiveEpoch((n) => n + 1);
  };

  useEffect(() => {
    if (day.state === "loading") return;
    readPending.current = false;
    const { main, nifty } = waiting.current;
    waiting.current = { main: [], nifty: [] };
    setRows(day.data?.quotes ?? []);
    setLive(undefined);
    setLiveBars(0);
    const niftyBars = bars(day.data?.nifty?.candles.candles ?? []);
    setOverlayPoints(closeLine(day.data?.nifty?.candles.candles ?? []));
    if (!session || !day.data) return;
    const spec = { open: session.open.getTime(), close: session.close.getTime(), intervalMinutes: minutes };
    series.current = {
      main: new LiveSeries(spec, data.prices, data.volumes, liveQuotes(day.data.quotes)),
      nifty: day.data.nifty ? new LiveSeries(spec, niftyBars.prices, niftyBars.volumes, liveQuotes(day.data.nifty.quotes)) : undefined,
    };
    for (const event of main) takeMain(event, true);
    for (const event of nifty) takeNifty(event, true);
  }, [day.data, day.state]);

  const onMain = (event: StreamEvent) => (readPending.current ? void waiting.current.main.push(event) : takeMain(event, false));
  const onNifty = (event: StreamEvent) => (readPending.current ? void waiting.current.nifty.push(event) : takeNifty(event, false));
  const watching = route.live && symbol && date && !ranged ? symbol : undefined;
  const liveState = useWatch(
    watching ? () => (watching === NIFTY ? api().watchNifty() : api().watchQuotes([watching])) : undefined,
    onMain, [watching, date, route.interval], () => setLiveEpoch((n) => n + 1));
  useWatch(liveNifty ? () => api().watchNifty() : undefined, onNifty, [liveNifty, date, route.interval], () => setLiveEpoch((n) => n + 1));

  return { day, data, rows, live, liveBars, overlayPoints, liveState };
}
