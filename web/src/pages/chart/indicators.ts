/**
 * The chart's indicators, computed from its bars: plain functions, one
 * value per bar (undefined where a value is not defined yet), unit-tested
 * against values computed by hand (test/indicators.test.ts).
 *
 * - SMA(n): the mean of the last n closes.
 * - EMA(n): seeded with the SMA of the first n closes, then
 *   ema = close * k + previous * (1 - k), k = 2 / (n + 1).
 * - Bollinger bands (n, m): SMA(n) and SMA(n) +- m population standard
 *   deviations of the same n closes.
 * - RSI(n), Wilder's: the first average gain and loss are the means of the
 *   first n changes, then avg = (previous * (n - 1) + this change) / n;
 *   RSI = 100 - 100 / (1 + avgGain / avgLoss) (100 when there was no loss).
 * - VWAP: from each session's first bar, the sum of typical price
 *   ((high + low + close) / 3) times volume over the sum of volume; it
 *   starts again with each session (`sessionOf` names a bar's session).
 */

export type Series = (number | undefined)[];

export function sma(values: readonly number[], n: number): Series {
  const out: Series = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i]!;
    if (i >= n) sum -= values[i - n]!;
    out.push(i >= n - 1 ? sum / n : undefined);
  }
  return out;
}

export function ema(values: readonly number[], n: number): Series {
  const out: Series = [];
  const k = 2 / (n + 1);
  let prev: number | undefined;
  for (let i = 0; i < values.length; i++) {
    if (i < n - 1) out.push(undefined);
    else if (i === n - 1) {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += values[j]!;
      prev = sum / n;
      out.push(prev);
    } else {
      prev = values[i]! * k + prev! * (1 - k);
      out.push(prev);
    }
  }
  return out;
}

export function bollinger(values: readonly number[], n: number, width: number): { middle: Series; upper: Series; lower: Series } {
  const middle = sma(values, n);
  const upper: Series = [];
  const lower: Series = [];
  for (let i = 0; i < values.length; i++) {
    const mean = middle[i];
    if (mean === undefined) {
      upper.push(undefined);
      lower.push(undefined);
      continue;
    }
    let sq = 0;
    for (let j = i - n + 1; j <= i; j++) sq += (values[j]! - mean) ** 2;
    const sd = Math.sqrt(sq / n);
    upper.push(mean + width * sd);
    lower.push(mean - width * sd);
  }
  return { middle, upper, lower };
}

export function rsi(values: readonly number[], n: number): Series {
  const out: Series = values.length ? [undefined] : [];
  let gain = 0;
  let loss = 0;
  for (let i = 1; i < values.length; i++) {
    const change = values[i]! - values[i - 1]!;
    const up = Math.max(0, change);
    const down = Math.max(0, -change);
    if (i <= n) {
      gain += up / n;
      loss += down / n;
      if (i < n) {
        out.push(undefined);
        continue;
      }
    } else {
      gain = (gain * (n - 1) + up) / n;
      loss = (loss * (n - 1) + down) / n;
    }
    out.push(loss === 0 ? 100 : 100 - 100 / (1 + gain / loss));
  }
  return out;
}

export interface VwapBar {
  high: number;
  low: number;
  close: number;
  volume: number;
  /** The bar's session (its trading day): VWAP starts again with each. */
  session: string;
}

export function vwap(bars: readonly VwapBar[]): Series {
  const out: Series = [];
  let session: string | undefined;
  let pv = 0;
  let vol = 0;
  for (const b of bars) {
    if (b.session !== session) {
      session = b.session;
      pv = 0;
      vol = 0;
    }
    pv += ((b.high + b.low + b.close) / 3) * b.volume;
    vol += b.volume;
    out.push(vol > 0 ? pv / vol : undefined);
  }
  return out;
}

/** The chart's indicators with their settings: what the legend names and the chart draws. */
export const INDICATOR_SPECS = {
  vwap: { label: "VWAP", color: "#0891b2" },
  sma: { label: "SMA 20", color: "#d97706" },
  ema: { label: "EMA 20", color: "#db2777" },
  bb: { label: "BB 20, 2", color: "#64748b" },
  rsi: { label: "RSI 14", color: "#7c3aed" },
} as const;

export interface IndicatorValues {
  vwap: Series;
  sma: Series;
  ema: Series;
  bbUpper: Series;
  bbMiddle: Series;
  bbLower: Series;
  rsi: Series;
}

/** Every indicator over bars (closes, volumes; `session` names each bar's trading day for VWAP). */
export function indicatorValues(bars: readonly { high: number; low: number; close: number; session: string | number }[], volumes: readonly number[]): IndicatorValues {
  const closes = bars.map((b) => b.close);
  const bands = bollinger(closes, 20, 2);
  return {
    vwap: vwap(bars.map((b, i) => ({ high: b.high, low: b.low, close: b.close, volume: volumes[i] ?? 0, session: String(b.session) }))),
    sma: sma(closes, 20),
    ema: ema(closes, 20),
    bbUpper: bands.upper,
    bbMiddle: bands.middle,
    bbLower: bands.lower,
    rsi: rsi(closes, 14),
  };
}
