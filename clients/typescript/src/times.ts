/**
 * Between JavaScript's Date and the API's time strings. The API takes a wall
 * clock `YYYY-MM-DDTHH:MM:SS` plus the `timezone` it is in, and trading days as
 * `YYYY-MM-DD` (the Asia/Kolkata calendar date); it answers instants as RFC 3339
 * UTC strings. The client takes and gives Date only.
 */
import { INSTANT_KEYS, type InstantKey } from "./generated/instants.js";

/** The zone every instant is sent in: a UTC wall clock names exactly one instant. */
export const WIRE_TIMEZONE = "UTC";

/** Asia/Kolkata is UTC+05:30 all year (no daylight saving since 1945). */
const IST_OFFSET_MS = 330 * 60_000;

function checked(at: Date): Date {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new TypeError(`not a valid Date: ${String(at)}`);
  }
  return at;
}

/** The wire form of an instant: its UTC wall clock (sent with timezone "UTC"). The API has no fractions of
 * a second: they are cut off, which for an as-of read or the backtest clock means "the second it falls in". */
export function wallClock(at: Date): string {
  return checked(at).toISOString().slice(0, 19);
}

/**
 * The trading day (`YYYY-MM-DD`) a Date names: its calendar date in Asia/Kolkata. Any instant of the day
 * names it, and so does `new Date("2025-01-02")` (UTC midnight, 05:30 in Kolkata).
 */
export function tradingDay(day: Date): string {
  return new Date(checked(day).getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

type DatedValue<V> = V extends string ? Date : V extends (infer U)[] ? DatedValue<U>[] : V;

/** An answer type with its instants (RFC 3339 strings on the wire) as Date. */
export type Dated<T> = T extends (infer U)[]
  ? Dated<U>[]
  : T extends object
    ? { [K in keyof T]: K extends InstantKey ? DatedValue<T[K]> : Dated<T[K]> }
    : T;

/** An answer with its instants (the fields of INSTANT_KEYS, generated from the OpenAPI document) as Date,
 * everything else as is. */
export function withDates<T>(value: T): Dated<T> {
  const walk = (v: unknown, instant: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, instant));
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, INSTANT_KEYS.has(k))]));
    }
    if (instant && typeof v === "string") {
      const d = new Date(v);
      return Number.isNaN(d.getTime()) ? v : d;
    }
    return v;
  };
  return walk(value, false) as Dated<T>;
}

/** The `datetime`-style parameter `field` and its `timezone` of an optional instant. */
export function instantParam<K extends string>(field: K, at: Date | undefined): Partial<Record<K | "timezone", string>> {
  if (!at) return {};
  return { [field]: wallClock(at), timezone: WIRE_TIMEZONE } as Partial<Record<K | "timezone", string>>;
}

/** The [start, end) window of a range read, in the wire form. */
export function rangeParams(opts: { start?: Date | undefined; end?: Date | undefined }): {
  timezone?: string;
  startDatetime?: string;
  endDatetime?: string;
} {
  return {
    ...(opts.start || opts.end ? { timezone: WIRE_TIMEZONE } : {}),
    ...(opts.start ? { startDatetime: wallClock(opts.start) } : {}),
    ...(opts.end ? { endDatetime: wallClock(opts.end) } : {}),
  };
}
