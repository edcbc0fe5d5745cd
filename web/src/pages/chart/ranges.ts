/**
 * The chart's ranges: from which date a range of days or months up to the
 * chart's date reaches, and what the chart draws across sessions.
 */
import type { ChartRange, Interval } from "../../route";
import { stepTradingDay } from "../../time";

export const RANGE_LABELS: Record<ChartRange, string> = {
  "1d": "1 day", "5d": "5 trading days", "1m": "1 month", "3m": "3 months", "6m": "6 months", "1y": "1 year",
};

const MONTHS: Partial<Record<ChartRange, number>> = { "1m": 1, "3m": 3, "6m": 6, "1y": 12 };

const pad = (n: number) => String(n).padStart(2, "0");

/** The first date of `range` ending at `date` (inclusive): 5d reaches back four trading days, months by the calendar (the day after, a month before). */
export function rangeStart(date: string, range: ChartRange, holidays: ReadonlySet<string> = new Set()): string {
  if (range === "1d") return date;
  if (range === "5d") {
    let day = date;
    for (let i = 0; i < 4; i++) day = stepTradingDay(day, -1, holidays);
    return day;
  }
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const months = MONTHS[range]!;
  // The same day of the month `months` earlier (the month's last when it is shorter), then the day after.
  const target = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const start = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d, last) + 1));
  return `${start.getUTCFullYear()}-${pad(start.getUTCMonth() + 1)}-${pad(start.getUTCDate())}`;
}

/** Daily and weekly candles: one per session or week, the time axis in dates. */
export function isDaily(interval: Interval): boolean {
  return interval === "1day" || interval === "1week";
}

/** The sessions (IST days) of bars at IST-shifted chart times, in order. */
export function sessionsOf(times: readonly number[]): number[] {
  const out: number[] = [];
  for (const t of times) {
    const day = Math.floor(t / 86_400);
    if (out.at(-1) !== day) out.push(day);
  }
  return out;
}
