/**
 * The watchlist's live data: the latest trading day with data, each
 * symbol's row of it (watchlist.ts), and the watches that keep the rows
 * current (quotes of the symbols, NIFTY 50's when NIFTY is listed). As on
 * the chart, the watches open first and the day is read once they are
 * live; quotes that arrive while it is read are applied after it.
 */
import type { StreamEvent } from "@mdc/client";
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../../api";
import { useAsync } from "../../hooks";
import { type LiveState, useWatch } from "../../live";
import { IST_ZONE, addDays, istDate } from "../../time";
import { type WatchRow, applyQuote, watchRow } from "../../watchlist";

export const NIFTY = "NIFTY";

type Candles = { symbol?: string; candles?: { time?: string; open?: number; close?: number; volume?: number }[] }[];

async function candlesOf(symbols: string[], interval: "1day" | "5minute", from: string, to: string): Promise<Candles> {
  const answer = await api().call("GET", "/v1/developer/candles", {
    params: { query: { symbols, interval, start_datetime: `${from}T00:00:00`, end_datetime: `${to}T00:00:00`, timezone: IST_ZONE } },
  });
  return (answer.series ?? []) as Candles;
}

export interface Watchlist {
  date: string | undefined;
  rows: WatchRow[];
  state: "loading" | "ready" | "error";
  error?: unknown;
  reload: () => void;
  live: LiveState;
}

export function useWatchlist(symbols: readonly string[]): Watchlist {
  const [epoch, setEpoch] = useState(0);
  const key = symbols.join(",");
  const pending = useRef(true);
  const waiting = useRef<StreamEvent[]>([]);
  const [rows, setRows] = useState<WatchRow[]>([]);

  const day = useAsync(async () => {
    pending.current = true;
    const coverage = await api().call("GET", "/v1/dashboard/coverage", { params: { query: {} } });
    const date = coverage.date;
    if (!date || symbols.length === 0) return { date, rows: symbols.map((s) => ({ symbol: s, spark: [] }) as WatchRow) };
    const list = [...symbols];
    // Two weeks of daily candles hold the previous session's close (past holidays and weekends).
    const [daily, intraday] = await Promise.all([
      candlesOf(list, "1day", addDays(date, -14), addDays(date, 1)),
      candlesOf(list, "5minute", date, addDays(date, 1)),
    ]);
    const of = (series: Candles, s: string) => series.find((x) => x.symbol === s)?.candles ?? [];
    return { date, rows: list.map((s) => watchRow(s, date, of(daily, s), of(intraday, s), istDate)) };
  }, [key, epoch]);

  const take = (event: StreamEvent) => {
    const date = day.data?.date;
    const record = event.nifty ? { symbol: NIFTY, r: event.nifty } : event.quote ? { symbol: event.quote.nseSymbol ?? "", r: event.quote } : undefined;
    if (!record?.r.timestamp || !date) return;
    const at = record.r.timestamp;
    // A new trading day: read it.
    if (istDate(at) > date) {
      setEpoch((n) => n + 1);
      return;
    }
    if (istDate(at) !== date) return;
    const payload = record.r.quoteData?.payload;
    setRows((prev) => prev.map((row) => (row.symbol === record.symbol ? applyQuote(row, at, payload?.last_price ?? undefined, payload?.volume ?? undefined) : row)));
  };

  useEffect(() => {
    if (day.state === "loading") return;
    pending.current = false;
    setRows(day.data?.rows ?? []);
    const held = waiting.current;
    waiting.current = [];
    for (const event of held) take(event);
  }, [day.data, day.state]);

  const onEvent = (event: StreamEvent) => (pending.current ? void waiting.current.push(event) : take(event));
  const stocks = symbols.filter((s) => s !== NIFTY);
  const withNifty = symbols.includes(NIFTY);
  const quotes = useWatch(stocks.length ? () => api().watchQuotes(stocks) : undefined, onEvent, [stocks.join(",")], () => setEpoch((n) => n + 1));
  const nifty = useWatch(withNifty ? () => api().watchNifty() : undefined, onEvent, [withNifty], () => setEpoch((n) => n + 1));
  // Live when every watch it needs is.
  const states = [stocks.length ? quotes : undefined, withNifty ? nifty : undefined].filter((s): s is LiveState => s !== undefined);
  const live: LiveState = states.find((s) => s.status === "failed")
    ?? states.find((s) => s.status === "connecting")
    ?? { status: states.length ? "live" : "off", lastEvent: states.map((s) => s.lastEvent).filter((d): d is Date => d !== undefined).sort((a, b) => a.getTime() - b.getTime()).at(-1) };

  return {
    date: day.data?.date,
    rows: day.state === "loading" && !day.data ? [] : rows,
    state: day.state,
    error: day.error,
    reload: day.reload,
    live,
  };
}
