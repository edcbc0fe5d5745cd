import { describe, expect, it } from "vitest";
import { ACTION_COLOR, type CorporateAction, actionLabel, actionMarkers } from "../src/pages/chart/corporateActions";
import { formatRoute, parseRoute } from "../src/route";
import { chartTime } from "../src/time";

/** The chart time of a daily bar: 00:00 IST of the day. */
const day = (date: string) => chartTime(new Date(`${date}T00:00:00+05:30`));

/** An action as the API answers it: the fields not given are zero. */
const action = (a: Partial<CorporateAction>): CorporateAction => ({
  isin: "INE009A01021", exDate: "", kind: "bonus", description: "", newShares: 0, heldShares: 0, oldFaceValue: 0, newFaceValue: 0, amount: 0, ...a,
});
const bonus = action({ exDate: "2026-06-03", kind: "bonus", newShares: 1, heldShares: 1 });
const split = action({ exDate: "2026-06-06", kind: "split", oldFaceValue: 10, newFaceValue: 2 });
const dividend = action({ exDate: "2026-05-01", kind: "dividend", amount: 4 });

describe("corporate actions on the chart", () => {
  it("labels each kind", () => {
    expect(actionLabel(bonus)).toBe("Bonus 1:1");
    expect(actionLabel(split)).toBe("Split ₹10.00 → ₹2.00");
    expect(actionLabel(action({ kind: "consolidation", oldFaceValue: 1, newFaceValue: 10 }))).toBe("Consolidation ₹1.00 → ₹10.00");
    expect(actionLabel(dividend)).toBe("Dividend ₹4.00");
    expect(actionLabel(action({ kind: "rights", newShares: 1, heldShares: 4, amount: 120 }))).toBe("Rights 1:4 @ ₹120.00");
  });

  it("marks the first daily bar on or after an ex-date, none outside the bars", () => {
    // Sessions of Tuesday to Friday; the split's ex-date is the Saturday after: no bar takes it.
    const bars = ["2026-06-02", "2026-06-03", "2026-06-04", "2026-06-05"].map(day);
    expect(actionMarkers([split, bonus, dividend], bars, false)).toEqual([
      { time: day("2026-06-03"), position: "aboveBar", shape: "circle", color: ACTION_COLOR, text: "Bonus 1:1" },
      // Before the first bar, the dividend falls on the first bar drawn.
      { time: day("2026-06-02"), position: "aboveBar", shape: "circle", color: ACTION_COLOR, text: "Dividend ₹4.00" },
    ].sort((a, b) => a.time - b.time));
    // A holiday ex-date: the next session's bar.
    expect(actionMarkers([{ ...bonus, exDate: "2026-06-01" }], bars, false).map((m) => m.time)).toEqual([day("2026-06-02")]);
  });

  it("marks the week holding an ex-date on weekly bars", () => {
    const weeks = ["2026-05-25", "2026-06-01"].map(day);
    expect(actionMarkers([bonus, split], weeks, true).map((m) => [m.time, m.text])).toEqual([
      [day("2026-06-01"), "Bonus 1:1"], [day("2026-06-01"), "Split ₹10.00 → ₹2.00"],
    ]);
    expect(actionMarkers([{ ...split, exDate: "2026-06-09" }], weeks, true)).toEqual([]);
    expect(actionMarkers([{ ...split, exDate: "2026-05-20" }], weeks, true)).toEqual([]);
  });

  it("keeps the adjustment and the markers in the chart's URL", () => {
    const route = parseRoute("/chart?symbol=INFY&date=2026-06-05&interval=1day&range=1m&adj=all&acts=1");
    expect(route).toMatchObject({ page: "chart", adj: "all", acts: true });
    expect(formatRoute(route)).toBe("/chart?symbol=INFY&date=2026-06-05&interval=1day&range=1m&adj=all&acts=1");
    // Raw is the default, left out; anything else is said to be invalid.
    expect(parseRoute("/chart?adj=raw")).toMatchObject({ adj: undefined });
    expect(formatRoute(parseRoute("/chart?adj=raw&symbol=INFY"))).toBe("/chart?symbol=INFY");
    expect(parseRoute("/chart?adj=dividend")).toMatchObject({ adj: undefined, invalid: { adj: "dividend" } });
  });
});
