import { describe, expect, it } from "vitest";
import { MARKER_COLORS, barAt, bars, orderMarkers } from "../src/pages/chart/chartdata";
import { chartTime } from "../src/time";

const t = (iso: string) => chartTime(new Date(iso));

describe("bars", () => {
  it("sorts candles, drops repeats and incomplete ones, and colours volume by direction", () => {
    const { prices, volumes } = bars([
      { time: "2025-01-02T03:50:00Z", open: 101, high: 103, low: 100, close: 100.5, volume: 20 },
      { time: "2025-01-02T03:45:00Z", open: 100, high: 102, low: 99, close: 101, volume: 50 },
      { time: "2025-01-02T03:45:00Z", open: 1, high: 1, low: 1, close: 1 },
      { time: "2025-01-02T03:55:00Z", open: 100.5, high: undefined, low: 100, close: 100 },
    ]);
    expect(prices.map((b) => b.time)).toEqual([t("2025-01-02T03:45:00Z"), t("2025-01-02T03:50:00Z")]);
    expect(prices[0]).toMatchObject({ open: 100, close: 101 });
    expect(volumes).toEqual([
      { time: t("2025-01-02T03:45:00Z"), value: 50, up: true },
      { time: t("2025-01-02T03:50:00Z"), value: 20, up: false },
    ]);
  });
});

describe("barAt", () => {
  const times = [100, 400, 700];
  it("finds the bar an instant falls in", () => {
    expect(barAt(times, 100)).toBe(100);
    expect(barAt(times, 399)).toBe(100);
    expect(barAt(times, 400)).toBe(400);
    expect(barAt(times, 10_000)).toBe(700);
  });
  it("has none before the first bar or without bars", () => {
    expect(barAt(times, 99)).toBeUndefined();
    expect(barAt([], 500)).toBeUndefined();
  });
});

describe("orderMarkers", () => {
  const barTimes = ["03:45", "03:50", "03:55", "04:00"].map((hm) => t(`2025-01-02T${hm}:00Z`));
  const orders = [
    { id: "1", nseSymbol: "TCS", time: "2025-01-02T03:52:30Z", entryPrice: 100,
      outcome: { targetAchieved: true, stopLossHit: false, targetTime: "2025-01-02T04:01:00Z", targetPrice: 102 } },
    { id: "2", nseSymbol: "TCS", time: "2025-01-02T03:46:00Z", entryPrice: 101,
      outcome: { targetAchieved: false, stopLossHit: true, stopLossTime: "2025-01-02T03:56:00Z", stopLossPrice: 99 } },
    { id: "3", nseSymbol: "INFY", time: "2025-01-02T03:46:00Z", entryPrice: 50 },
    { id: "4", nseSymbol: "TCS", time: "2025-01-03T03:46:00Z", entryPrice: 50 },
    { id: "5", nseSymbol: "TCS", time: "2025-01-02T03:40:00Z", entryPrice: 50 }, // before the first bar
  ];
  it("marks the entries and exits of the symbol's orders of that day on their bars", () => {
    const markers = orderMarkers(orders, "TCS", "2025-01-02", barTimes);
    expect(markers.map((m) => [m.time, m.text, m.color])).toEqual([
      [barTimes[0], "Buy 101.00", MARKER_COLORS.entry],
      [barTimes[1], "Buy 100.00", MARKER_COLORS.entry],
      [barTimes[2], "Stop 99.00", MARKER_COLORS.stop],
      [barTimes[3], "Target 102.00", MARKER_COLORS.target],
    ]);
  });
  it("marks nothing for another symbol's day without orders", () => {
    expect(orderMarkers(orders, "INFY", "2025-01-03", barTimes)).toEqual([]);
  });
});

describe("session breaks", () => {
  it("puts an empty slot after each session's last bar, only when asked", async () => {
    const { withBreaks } = await import("../src/pages/chart/chartdata");
    const day = 86_400;
    const bar = (time: number) => ({ time, open: 1, high: 1, low: 1, close: 1 });
    const bars = [bar(10 * day + 33_300), bar(10 * day + 36_900), bar(11 * day + 33_300)];
    expect(withBreaks(bars, true).map((b) => b.time)).toEqual([10 * day + 33_300, 10 * day + 36_900, 10 * day + 36_901, 11 * day + 33_300]);
    expect(withBreaks(bars, true)[2]).toEqual({ time: 10 * day + 36_901 });
    expect(withBreaks(bars, false)).toEqual(bars);
  });
});
