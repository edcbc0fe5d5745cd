/**
 * Between JavaScript's Date and the API's time strings. The API takes a wall
 * clock `YYYY-MM-DDTHH:MM:SS` plus the `timezone` it is in, and trading days as
 * `YYYY-MM-DD` (the Asia/Kolkata calendar date); it answers instants as RFC 3339
 * UTC strings. The client takes and gives Date only.
 */
import { checkedDate } from "./checks.js";
import { INSTANT_KEYS, type InstantKey } from "./generated/instants.js";

/** The zone every instant is sent in: a UTC wall clock names exactly one instant. */
export const WIRE_TIMEZONE = "UTC";

/** Asia/Kolkata is UTC+05:30 all year (no daylight saving since 1945). */
const IST_OFFSET_MS = 330 * 60_000;

/** The wire form of an instant: its UTC wall clock (sent with timezone "UTC"). The API has no fractions of
 * a second: they are cut off, which for an as-of read or the backtest clock means "the second it falls in".
 * Anything but a valid Date is MdcError INVALID_ARGUMENT naming `field`, the request field it is sent as. */
export function wallClock(at: Date, field = "datetime"): string {
  return checkedDate(at, field).toISOString().slice(0, 19);
}

/**
 * The trading day (`YYYY-MM-DD`) a Date names: its calendar date in Asia/Kolkata. Any instant of the day
 * names it, and so does `new Date("2025-01-02")` (UTC midnight, 05:30 in Kolkata).
 */
export function tradingDay(day: Date, field = "date"): string {
  return new Date(checkedDate(day, field).getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

type DatedValue<V> = V extends string ? Date : V extends (infer U)[] ? DatedValue<U>[] : V;

/**
 * The flat accessors of a quote (a stock's, the NIFTY's, a shortlist entry's with its quote): `q.lastPrice` is
 * `q.quoteData?.payload?.last_price`, `q.volume` the payload's `volume` (the day's cumulative volume;
 * undefined when not reported), `q.status` the quote's status, `q.symbol` the stock's `nseSymbol` ("NIFTY" for
 * the index), named as candles name it. Getters that are not enumerated: JSON and deep equality see the wire
 * fields only.
 */
export interface QuoteFields {
  readonly lastPrice: number | undefined;
  readonly volume: number | undefined;
  readonly status: string | undefined;
  readonly symbol: string;
}

/** An answer type with its instants (RFC 3339 strings on the wire) as Date, and a quote's QuoteFields. */
export type Dated<T> = T extends (infer U)[]
  ? Dated<U>[]
  : T extends object
    ? { [K in keyof T]: K extends InstantKey ? DatedValue<T[K]> : Dated<T[K]> } & ("quoteData" extends keyof T ? QuoteFields : unknown)
    : T;

type Quoted = { quoteData?: { status?: string; payload?: { last_price?: number | null; volume?: number | null } | null } | null; nseSymbol?: string };

const QUOTE_FIELDS: { [K in keyof QuoteFields]: (q: Quoted) => QuoteFields[K] } = {
  lastPrice: (q) => q.quoteData?.payload?.last_price ?? undefined,
  volume: (q) => q.quoteData?.payload?.volume ?? undefined,
  status: (q) => q.quoteData?.status,
  symbol: (q) => q.nseSymbol ?? "NIFTY",
};

/** Gives `value` (an object with a `quoteData`) the QuoteFields getters. */
function addQuoteFields(value: Quoted): void {
  for (const [name, get] of Object.entries(QUOTE_FIELDS)) {
    Object.defineProperty(value, name, { get() { return get(this as Quoted); }, enumerable: false, configurable: true });
  }
}

/** An answer with its instants (the fields of INSTANT_KEYS, generated from the OpenAPI document) as Date,
 * everything else as is; each object with a `quoteData` (a quote) gets QuoteFields. */
export function withDates<T>(value: T): Dated<T> {
  const walk = (v: unknown, instant: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, instant));
    if (v !== null && typeof v === "object") {
      const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, INSTANT_KEYS.has(k))]));
      if ("quoteData" in out || "nseSymbol" in out) addQuoteFields(out as Quoted);
      return out;
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
  if (at === undefined) return {};
  return { [field]: wallClock(at, field), timezone: WIRE_TIMEZONE } as Partial<Record<K | "timezone", string>>;
}

/** The [start, end) window of a range read, in the wire form. */
export function rangeParams(opts: { start?: Date | undefined; end?: Date | undefined }): {
  timezone?: string;
  startDatetime?: string;
  endDatetime?: string;
} {
  const start = opts.start !== undefined, end = opts.end !== undefined;
  return {
    ...(start || end ? { timezone: WIRE_TIMEZONE } : {}),
    ...(start ? { startDatetime: wallClock(opts.start!, "start_datetime") } : {}),
    ...(end ? { endDatetime: wallClock(opts.end!, "end_datetime") } : {}),
  };
}
