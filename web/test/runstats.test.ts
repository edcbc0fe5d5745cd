import { describe, expect, it } from "vitest";
import { closesNeeded, equityCurve, runStats, valueOrders } from "../src/runstats";

const order = (id: string, symbol: string, time: string, entry: number, outcome: object) =>
  ({ id, nseSymbol: symbol, time, entryPrice: entry, stopLossPrice: entry * 0.9, takeProfitPrice: entry * 1.1, outcome });

const orders = [
  order("1", "A", "2025-01-02T04:00:00Z", 100, { targetPrice: 110, stopLossPrice: 90, targetAchieved: true, stopLossHit: false, targetTime: "2025-01-02T05:00:00Z" }),
  order("2", "B", "2025-01-02T04:00:00Z", 200, { targetPrice: 220, stopLossPrice: 190, targetAchieved: false, stopLossHit: true, stopLossTime: "2025-01-02T04:30:00Z" }),
  order("3", "C", "2025-01-02T04:00:00Z", 50, { targetPrice: 60, stopLossPrice: 45, targetAchieved: false, stopLossHit: false }),
  order("4", "D", "2025-01-06T04:00:00Z", 10, { targetPrice: 11, stopLossPrice: 9 }),
];

describe("runs valued for analysis", () => {
  it("values open orders at their session's close", () => {
    expect(closesNeeded(orders)).toEqual([{ symbol: "C", date: "2025-01-02" }]);
    const valued = valueOrders(orders, (symbol, date) => (symbol === "C" && date === "2025-01-02" ? 52 : undefined));
    expect(valued.map((v) => [v.kind, v.exit, v.pnl, v.atClose])).toEqual([
      ["target", 110, 10, false], ["stop", 190, -10, false], ["open", 52, 2, true], ["no-data", undefined, undefined, false],
    ]);
    expect(valued[2]!.exitTime?.toISOString()).toBe("2025-01-02T10:00:00.000Z"); // 15:30 IST
    const stats = runStats(valued);
    expect(stats).toMatchObject({ orders: 4, target: 1, stop: 1, open: 1, noData: 1, hitRate: 50, pnlPerShare: 2, valued: 3, openAtClose: 1 });
    expect(stats.avgReturnPercent).toBeCloseTo((10 - 5 + 4) / 3);
  });

  it("leaves an open order out of P&L when its close is unknown", () => {
    const stats = runStats(valueOrders(orders, () => undefined));
    expect(stats).toMatchObject({ pnlPerShare: 0, valued: 2, openAtClose: 0, hitRate: 50 });
  });

  it("draws the equity curve in the order trades exited", () => {
    const curve = equityCurve(valueOrders(orders, () => 52));
    expect(curve.map((p) => [p.trade, p.symbol, p.equity])).toEqual([[1, "B", -10], [2, "A", 0], [3, "C", 2]]);
  });
});
