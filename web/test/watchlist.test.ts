import { describe, expect, it } from "vitest";
import { applyQuote, bucketOf, change, watchRow } from "../src/watchlist";
import { istDate } from "../src/time";

const at = (wall: string) => new Date(`${wall}+05:30`);

describe("the watchlist's rows", () => {
  const daily = [
    { time: at("2025-01-01T00:00:00").toISOString(), open: 90, close: 95, volume: 500 },
    { time: at("2025-01-02T00:00:00").toISOString(), open: 96, close: 100, volume: 1_000 },
    { time: at("2025-01-03T00:00:00").toISOString(), open: 101, close: 104, volume: 700 },
  ];
  const intraday = [
    { time: at("2025-01-03T09:20:00").toISOString(), close: 103 },
    { time: at("2025-01-03T09:15:00").toISOString(), close: 102 },
  ];

  it("takes the day's close, the previous session's close and the day's volume", () => {
    const row = watchRow("TCS", "2025-01-03", daily, intraday, istDate);
    expect(row).toMatchObject({ symbol: "TCS", last: 104, previousClose: 100, volume: 700 });
    expect(row.spark).toEqual([[at("2025-01-03T09:15:00").getTime(), 102], [at("2025-01-03T09:20:00").getTime(), 103]]);
    // 104 against 100: +4, +4%
    expect(change(row)).toEqual({ abs: 4, pct: 4 });
  });

  it("has no change without a previous session, and no price without the day", () => {
    expect(change(watchRow("X", "2025-01-01", daily, [], istDate))).toEqual({});
    expect(watchRow("X", "2025-01-06", daily, [], istDate)).toMatchObject({ last: undefined, previousClose: 104 });
  });

  it("puts an instant in its 5-minute bucket from 09:15 IST", () => {
    expect(bucketOf(at("2025-01-03T09:19:59"))).toBe(at("2025-01-03T09:15:00").getTime());
    expect(bucketOf(at("2025-01-03T09:20:00"))).toBe(at("2025-01-03T09:20:00").getTime());
    expect(bucketOf(at("2025-01-03T10:14:30"))).toBe(at("2025-01-03T10:10:00").getTime());
  });

  it("follows live quotes: the last price, the volume, the sparkline's last bucket or a new one", () => {
    const row = watchRow("TCS", "2025-01-03", daily, intraday, istDate);
    const a = applyQuote(row, at("2025-01-03T09:21:00"), 105, 800);
    expect(a).toMatchObject({ last: 105, volume: 800 });
    expect(a.spark.at(-1)).toEqual([at("2025-01-03T09:20:00").getTime(), 105]);
    expect(a.spark).toHaveLength(2);
    const b = applyQuote(a, at("2025-01-03T09:25:00"), 106, undefined);
    expect(b).toMatchObject({ last: 106, volume: 800 });
    expect(b.spark).toHaveLength(3);
    // An older record changes nothing; a quote without a price neither.
    expect(applyQuote(b, at("2025-01-03T09:22:00"), 99, 900)).toBe(b);
    expect(applyQuote(b, at("2025-01-03T09:26:00"), undefined, 900)).toBe(b);
  });
});
