import { describe, expect, it } from "vitest";
import { type Route, formatRoute, isSamePath, parseRoute } from "../src/route";

describe("routes in the URL", () => {
  const cases: [string, Route][] = [
    ["/runs", { page: "runs", tag: undefined, sort: undefined }],
    ["/runs?tag=momentum&sort=-created", { page: "runs", tag: "momentum", sort: { key: "created", desc: true } }],
    ["/runs/42?gain=1.5&sort=time", { page: "run", runId: "42", gain: 1.5, sort: { key: "time", desc: false } }],
    ["/chart?symbol=M%26M&date=2025-01-02&interval=1minute&run=7",
      { page: "chart", symbol: "M&M", date: "2025-01-02", interval: "1minute", runId: "7", nifty: undefined, orderId: undefined, live: undefined }],
    ["/chart", { page: "chart", symbol: undefined, date: undefined, interval: "5minute", runId: undefined, nifty: undefined, orderId: undefined, live: undefined }],
    ["/chart?symbol=NIFTY&date=2025-01-02&run=7&order=12&nifty=1&live=1",
      { page: "chart", symbol: "NIFTY", date: "2025-01-02", interval: "5minute", runId: "7", nifty: true, orderId: "12", live: true }],
    ["/chart?symbol=INFY&date=2025-01-03&interval=1day&range=3m&ind=vwap%2Crsi",
      { page: "chart", symbol: "INFY", date: "2025-01-03", interval: "1day", runId: undefined, nifty: undefined, orderId: undefined, live: undefined,
        range: "3m", ind: ["vwap", "rsi"] }],
    ["/watchlist?sort=-pct", { page: "watchlist", sort: { key: "pct", desc: true } }],
    ["/coverage?date=2025-01-02&refresh=10&silent=2", { page: "coverage", date: "2025-01-02", gaps: undefined, refresh: 10, silent: 2 }],
    ["/runs?refresh=30", { page: "runs", tag: undefined, sort: undefined, refresh: 30 }],
    ["/runs/compare?ids=3%2C1", { page: "compare", runIds: ["3", "1"] }],
    ["/coverage?date=2025-01-02&gaps=1", { page: "coverage", date: "2025-01-02", gaps: true }],
    ["/coverage", { page: "coverage", date: undefined, gaps: undefined }],
    ["/shortlist?type=VOLUME_SHOCKERS&scope=FULL&at=2025-01-02T09%3A20%3A00&tp=2&sl=1",
      { page: "shortlist", type: "VOLUME_SHOCKERS", scope: "FULL", date: "2025-01-02", at: "2025-01-02T09:20:00", tp: 2, sl: 1, sort: undefined, live: undefined }],
    ["/shortlist?date=2025-01-02&live=1",
      { page: "shortlist", type: "TOP_GAINERS", scope: "TOP_5", date: "2025-01-02", at: undefined, tp: undefined, sl: undefined, sort: undefined, live: true }],
    ["/companies?date=2025-01-02&type=TOP_GAINERS&min=60",
      { page: "companies", date: "2025-01-02", type: "TOP_GAINERS", scope: "TOP_5", min: 60 }],
    ["/admin/developers", { page: "admin-developers" }],
    ["/admin/holidays?year=2026", { page: "admin-holidays", year: 2026 }],
    ["/admin/data", { page: "admin-data" }],
    ["/admin/scripts", { page: "admin-scripts" }],
    ["/sign-in?next=%2Fruns%2F3", { page: "sign-in", next: "/runs/3" }],
  ];

  it.each(cases)("parses %s", (url, route) => {
    expect(parseRoute(url)).toEqual(route);
  });

  it.each(cases)("writes %s back to the same route", (url, route) => {
    expect(parseRoute(formatRoute(route))).toEqual(route);
  });

  it("leaves defaults out of the URL", () => {
    expect(formatRoute({ page: "chart", symbol: "TCS", date: "2025-01-02", interval: "5minute" })).toBe("/chart?symbol=TCS&date=2025-01-02");
    expect(formatRoute({ page: "shortlist", type: "TOP_GAINERS", scope: "TOP_5" })).toBe("/shortlist");
    expect(formatRoute({ page: "runs" })).toBe("/runs");
  });

  it("falls back to defaults for values that do not parse", () => {
    expect(parseRoute("/chart?interval=7minute&date=2025-02-30&symbol=a%20b&run=x&live=yes")).toEqual(
      { page: "chart", symbol: undefined, date: undefined, interval: "5minute", runId: undefined, nifty: undefined, orderId: undefined, live: undefined,
        invalid: { date: "2025-02-30", symbol: "a b" } });
    expect(parseRoute("/runs/compare?ids=1,x,1,2")).toEqual({ page: "compare", runIds: ["1", "2"] });
    expect(parseRoute("/shortlist?tp=-1&sl=101&type=TOP_LOSERS&at=2025-01-02T9:20")).toMatchObject(
      { type: "TOP_GAINERS", tp: undefined, sl: undefined, at: undefined });
    // What was not used is named, so the page can say so.
    expect(parseRoute("/shortlist?at=2025-03-10T25:61:00&tp=-5&sl=500")).toMatchObject(
      { at: undefined, date: undefined, tp: undefined, sl: undefined, invalid: { at: "2025-03-10T25:61:00", tp: "-5", sl: "500" } });
    expect(parseRoute("/shortlist?at=2025-03-10T23:59:59")).not.toHaveProperty("invalid");
    expect(parseRoute("/chart?range=2y&ind=rsi,nope,sma")).toMatchObject({ invalid: { range: "2y" } });
    expect(parseRoute("/chart?ind=rsi,nope,sma")).toMatchObject({ ind: ["sma", "rsi"] });
    expect(parseRoute("/coverage?refresh=7&silent=0")).toMatchObject({ refresh: undefined, silent: undefined });
    expect(parseRoute("/admin/holidays?year=1850")).toEqual({ page: "admin-holidays", year: undefined });
  });

  it("opens the runs at the root and admin's first page at /admin", () => {
    expect(parseRoute("/").page).toBe("runs");
    expect(parseRoute("/admin").page).toBe("admin-developers");
  });

  it("names unknown paths and malformed ids not found", () => {
    expect(parseRoute("/nowhere")).toEqual({ page: "not-found", path: "/nowhere" });
    expect(parseRoute("/runs/abc").page).toBe("not-found");
    expect(parseRoute("/admin/secrets").page).toBe("not-found");
  });

  it("never sends sign-in anywhere but a path of this site", () => {
    expect(parseRoute("/sign-in?next=https%3A%2F%2Fevil.example").page).toBe("sign-in");
    expect(parseRoute("/sign-in?next=https%3A%2F%2Fevil.example")).toEqual({ page: "sign-in", next: undefined });
    expect(parseRoute("/sign-in?next=%2F%2Fevil.example")).toEqual({ page: "sign-in", next: undefined });
    // Browsers read a backslash as a slash: "/\\evil.example" is "//evil.example".
    expect(parseRoute("/sign-in?next=%2F%5Cevil.example")).toEqual({ page: "sign-in", next: undefined });
    expect(parseRoute("/sign-in?next=%2Fruns%5C..")).toEqual({ page: "sign-in", next: undefined });
    expect(parseRoute("/sign-in?next=%2F%09%2Fevil.example")).toEqual({ page: "sign-in", next: undefined });
    expect(parseRoute("/sign-in?next=javascript%3Aalert(1)")).toEqual({ page: "sign-in", next: undefined });
    expect(parseRoute("/sign-in?next=%2Fchart%3Fsymbol%3DTCS")).toEqual({ page: "sign-in", next: "/chart?symbol=TCS" });
  });

  it("accepts as a return path only paths of this origin", () => {
    expect(isSamePath("/runs/3?sort=time")).toBe(true);
    for (const bad of ["//evil.example", "/\\evil.example", "\\\\evil.example", "https://evil.example", "/\nx", "runs", ""]) {
      expect(isSamePath(bad), bad).toBe(false);
    }
  });
});
