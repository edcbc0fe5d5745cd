import { describe, expect, it } from "vitest";
import { formatCount, formatPercent, formatPrice, formatSignedPrice } from "../src/format";

describe("number formats", () => {
  it("shows prices with two decimals and Indian grouping", () => {
    expect(formatPrice(1543.2)).toBe("1,543.20");
    expect(formatPrice(1234567.891)).toBe("12,34,567.89");
    expect(formatPrice(undefined)).toBe("—");
    expect(formatPrice(NaN)).toBe("—");
  });
  it("signs percentages and price differences", () => {
    expect(formatPercent(1.255)).toBe("+1.25%"); // toFixed's binary rounding, as the server rounds separately
    expect(formatPercent(-0.5)).toBe("-0.50%");
    expect(formatPercent(0)).toBe("0.00%");
    expect(formatPercent(80, 1)).toBe("+80.0%");
    expect(formatSignedPrice(-3)).toBe("-3.00");
    expect(formatSignedPrice(12.5)).toBe("+12.50");
    // What rounds to zero has no sign.
    expect(formatPercent(-0.001)).toBe("0.00%");
    expect(formatSignedPrice(-0.001)).toBe("0.00");
  });
  it("counts", () => {
    expect(formatCount(100000)).toBe("1,00,000");
  });
});
