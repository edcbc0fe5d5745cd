import { describe, expect, it } from "vitest";
import {
  chartTime, formatIST, isDate, istDate, istTime, istWallClock, minutesBetween, parseISTWallClock, toInputValue, todayIST,
} from "../src/time";

describe("IST formatting", () => {
  const at = new Date("2025-01-02T05:00:05Z"); // 10:30:05 IST

  it("shows instants in IST with the zone named", () => {
    expect(formatIST(at)).toBe("2025-01-02 10:30:05 IST");
    expect(formatIST("2025-01-02T05:00:05Z", { seconds: false })).toBe("2025-01-02 10:30 IST");
    expect(formatIST(at, { zone: false })).toBe("2025-01-02 10:30:05");
  });

  it("crosses midnight into the next IST day", () => {
    const late = new Date("2025-03-31T18:45:00Z"); // 00:15 IST on April 1st
    expect(istDate(late)).toBe("2025-04-01");
    expect(istTime(late, false)).toBe("00:15");
    expect(formatIST(new Date("2024-12-31T18:30:00Z"))).toBe("2025-01-01 00:00:00 IST");
  });

  it("shows absent or unreadable values as a dash", () => {
    expect(formatIST(undefined)).toBe("—");
    expect(formatIST("not a time")).toBe("—");
  });

  it("writes the wall clock the API takes with Asia/Kolkata", () => {
    expect(istWallClock(at)).toBe("2025-01-02T10:30:05");
    expect(toInputValue(at)).toBe("2025-01-02T10:30");
  });

  it("reads IST wall clocks back, refusing impossible ones", () => {
    expect(parseISTWallClock("2025-01-02T10:30")?.toISOString()).toBe("2025-01-02T05:00:00.000Z");
    expect(parseISTWallClock("2025-01-02T10:30:05")?.toISOString()).toBe("2025-01-02T05:00:05.000Z");
    expect(parseISTWallClock("2025-01-01T00:00")?.toISOString()).toBe("2024-12-31T18:30:00.000Z");
    for (const bad of ["2025-02-30T10:00", "2025-13-01T10:00", "2025-01-02T24:00", "2025-01-02 10:30", "yesterday", ""]) {
      expect(parseISTWallClock(bad), bad).toBeUndefined();
    }
    expect(isDate("2024-02-29")).toBe(true);
    expect(isDate("2025-02-29")).toBe(false);
  });

  it("round-trips through the input form", () => {
    const t = new Date("2031-07-15T09:59:00Z");
    expect(parseISTWallClock(toInputValue(t))?.getTime()).toBe(t.getTime());
  });

  it("knows today's IST date, which differs from UTC's after 18:30 UTC", () => {
    expect(todayIST(new Date("2025-06-10T18:29:59Z"))).toBe("2025-06-10");
    expect(todayIST(new Date("2025-06-10T18:30:00Z"))).toBe("2025-06-11");
  });

  it("shifts chart times so the chart's UTC axis reads IST", () => {
    // 09:15 IST is 03:45 UTC; the chart must label it 09:15.
    const open = new Date("2025-01-02T03:45:00Z");
    const shown = new Date(chartTime(open) * 1000);
    expect(shown.getUTCHours()).toBe(9);
    expect(shown.getUTCMinutes()).toBe(15);
  });

  it("counts whole minutes", () => {
    expect(minutesBetween(new Date("2025-01-02T04:00:00Z"), new Date("2025-01-02T04:07:59Z"))).toBe(7);
  });
});
