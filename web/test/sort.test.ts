import { describe, expect, it } from "vitest";
import { formatSort, nextSort, parseSort, sortRows } from "../src/sort";

describe("sort specs", () => {
  it("round-trips through the URL form", () => {
    expect(parseSort("-time")).toEqual({ key: "time", desc: true });
    expect(parseSort("symbol")).toEqual({ key: "symbol", desc: false });
    expect(formatSort({ key: "time", desc: true })).toBe("-time");
    expect(parseSort("")).toBeUndefined();
    expect(parseSort("-")).toBeUndefined();
    expect(parseSort("a b")).toBeUndefined();
  });
  it("toggles on repeated clicks and starts ascending on a new column", () => {
    expect(nextSort(undefined, "price")).toEqual({ key: "price", desc: false });
    expect(nextSort({ key: "price", desc: false }, "price")).toEqual({ key: "price", desc: true });
    expect(nextSort({ key: "price", desc: true }, "price")).toEqual({ key: "price", desc: false });
    expect(nextSort({ key: "price", desc: true }, "symbol")).toEqual({ key: "symbol", desc: false });
  });
});

describe("sortRows", () => {
  const rows = [
    { s: "TCS", p: 10 }, { s: "INFY", p: undefined }, { s: "M&M", p: 2 }, { s: "ABB", p: 10 }, { s: "RELIANCE", p: NaN },
  ];
  it("sorts numbers numerically, keeps ties in order and absent values last", () => {
    expect(sortRows(rows, (r) => r.p, false).map((r) => r.s)).toEqual(["M&M", "TCS", "ABB", "INFY", "RELIANCE"]);
    expect(sortRows(rows, (r) => r.p, true).map((r) => r.s)).toEqual(["TCS", "ABB", "M&M", "INFY", "RELIANCE"]);
  });
  it("sorts text with numbers in it naturally", () => {
    const names = ["run 10", "run 9", "Run 1"].map((s) => ({ s }));
    expect(sortRows(names, (r) => r.s, false).map((r) => r.s)).toEqual(["Run 1", "run 9", "run 10"]);
  });
  it("does not change its input", () => {
    const copy = [...rows];
    sortRows(rows, (r) => r.s, true);
    expect(rows).toEqual(copy);
  });
});
