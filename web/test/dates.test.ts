import { describe, expect, it } from "vitest";
import { ago, checkDate, checkWallClock, stepTradingDay } from "../src/time";

describe("dates typed by people", () => {
  it("takes ISO dates whatever the locale, and says what is wrong", () => {
    expect(checkDate("2025-01-02")).toEqual({ ok: true, value: "2025-01-02" });
    expect(checkDate(" 2025-1-2 ")).toEqual({ ok: true, value: "2025-01-02" });
    expect(checkDate("2025-02-30")).toEqual({ ok: false, error: "February 2025 has 28 days: there is no day 30." });
    expect(checkDate("2024-02-29").ok).toBe(true);
    expect(checkDate("2025-13-01")).toEqual({ ok: false, error: "There is no month 13: months go from 01 to 12." });
    expect(checkDate("01/02/2025")).toMatchObject({ ok: false, error: expect.stringMatching(/write it as YYYY-MM-DD/) });
    expect(checkDate("")).toMatchObject({ ok: false, error: expect.stringMatching(/^Enter a date/) });
  });

  it("takes a date and time in IST, with or without seconds", () => {
    expect(checkWallClock("2025-01-02 10:30")).toEqual({ ok: true, value: "2025-01-02T10:30:00" });
    expect(checkWallClock("2025-01-02T9:05:07")).toEqual({ ok: true, value: "2025-01-02T09:05:07" });
    expect(checkWallClock("2025-02-30 10:00")).toMatchObject({ ok: false, error: expect.stringMatching(/no day 30/) });
    expect(checkWallClock("2025-01-02 24:00")).toMatchObject({ ok: false, error: expect.stringMatching(/not a time of day/) });
    expect(checkWallClock("tomorrow")).toMatchObject({ ok: false, error: expect.stringMatching(/YYYY-MM-DD HH:MM/) });
  });

  it("steps over weekends and holidays", () => {
    expect(stepTradingDay("2025-01-03", 1)).toBe("2025-01-06"); // Friday to Monday
    expect(stepTradingDay("2025-01-06", -1)).toBe("2025-01-03");
    expect(stepTradingDay("2025-01-24", 1, new Set(["2025-01-27"]))).toBe("2025-01-28");
    expect(stepTradingDay("2024-12-31", 1)).toBe("2025-01-01");
  });

  it("says how long ago", () => {
    const now = new Date("2025-01-02T05:00:00Z");
    expect(ago(new Date("2025-01-02T04:59:30Z"), now)).toBe("30 s ago");
    expect(ago(new Date("2025-01-02T04:48:00Z"), now)).toBe("12 min ago");
    expect(ago(new Date("2025-01-02T02:55:00Z"), now)).toBe("2 h 5 min ago");
    expect(ago(new Date("2024-12-29T05:00:00Z"), now)).toBe("4 days ago");
  });
});
