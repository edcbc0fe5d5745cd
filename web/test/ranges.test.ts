import { describe, expect, it } from "vitest";
import { isDaily, rangeStart, sessionsOf } from "../src/pages/chart/ranges";

describe("the chart's ranges", () => {
  it("reaches back trading days for 5d, calendar months otherwise", () => {
    expect(rangeStart("2025-01-03", "1d")).toBe("2025-01-03");
    // Fri 3 Jan: Thu 2, Wed 1 (a holiday here), Tue 31 Dec, Mon 30, Fri 27.
    expect(rangeStart("2025-01-03", "5d", new Set(["2025-01-01"]))).toBe("2024-12-27");
    expect(rangeStart("2025-01-03", "5d")).toBe("2024-12-30");
    expect(rangeStart("2025-01-03", "1m")).toBe("2024-12-04");
    expect(rangeStart("2025-03-31", "1m")).toBe("2025-03-01"); // 28 February, then the day after
    expect(rangeStart("2025-01-03", "3m")).toBe("2024-10-04");
    expect(rangeStart("2025-01-03", "1y")).toBe("2024-01-04");
  });

  it("names daily intervals and counts sessions", () => {
    expect(isDaily("1day")).toBe(true);
    expect(isDaily("1hour")).toBe(false);
    const day = 86_400;
    expect(sessionsOf([10 * day + 33_300, 10 * day + 40_000, 11 * day + 33_300])).toEqual([10, 11]);
  });
});
