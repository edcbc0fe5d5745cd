/**
 * A small, made-up trading day (2025-03-04) for the strategy: 8 stocks whose
 * day change (percent against the previous close) is given at a few instants.
 * At every instant the quotes of all stocks are saved; at the instants marked
 * `shortlist` the TOP_GAINERS shortlist (the 5 largest day changes, ties by
 * symbol) is saved too. Prices are previous close x (1 + change/100), to the
 * paisa. Loaded through the client, so replaying it twice stores it once.
 */
import type { MdcClient, QuoteData } from "@mdc/client";
import { ist } from "./strategy.js";

export const SAMPLE_DAY = "2025-03-04";

const PREVIOUS_CLOSE: Record<string, [name: string, close: number]> = {
  RELIANCE: ["Reliance Industries", 1160],
  TCS: ["Tata Consultancy Services", 3520],
  HDFCBANK: ["HDFC Bank", 1690],
  INFY: ["Infosys", 1650],
  ICICIBANK: ["ICICI Bank", 1230],
  SBIN: ["State Bank of India", 720],
  ITC: ["ITC", 410],
  LT: ["Larsen & Toubro", 3300],
};

const SYMBOLS = Object.keys(PREVIOUS_CLOSE);

// IST time, whether a shortlist is saved, then the day change of each stock in SYMBOLS order:
//                                        RELIANCE  TCS  HDFCBANK INFY ICICIBANK SBIN  ITC   LT
const TABLE: [string, boolean, number[]][] = [
  ["09:15", true, /*  */ [0.4, 1.2, -0.3, 2.1, 0.8, 0.1, -0.6, 0.5]],
  ["09:30", true, /*  */ [0.6, 1.5, -0.2, 2.7, 0.9, 0.3, -0.4, 0.7]], // INFY crosses 2.5%: bought at 09:31
  ["09:45", false, /* */ [0.7, 2.6, -0.1, 2.4, 1.0, 0.8, -0.3, 0.8]], // TCS (in the 09:30 list) quotes 2.6%: 09:46
  ["10:00", true, /*  */ [1.0, 2.4, 0.1, 2.2, 1.1, 3.1, -0.2, 0.9]], // SBIN: 10:01
  ["10:45", true, /*  */ [1.8, 2.0, 0.4, 1.9, 1.4, 2.9, 0.2, 1.2]],
  ["11:30", true, /*  */ [1.6, 1.9, 0.5, 1.7, 1.3, 2.6, 2.8, 1.0]], // ITC: 11:31
  ["12:15", false, /* */ [1.5, 1.8, 3.5, 1.6, 1.2, 2.4, 2.7, 1.1]], // HDFCBANK 3.5% but not shortlisted: no buy
  ["13:00", true, /*  */ [1.4, 1.7, 3.2, 1.5, 1.9, 2.2, 2.5, 1.3]], // HDFCBANK shortlisted: 13:01
  ["14:15", true, /*  */ [2.3, 1.6, 3.0, 1.4, 2.0, 2.1, 2.4, 1.4]],
  ["15:20", true, /*  */ [2.2, 1.5, 2.9, 1.3, 1.9, 2.0, 2.3, 4.0]], // LT at the last minute: unseen (clock 15:20 sees < 15:20)
  ["15:25", true, /*  */ [2.1, 1.4, 2.8, 1.2, 1.8, 1.9, 2.2, 4.5]], // after the walk
];

export interface SampleInstant {
  at: Date;
  shortlist: boolean;
  /** symbol -> [last_price, day_change_perc] */
  prices: Record<string, [price: number, changePerc: number]>;
}

/** The day's instants in time order. */
export function sampleInstants(): SampleInstant[] {
  return TABLE.map(([hhmm, shortlist, changes]) => ({
    at: ist(SAMPLE_DAY, hhmm),
    shortlist,
    prices: Object.fromEntries(SYMBOLS.map((symbol, i) => {
      const change = changes[i]!;
      const close = PREVIOUS_CLOSE[symbol]![1];
      return [symbol, [Math.round(close * (1 + change / 100) * 100) / 100, change]];
    })),
  }));
}

function quoteData(price: number, changePerc: number): QuoteData {
  return { status: "SUCCESS", payload: { last_price: price, day_change_perc: changePerc } };
}

/** Saves the sample day through the client; returns how many instants were stored. */
export async function loadSampleDay(client: MdcClient): Promise<number> {
  const instants = sampleInstants();
  for (const { at, shortlist, prices } of instants) {
    await client.saveQuotes(at, Object.fromEntries(Object.entries(prices).map(([s, [p, c]]) => [s, quoteData(p, c)])));
    if (!shortlist) continue;
    const top = Object.entries(prices)
      .sort(([a, [, x]], [b, [, y]]) => y - x || (a < b ? -1 : 1))
      .slice(0, 5)
      .map(([symbol, [price, change]]) => ({ nseSymbol: symbol, name: PREVIOUS_CLOSE[symbol]![0], price, quoteData: quoteData(price, change) }));
    await client.saveShortlist(at, "TOP_GAINERS", top);
  }
  return instants.length;
}
