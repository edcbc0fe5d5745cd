/**
 * Market data for the browser tests and the benchmark, written through the
 * API as a collector would: two trading days of minute quotes of eight NSE
 * symbols, and the shortlists a collector would have seen. The price paths
 * are fixed so the outcomes are known: after 10:00 IST RELIANCE rises 3%,
 * TCS falls 3%, INFY only wiggles.
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

/** Writes `minutes` minutes of quotes of every symbol from 09:15 of `day`. */
export async function seedQuotes(client: MdcClient, day: string, minutes: number): Promise<void> {
  for (let i = 0; i < minutes; i++) {
    const quotes = Object.fromEntries(SYMBOL_NAMES.map((s) => [s, quote(s, i)]));
    await client.saveQuotes(minuteOf(day, i), quotes);
  }
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

/** The whole data set of the tests: DAY's full session and SECOND_DAY's first hour. */
export async function seedMarket(client: MdcClient): Promise<void> {
  await seedQuotes(client, DAY, 375);
  await seedShortlists(client, DAY, 375);
  await seedQuotes(client, SECOND_DAY, 60);
  await seedShortlists(client, SECOND_DAY, 60);
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
