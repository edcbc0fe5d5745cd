/**
 * Market data for the browser tests and the benchmark, written through the
 * API as a collector would: two trading days of minute quotes of eight NSE
 * symbols, and the shortlists a collector would have seen. The price paths
 * are fixed so the outcomes are known: after 10:00 IST RELIANCE rises 3%,
 * TCS falls 3%, INFY only wiggles. SECOND_DAY also has NIFTY 50 quotes, and
 * a hole: no ITC quotes from 09:35 to 09:39 (the coverage page's gap).
 */
import type { MdcClient, QuoteData } from "@mdc/client";

export const DAY = "2025-01-02";
export const SECOND_DAY = "2025-01-03";

const SYMBOLS = {
  RELIANCE: { name: "Reliance Industries", base: 1240, trend: +1 },
  TCS: { name: "Tata Consultancy Services", base: 4100, trend: -1 },
  INFY: { name: "Infosys", base: 1900, trend: 0 },
  HDFCBANK: { name: "HDFC Bank", base: 1780, trend: +0.4 },
  ICICIBANK: { name: "ICICI Bank", base: 1290, trend: +0.2 },
  SBIN: { name: "State Bank of India", base: 800, trend: -0.3 },
  ITC: { name: "ITC", base: 470, trend: -0.5 },
  "M&M": { name: "Mahindra & Mahindra", base: 3050, trend: +0.6 },
} as const;
export type Symbol = keyof typeof SYMBOLS;
export const SYMBOL_NAMES = Object.keys(SYMBOLS) as Symbol[];

/** The instant of an IST wall clock of a day. */
export function ist(day: string, hhmm: string): Date {
  return new Date(`${day}T${hhmm}:00+05:30`);
}

/** Minute i of the session (0 is 09:15 IST). */
export function minuteOf(day: string, i: number): Date {
  return new Date(ist(day, "09:15").getTime() + i * 60_000);
}

/** The last price of a symbol at minute i of the session: a tick of 0.05. */
export function priceAt(symbol: Symbol, i: number): number {
  const s = SYMBOLS[symbol];
  // From 10:00 (minute 45) the trend moves the price 3% per unit over 90 minutes, then holds.
  const trend = s.trend * Math.min(0.03, Math.max(0, (i - 45) / 90) * 0.03);
  const wiggle = Math.sin(i / 6 + s.base) * 0.0015;
  return Math.round(s.base * (1 + trend + wiggle) * 20) / 20;
}

function quote(symbol: Symbol, i: number): QuoteData {
  const price = priceAt(symbol, i);
  const open = priceAt(symbol, 0);
  return {
    status: "SUCCESS",
    payload: {
      last_price: price,
      day_change: Math.round((price - open) * 100) / 100,
      day_change_perc: Math.round(((price - open) / open) * 10_000) / 100,
      volume: 50_000 * (i + 1) + (i % 7) * 3_000, // cumulative over the day
    },
  } as QuoteData;
}

/** Minutes of SECOND_DAY without ITC quotes: 09:35 to 09:39. */
export const ITC_GAP = { symbol: "ITC" as Symbol, first: 20, last: 24 };

/** Writes `minutes` minutes of quotes of every symbol from 09:15 of `day` (`gap`: a symbol left out for some minutes). */
export async function seedQuotes(client: MdcClient, day: string, minutes: number, gap?: typeof ITC_GAP): Promise<void> {
  await inParallel(minutes, async (i) => {
    const symbols = SYMBOL_NAMES.filter((s) => !(gap && s === gap.symbol && i >= gap.first && i <= gap.last));
    const quotes = Object.fromEntries(symbols.map((s) => [s, quote(s, i)]));
    await client.saveQuotes(minuteOf(day, i), quotes);
  });
}

/** Runs write(0) ... write(n - 1), a few at a time: the writes are independent (each its own key). */
async function inParallel(n: number, write: (i: number) => Promise<void>, width = 6): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await write(next++);
  }));
}

/** NIFTY 50 at minute i: from 23,500 it rises 0.4% over the first hour, with a wiggle. */
export function niftyAt(i: number): number {
  return Math.round(23_500 * (1 + 0.004 * Math.min(1, i / 60) + Math.sin(i / 5) * 0.0008) * 20) / 20;
}

/** Writes `minutes` minutes of NIFTY 50 quotes from 09:15 of `day`. */
export async function seedNifty(client: MdcClient, day: string, minutes: number): Promise<void> {
  const open = niftyAt(0);
  await inParallel(minutes, async (i) => {
    const price = niftyAt(i);
    const change = Math.round(((price - open) / open) * 10_000) / 100;
    await client.saveNifty(minuteOf(day, i), { status: "SUCCESS", payload: { last_price: price, day_change_perc: change } } as QuoteData, change);
  });
}

/** Top gainers every 5 minutes and volume shockers every 15, from 09:20 for `minutes` minutes. */
export async function seedShortlists(client: MdcClient, day: string, minutes: number): Promise<void> {
  for (let i = 5; i < minutes; i += 5) {
    const byGain = [...SYMBOL_NAMES].sort((a, b) => priceAt(b, i) / priceAt(b, 0) - priceAt(a, i) / priceAt(a, 0));
    const entries = (list: Symbol[]) => list.map((s) => ({ nseSymbol: s, name: SYMBOLS[s].name, price: priceAt(s, i) }));
    await client.saveShortlist(minuteOf(day, i), "TOP_GAINERS", entries(byGain.slice(0, 5)), { scope: "TOP_5" });
    if (i % 15 === 0) {
      const shockers = [...SYMBOL_NAMES].sort((a, b) => ((a.length * 7 + i) % 11) - ((b.length * 7 + i) % 11)).slice(0, 5);
      await client.saveShortlist(minuteOf(day, i), "VOLUME_SHOCKERS", entries(shockers), { scope: "TOP_5" });
    }
  }
}

/** The whole data set of the tests: DAY's full session and SECOND_DAY's first hour, with NIFTY 50 and a gap. */
export async function seedMarket(client: MdcClient): Promise<void> {
  await Promise.all([
    seedQuotes(client, DAY, 375),
    seedShortlists(client, DAY, 375),
    seedQuotes(client, SECOND_DAY, 60, ITC_GAP),
    seedNifty(client, SECOND_DAY, 60),
    seedShortlists(client, SECOND_DAY, 60),
  ]);
}

/** The arguments of createOrder after the run id: an order of `symbol` bought at minute i, with target and
 * stop percentages around the price then. */
export function orderAt(symbol: Symbol, i: number, targetPct: number, stopPct: number, day = DAY) {
  const entry = priceAt(symbol, i);
  return [symbol, minuteOf(day, i), {
    entryPrice: entry,
    takeProfitPrice: Math.round(entry * (1 + targetPct / 100) * 100) / 100,
    stopLossPrice: Math.round(entry * (1 - stopPct / 100) * 100) / 100,
  }] as const;
}
