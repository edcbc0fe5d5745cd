import { describe, expect, it } from "vitest";
import { cadence, expectedMinutes, minuteClock, missingRanges, rangeText } from "../src/coverage";
import { matchSymbols, storedSymbol } from "../src/components/SymbolSearch";

describe("coverage of a day", () => {
  it("expects every minute of a past day and those begun today", () => {
    const now = new Date("2025-01-02T04:00:30Z"); // 09:30:30 IST
    expect(expectedMinutes("2025-01-01", 375, now)).toBe(375);
    expect(expectedMinutes("2025-01-02", 375, now)).toBe(15);
    expect(expectedMinutes("2025-01-03", 375, now)).toBe(0);
    expect(expectedMinutes("2025-01-02", 375, new Date("2025-01-02T02:00:00Z"))).toBe(0);
  });

  it("finds the gaps between runs of minutes, and at both ends", () => {
    expect(missingRanges([{ first: 0, last: 1 }, { first: 3, last: 3 }], 375)).toEqual([{ first: 2, last: 2 }, { first: 4, last: 374 }]);
    expect(missingRanges([{ first: 5, last: 374 }], 375)).toEqual([{ first: 0, last: 4 }]);
    expect(missingRanges([{ first: 0, last: 374 }], 375)).toEqual([]);
    expect(missingRanges([{ first: 0, last: 10 }], 8)).toEqual([]);
    expect(missingRanges([], 3)).toEqual([{ first: 0, last: 2 }]);
    expect(missingRanges([{ first: 1, last: 374 }], 375)).toEqual([{ first: 0, last: 0 }]);
  });

  it("names minutes by the IST clock", () => {
    expect(minuteClock(0)).toBe("09:15");
    expect(minuteClock(374)).toBe("15:29");
    expect(rangeText({ first: 2, last: 4 })).toBe("09:17-09:19");
  });
});

describe("symbol search", () => {
  const symbols = ["ADANIENT", "ADANIPORTS", "HDFCBANK", "M&M", "NIFTY", "BANKBARODA"];
  it("matches case-insensitively, prefixes first", () => {
    expect(matchSymbols(symbols, "adani")).toEqual(["ADANIENT", "ADANIPORTS"]);
    expect(matchSymbols(symbols, "bank")).toEqual(["BANKBARODA", "HDFCBANK"]);
    expect(matchSymbols(symbols, "m&")).toEqual(["M&M"]);
    expect(storedSymbol(symbols, " adanient ")).toBe("ADANIENT");
    expect(storedSymbol(symbols, "FOO")).toBeUndefined();
  });
});

describe("series written every few minutes", () => {
  const every5 = [5, 10, 15, 20, 30, 35].map((m) => ({ first: m, last: m }));
  it("finds their rhythm", () => {
    expect(cadence(every5)).toBe(5);
    expect(cadence([{ first: 0, last: 374 }])).toBe(1);
  });
  it("counts only a missed record, and the end of the data, as gaps", () => {
    // 25 is missing: 21-29 is longer than the rhythm; 36 on is the end.
    expect(missingRanges(every5, 60, 5)).toEqual([{ first: 21, last: 29 }, { first: 36, last: 59 }]);
    expect(missingRanges(every5, 36, 5)).toEqual([{ first: 21, last: 29 }]);
  });
});
