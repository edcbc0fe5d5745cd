import { describe, expect, it } from "vitest";
import { runStats, valueOrders } from "../src/runstats";
import { type OrderLike, exitPrice, outcomeKind } from "../src/totals";

const target = { entryPrice: 100, stopLossPrice: 95, takeProfitPrice: 110,
  outcome: { targetPrice: 110, stopLossPrice: 95, targetAchieved: true, stopLossHit: false, minutesToTarget: 12 } };
const stop = { entryPrice: 200, stopLossPrice: 190, takeProfitPrice: 220,
  outcome: { targetPrice: 220, stopLossPrice: 190, targetAchieved: false, stopLossHit: true, minutesToStopLoss: 3 } };
const open = { entryPrice: 50, stopLossPrice: 45, takeProfitPrice: 60,
  outcome: { targetPrice: 60, stopLossPrice: 45, targetAchieved: false, stopLossHit: false, maxGainPercentage: 4.5 } };
const noData = { entryPrice: 10, stopLossPrice: 9, takeProfitPrice: 11, outcome: { targetPrice: 11, stopLossPrice: 9 } };

describe("outcomeKind", () => {
  it("reads the four cases of an outcome", () => {
    expect(outcomeKind(target.outcome)).toBe("target");
    expect(outcomeKind(stop.outcome)).toBe("stop");
    expect(outcomeKind(open.outcome)).toBe("open");
    expect(outcomeKind(noData.outcome)).toBe("no-data");
    expect(outcomeKind(undefined)).toBe("no-data");
  });
});

describe("exit and return", () => {
  it("uses the outcome's target, which a target gain percentage may have moved", () => {
    const moved = { ...target, outcome: { ...target.outcome, targetPrice: 102 } };
    expect(exitPrice(moved)).toBe(102);
    expect(valueOrders([moved], () => undefined)[0]!.returnPercent).toBeCloseTo(2);
  });
  it("has no exit for open orders (without their close) or orders without data", () => {
    expect(exitPrice(open)).toBeUndefined();
    expect(valueOrders([noData], () => undefined)[0]!.returnPercent).toBeUndefined();
  });
});

describe("runStats", () => {
  const stats = (orders: OrderLike[]) => runStats(valueOrders(orders, () => undefined));
  it("counts, rates and sums a run's orders", () => {
    const t = stats([target, stop, open, noData, target]);
    expect(t).toMatchObject({ orders: 5, target: 2, stop: 1, open: 1, noData: 1 });
    expect(t.hitRate).toBeCloseTo((2 / 3) * 100);
    // +10 +10 -10 per share
    expect(t.pnlPerShare).toBeCloseTo(10);
    // (+10% +10% -5%) / 3
    expect(t.avgReturnPercent).toBeCloseTo(5);
  });
  it("leaves rates undefined when nothing ended", () => {
    const t = stats([open, noData]);
    expect(t.hitRate).toBeUndefined();
    expect(t.avgReturnPercent).toBeUndefined();
    expect(t.pnlPerShare).toBe(0);
  });
  it("is all zeros for no orders", () => {
    expect(stats([])).toMatchObject({ orders: 0, target: 0, stop: 0, open: 0, noData: 0, pnlPerShare: 0 });
  });
});
