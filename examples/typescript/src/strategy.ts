/**
 * A toy momentum strategy backtested over one trading day with the backtest
 * clock of mdc (docs/api.md, "Backtest clock").
 *
 * Rule: every minute from 09:20 to 15:20 IST, with "now" set to that minute,
 * read the TOP_GAINERS shortlist (scope TOP_5) as of now and the latest quote
 * of each of its entries; buy a symbol, at most once a day, the first minute
 * it is in the shortlist and its latest quote of the day has a day change of
 * at least `thresholdPerc` (default 2.5%). The entry price is that quote's
 * last_price.
 *
 * The strategy never asks for an instant: every read is "as of now", and the
 * server cuts every answer at the clock (nothing stamped at or after the
 * minute comes back), so it cannot see the future even by mistake. A record
 * stamped exactly at 10:00:00 is first seen at 10:01.
 */
import { MdcClient, MdcError } from "@mdc/client";

export interface Buy {
  /** The minute the buy was decided (the backtest clock). */
  at: Date;
  symbol: string;
  /** The last_price of the quote the decision used. */
  price: number;
  dayChangePerc: number;
  /** When the shortlist snapshot and the quote used were taken (both before `at`). */
  shortlistTime: Date;
  quoteTime: Date;
}

export interface WalkOptions {
  /** Minimum day change (percent) of a shortlisted symbol to buy it (default 2.5). */
  thresholdPerc?: number;
  /** First and last minute of the walk, IST wall clock "HH:MM" (default 09:20 and 15:20). */
  from?: string;
  to?: string;
}

const IST_OFFSET_MS = 330 * 60_000; // Asia/Kolkata is UTC+05:30 all year

/** The instant of an IST wall clock on `day` ("YYYY-MM-DD", "HH:MM"). */
export function ist(day: string, hhmm: string): Date {
  return new Date(`${day}T${hhmm}:00+05:30`);
}

/** "HH:MM" of an instant in IST. */
export function istClock(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(11, 16);
}

/** "YYYY-MM-DD" of an instant in IST (its trading day). */
export function istDate(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** Walks `day` minute by minute and returns the buys, in time order. */
export async function walkDay(client: MdcClient, day: string, opts: WalkOptions = {}): Promise<Buy[]> {
  const threshold = opts.thresholdPerc ?? 2.5;
  const last = ist(day, opts.to ?? "15:20").getTime();
  const bought = new Set<string>();
  const buys: Buy[] = [];
  for (let t = ist(day, opts.from ?? "09:20").getTime(); t <= last; t += 60_000) {
    const now = new Date(t);
    const found = await decide(client.backtestClock(now), day, now, threshold, bought);
    for (const buy of found) {
      bought.add(buy.symbol);
      buys.push(buy);
    }
  }
  return buys;
}

/** One minute: the buys the data before `now` calls for (`client` carries the clock set to `now`). */
async function decide(client: MdcClient, day: string, now: Date, threshold: number, bought: Set<string>): Promise<Buy[]> {
  let shortlist;
  try {
    shortlist = await client.shortlist("TOP_GAINERS");
  } catch (error) {
    if (error instanceof MdcError && error.code === "NOT_FOUND") return []; // no snapshot yet today
    throw error;
  }
  const candidates = shortlist.entries.map((e) => e.nseSymbol).filter((s): s is string => !!s && !bought.has(s));
  const quotes = await Promise.all(candidates.map((symbol) => client.quote(symbol).catch((error: unknown) => {
    if (error instanceof MdcError && error.code === "NOT_FOUND") return undefined; // never quoted
    throw error;
  })));
  const buys: Buy[] = [];
  for (const [i, symbol] of candidates.entries()) {
    const quote = quotes[i];
    const payload = quote?.quoteData?.payload;
    const change = payload?.day_change_perc;
    const price = payload?.last_price;
    // The latest quote may be of an earlier day: stale, ignore it.
    if (!quote?.timestamp || istDate(quote.timestamp) !== day) continue;
    if (typeof change !== "number" || typeof price !== "number" || change < threshold) continue;
    buys.push({ at: now, symbol, price, dayChangePerc: change, shortlistTime: shortlist.timestamp as Date, quoteTime: quote.timestamp });
  }
  return buys;
}

/** One line per buy: "09:31 BUY INFY at 1694.55 (day change +2.70%; shortlist of 09:30, quote of 09:30)". */
export function formatBuy(buy: Buy): string {
  const sign = buy.dayChangePerc >= 0 ? "+" : "";
  return `${istClock(buy.at)} BUY ${buy.symbol} at ${buy.price.toFixed(2)} ` +
    `(day change ${sign}${buy.dayChangePerc.toFixed(2)}%; shortlist of ${istClock(buy.shortlistTime)}, quote of ${istClock(buy.quoteTime)})`;
}
