/**
 * Live quotes onto the chart's bars, by the server's candle rules
 * (docs/api.md section 6, domain/candles.cc), so the chart follows a watch
 * with series.update() instead of reading the day again: a quote in the
 * session opens or extends the bar of its interval bucket (aligned to the
 * session's open); the bar's volume grows by the increase of the day's
 * cumulative volume since the previous priced quote (the whole cumulative
 * value for the first, or when the counter went back). A quote without a
 * price changes nothing, as on the server. A quote that is not later than
 * the last one applied (a re-written record, one out of order) cannot be
 * applied in place: the caller reads the day again.
 */
import type { Bar, VolumeBar } from "./chartdata";
import { chartTime } from "../../time";

export interface LiveQuote {
  time: Date;
  price: number | null | undefined;
  /** The day's cumulative volume. */
  volume: number | null | undefined;
}

/** What the bars stand on: the last quote applied, and the cumulative volume the next one is measured from. */
export interface LiveBase {
  /** Epoch ms of the latest quote applied (or read with the day); undefined before any. */
  lastTime: number | undefined;
  /** The cumulative volume of the latest priced quote that had one; undefined before any. */
  lastVolume: number | undefined;
}

export interface Session {
  /** Epoch ms of the session's open and close (09:15 and 15:30 IST). */
  open: number;
  close: number;
  intervalMinutes: number;
}

export type LiveStep =
  | { kind: "ignore"; base: LiveBase }
  | { kind: "reload" }
  | { kind: "update"; bar: Bar; volume: VolumeBar; base: LiveBase; added: boolean };

/** The base after the stored quotes of the day (ascending), as the server's candles saw them. */
export function baseOf(quotes: readonly LiveQuote[], session: Pick<Session, "open" | "close">): LiveBase {
  const base: LiveBase = { lastTime: undefined, lastVolume: undefined };
  for (const q of quotes) {
    const t = q.time.getTime();
    if (t < session.open || t >= session.close) continue;
    base.lastTime = Math.max(base.lastTime ?? t, t);
    if (typeof q.price === "number" && typeof q.volume === "number") base.lastVolume = q.volume;
  }
  return base;
}

/** The chart bar a live quote makes, given the last bar drawn (undefined: none yet). */
export function applyQuote(last: { bar: Bar; volume: VolumeBar } | undefined, base: LiveBase, quote: LiveQuote, session: Session): LiveStep {
  const t = quote.time.getTime();
  if (t < session.open || t >= session.close) return { kind: "ignore", base };
  if (base.lastTime !== undefined && t <= base.lastTime) return { kind: "reload" };
  const moved: LiveBase = { ...base, lastTime: t };
  if (typeof quote.price !== "number" || !Number.isFinite(quote.price)) return { kind: "ignore", base: moved };
  let added = 0;
  if (typeof quote.volume === "number") {
    added = base.lastVolume === undefined || quote.volume < base.lastVolume ? quote.volume : quote.volume - base.lastVolume;
    moved.lastVolume = quote.volume;
  }
  const step = session.intervalMinutes * 60_000;
  const bucket = chartTime(new Date(session.open + Math.floor((t - session.open) / step) * step));
  const price = quote.price;
  if (last && last.bar.time === bucket) {
    const bar: Bar = { time: bucket, open: last.bar.open, high: Math.max(last.bar.high, price), low: Math.min(last.bar.low, price), close: price };
    return { kind: "update", bar, volume: { time: bucket, value: last.volume.value + added, up: bar.close >= bar.open }, base: moved, added: false };
  }
  if (last && last.bar.time > bucket) return { kind: "reload" };
  const bar: Bar = { time: bucket, open: price, high: price, low: price, close: price };
  return { kind: "update", bar, volume: { time: bucket, value: added, up: true }, base: moved, added: true };
}

/** One series followed live: its last bar and base, moved by each quote it takes. */
export class LiveSeries {
  private last: { bar: Bar; volume: VolumeBar } | undefined;
  private base: LiveBase;

  /** From the day as read: its bars and its quotes (ascending). */
  constructor(private readonly session: Session, prices: readonly Bar[], volumes: readonly VolumeBar[], quotes: readonly LiveQuote[]) {
    const bar = prices.at(-1);
    const volume = volumes.at(-1);
    this.last = bar ? { bar, volume: volume ?? { time: bar.time, value: 0, up: bar.close >= bar.open } } : undefined;
    this.base = baseOf(quotes, session);
  }

  /** Takes a live quote: the bar to draw, nothing, or "read the day again". */
  apply(quote: LiveQuote): LiveStep {
    const step = applyQuote(this.last, this.base, quote, this.session);
    if (step.kind === "update") this.last = { bar: step.bar, volume: step.volume };
    if (step.kind !== "reload") this.base = step.base;
    return step;
  }
}
