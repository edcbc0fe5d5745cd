/**
 * The coverage view's arithmetic (GET /v1/dashboard/coverage): which
 * session minutes a series should have by now, and the gaps between the
 * runs of minutes it has.
 */
import { sessionOf, todayIST } from "./time";

export interface MinuteRange {
  first: number;
  last: number;
}

/** Session minutes that should hold data on `date` by `now`: all 375 of a past day, those begun so far today, none of a later day. */
export function expectedMinutes(date: string, sessionMinutes: number, now: Date = new Date()): number {
  const today = todayIST(now);
  if (date < today) return sessionMinutes;
  if (date > today) return 0;
  const { open } = sessionOf(date);
  return Math.max(0, Math.min(sessionMinutes, Math.floor((now.getTime() - open.getTime()) / 60_000)));
}

/**
 * The runs of minutes in [0, expected) that no range covers, ascending. A
 * series written every `every` minutes (a shortlist every 5) is expected
 * only that often: between two records, and after the last one, a run
 * shorter than `every` is its rhythm, not a gap; before the first record
 * up to `every` minutes are (the first comes `every` minutes in).
 */
export function missingRanges(ranges: readonly MinuteRange[], expected: number, every = 1): MinuteRange[] {
  const missing: MinuteRange[] = [];
  let next = 0;
  const add = (first: number, last: number, allowed: number) => {
    if (last - first + 1 > allowed) missing.push({ first, last });
  };
  for (const r of [...ranges].sort((a, b) => a.first - b.first)) {
    if (r.first > next && next < expected) add(next, Math.min(r.first, expected) - 1, next === 0 && every > 1 ? every : every - 1);
    next = Math.max(next, r.last + 1);
  }
  if (next < expected) add(next, expected - 1, next === 0 ? 0 : every - 1);
  return missing;
}

/** How often a series is written: the most common step between the starts of its runs of minutes (1 when every minute). */
export function cadence(ranges: readonly MinuteRange[]): number {
  if (ranges.length < 3) return 1;
  const steps = new Map<number, number>();
  const sorted = [...ranges].sort((a, b) => a.first - b.first);
  for (let i = 1; i < sorted.length; i++) {
    const step = sorted[i]!.first - sorted[i - 1]!.first;
    steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  return [...steps.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/** How many minutes the ranges hold. */
export function minutesIn(ranges: readonly MinuteRange[]): number {
  return ranges.reduce((n, r) => n + r.last - r.first + 1, 0);
}

/** "09:15" for minute 0 of the session. */
export function minuteClock(minute: number): string {
  const total = 9 * 60 + 15 + minute;
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

/** "09:17-09:19" or "09:17" for a run of minutes, in IST. */
export function rangeText(r: MinuteRange): string {
  return r.first === r.last ? minuteClock(r.first) : `${minuteClock(r.first)}-${minuteClock(r.last)}`;
}
