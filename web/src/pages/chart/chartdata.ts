/**
 * The chart's data from the API's answers: candles and volume bars at IST-
 * shifted times (time.ts, chartTime), and the markers of a run's orders on
 * the bars they fall in.
 */
import { formatPrice } from "../../format";
import { chartTime, istDate } from "../../time";
import { outcomeKind } from "../../totals";

export interface CandleLike {
  time?: string | null | undefined;
  open?: number | null | undefined;
  high?: number | null | undefined;
  low?: number | null | undefined;
  close?: number | null | undefined;
  volume?: number | null | undefined;
}

export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export interface VolumeBar {
  time: number;
  value: number;
  up: boolean;
}

/** Bars in ascending time, one per time (the chart refuses repeats), skipping incomplete candles. */
export function bars(candles: readonly CandleLike[]): { prices: Bar[]; volumes: VolumeBar[] } {
  const prices: Bar[] = [];
  const volumes: VolumeBar[] = [];
  const sorted = candles
    .filter((c) => c.time && [c.open, c.high, c.low, c.close].every((v) => typeof v === "number" && Number.isFinite(v)))
    .map((c) => ({ c, t: chartTime(new Date(c.time as string)) }))
    .sort((a, b) => a.t - b.t);
  for (const { c, t } of sorted) {
    if (prices.length && prices[prices.length - 1]!.time === t) continue;
    prices.push({ time: t, open: c.open!, high: c.high!, low: c.low!, close: c.close! });
    volumes.push({ time: t, value: c.volume ?? 0, up: c.close! >= c.open! });
  }
  return { prices, volumes };
}

/** The time of the bar an instant falls in: the last bar starting at or before it (undefined before the first). */
export function barAt(barTimes: readonly number[], t: number): number | undefined {
  let lo = 0;
  let hi = barTimes.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (barTimes[mid]! <= t) {
      found = barTimes[mid];
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

export interface OrderLike {
  id?: string | null | undefined;
  nseSymbol?: string | null | undefined;
  time?: string | null | undefined;
  entryPrice?: number | null | undefined;
  outcome?: {
    targetAchieved?: boolean | null | undefined;
    stopLossHit?: boolean | null | undefined;
    targetTime?: string | null | undefined;
    stopLossTime?: string | null | undefined;
    targetPrice?: number | null | undefined;
    stopLossPrice?: number | null | undefined;
  } | undefined;
}

export interface Marker {
  time: number;
  position: "belowBar" | "aboveBar";
  shape: "arrowUp" | "arrowDown" | "circle";
  color: string;
  text: string;
}

export const MARKER_COLORS = { entry: "#2563eb", target: "#15803d", stop: "#b91c1c" } as const;

/**
 * Markers for the orders of `symbol` placed on `date` (IST): an arrow under
 * the bar of each entry, and one above the bar where its target or stop was
 * hit. Sorted by time, as the chart wants them.
 */
export function orderMarkers(orders: readonly OrderLike[], symbol: string, date: string, barTimes: readonly number[]): Marker[] {
  const markers: Marker[] = [];
  const at = (iso: string | null | undefined) => (iso ? barAt(barTimes, chartTime(new Date(iso))) : undefined);
  for (const o of orders) {
    if (o.nseSymbol !== symbol || !o.time || istDate(new Date(o.time)) !== date) continue;
    const entry = at(o.time);
    if (entry === undefined) continue;
    markers.push({ time: entry, position: "belowBar", shape: "arrowUp", color: MARKER_COLORS.entry, text: `Buy ${formatPrice(o.entryPrice)}` });
    const kind = outcomeKind(o.outcome);
    const exit = kind === "target" ? at(o.outcome?.targetTime) : kind === "stop" ? at(o.outcome?.stopLossTime) : undefined;
    if (exit !== undefined) {
      markers.push(kind === "target"
        ? { time: exit, position: "aboveBar", shape: "arrowDown", color: MARKER_COLORS.target, text: `Target ${formatPrice(o.outcome?.targetPrice)}` }
        : { time: exit, position: "aboveBar", shape: "arrowDown", color: MARKER_COLORS.stop, text: `Stop ${formatPrice(o.outcome?.stopLossPrice)}` });
    }
  }
  return markers.sort((a, b) => a.time - b.time);
}

/** The instant of a chart time (IST-shifted seconds, chartTime). */
export function fromChartTime(t: number): Date {
  return new Date(t * 1000 - 330 * 60_000);
}

/** A horizontal line at a price: an order's entry, target or stop. */
export interface PriceLineSpec {
  price: number;
  color: string;
  title: string;
  dashed: boolean;
}

/** The entry, target and stop of one order as price lines. */
export function orderLines(order: {
  entryPrice?: number | null | undefined;
  takeProfitPrice?: number | null | undefined;
  stopLossPrice?: number | null | undefined;
  outcome?: { targetPrice?: number | null | undefined; stopLossPrice?: number | null | undefined } | null | undefined;
}): PriceLineSpec[] {
  const lines: PriceLineSpec[] = [];
  const add = (price: number | null | undefined, color: string, title: string, dashed: boolean) => {
    if (typeof price === "number" && Number.isFinite(price)) lines.push({ price, color, title, dashed });
  };
  add(order.entryPrice, MARKER_COLORS.entry, "Entry", false);
  add(order.outcome?.targetPrice ?? order.takeProfitPrice, MARKER_COLORS.target, "Target", true);
  add(order.outcome?.stopLossPrice ?? order.stopLossPrice, MARKER_COLORS.stop, "Stop", true);
  return lines;
}

/** The closes of another series' candles as a line (the overlay), at the chart's times. */
export function closeLine(candles: readonly CandleLike[]): { time: number; value: number }[] {
  return bars(candles).prices.map((b) => ({ time: b.time, value: b.close }));
}

/**
 * Bars for the chart with an empty slot (a time without prices, which
 * lightweight-charts draws as a gap) after each session's last bar when
 * `breaks`: intraday candles of several days show where a day ends. Times
 * are IST-shifted seconds, so a day is 86,400 of them.
 */
export function withBreaks(prices: readonly Bar[], breaks: boolean): (Bar | { time: number })[] {
  const out: (Bar | { time: number })[] = [];
  for (let i = 0; i < prices.length; i++) {
    const b = prices[i]!;
    const prev = prices[i - 1];
    if (breaks && prev && Math.floor(prev.time / 86_400) !== Math.floor(b.time / 86_400)) out.push({ time: prev.time + 1 });
    out.push(b);
  }
  return out;
}
