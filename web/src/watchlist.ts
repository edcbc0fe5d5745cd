/**
 * The watchlist's data: the symbols kept in this browser (localStorage), and
 * each symbol's row of a trading day from the API's candles (last price,
 * change from the previous session's close, the day's volume, an intraday
 * sparkline of 5-minute closes), changed in place by live quotes.
 */
import { SYMBOL } from "./route";
import { chartTime } from "./time";

const KEY = "mdc.watchlist";
export const DEFAULT_WATCHLIST = ["NIFTY"];
/** The API reads at most 100 symbols' candles in one call. */
export const MAX_SYMBOLS = 100;
export const SPARK_MINUTES = 5;

export function loadWatchlist(): string[] {
  try {
    const stored = localStorage.getItem(KEY);
    if (stored === null) return DEFAULT_WATCHLIST;
    const list = JSON.parse(stored) as unknown;
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === "string" && SYMBOL.test(s)).slice(0, MAX_SYMBOLS) : DEFAULT_WATCHLIST;
  } catch {
    return DEFAULT_WATCHLIST;
  }
}

export function saveWatchlist(symbols: readonly string[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(symbols));
  } catch {
    // Storage refused: the list lasts for this page.
  }
}

export interface CandleLike {
  time?: string | null | undefined;
  open?: number | null | undefined;
  close?: number | null | undefined;
  volume?: number | null | undefined;
}

export interface WatchRow {
  symbol: string;
  last?: number | undefined;
  /** The previous session's close: what the change is measured from. */
  previousClose?: number | undefined;
  volume?: number | undefined;
  /** Intraday closes: [bucket start (ms), close]. */
  spark: [number, number][];
  /** When the last price was observed (ms). */
  time?: number | undefined;
}

export function change(row: WatchRow): { abs?: number; pct?: number } {
  if (row.last === undefined || !row.previousClose) return {};
  return { abs: row.last - row.previousClose, pct: ((row.last - row.previousClose) / row.previousClose) * 100 };
}

/**
 * A symbol's row of `date` from its daily candles (the last one on or before
 * the date is the day's, the one before it the previous session's) and its
 * intraday candles of the day.
 */
export function watchRow(symbol: string, date: string, daily: readonly CandleLike[], intraday: readonly CandleLike[], dayOf: (t: Date) => string): WatchRow {
  const days = daily.filter((c) => c.time && typeof c.close === "number");
  const todayIndex = days.findIndex((c) => dayOf(new Date(c.time!)) === date);
  const today = todayIndex >= 0 ? days[todayIndex] : undefined;
  const before = days.filter((c) => dayOf(new Date(c.time!)) < date).at(-1);
  const spark = intraday
    .filter((c) => c.time && typeof c.close === "number")
    .map((c) => [new Date(c.time!).getTime(), c.close!] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  return {
    symbol,
    last: today?.close ?? undefined,
    previousClose: before?.close ?? undefined,
    volume: today ? (today.volume ?? undefined) : undefined,
    spark,
    time: spark.at(-1)?.[0],
  };
}

/** The start (ms) of the 5-minute bucket of an instant, on the grid from 09:15 IST. */
export function bucketOf(at: Date, minutes = SPARK_MINUTES): number {
  // chartTime shifts to IST; 09:15 is 33,300 s into the IST day.
  const ist = chartTime(at);
  const intoDay = ((ist % 86_400) + 86_400) % 86_400;
  const fromOpen = intoDay - 33_300;
  const start = ist - intoDay + 33_300 + Math.floor(fromOpen / (minutes * 60)) * minutes * 60;
  return at.getTime() - (ist - start) * 1000 - (at.getTime() % 1000);
}

/** A row after a live quote of its symbol: the last price, the day's cumulative volume, the sparkline's last point. */
export function applyQuote(row: WatchRow, at: Date, price: number | undefined, volume: number | undefined): WatchRow {
  if (price === undefined || !Number.isFinite(price)) return row;
  if (row.time !== undefined && at.getTime() < row.time) return row; // an older record: the row already shows later
  const bucket = bucketOf(at);
  const spark = row.spark.slice();
  if (spark.length && spark.at(-1)![0] === bucket) spark[spark.length - 1] = [bucket, price];
  else spark.push([bucket, price]);
  return { ...row, last: price, volume: volume ?? row.volume, spark, time: at.getTime() };
}
