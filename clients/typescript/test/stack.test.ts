// Against the real mdc-server and mdc-gateway on a fresh database. Skipped
// without MDC_SERVER_BIN, MDC_GATEWAY_BIN and MDC_TEST_DATABASE_URL, unless
// MDC_REQUIRE_STACK=1 (run_tests.sh sets it) makes that a failure.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { MdcClient, MdcError } from "../src/index.js";
import { missingEnv, Stack } from "./stack.js";

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

describe("against a real mdc stack", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let client: MdcClient;
  let developerToken: string;

  before(async () => {
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    const created = await admin.createDeveloper("tstest-" + randomBytes(4).toString("hex"));
    assert.equal(created.role, "developer");
    assert.ok(created.token?.startsWith("mdc_"));
    developerToken = created.token!;
    client = new MdcClient({ baseUrl: stack.baseUrl, token: developerToken, timeoutMs: 10_000 });
  });

  after(async () => {
    await stack?.stop();
  });

  it("saves a shortlist and reads it back", async () => {
    const at = new Date("2025-01-02T05:00:00Z"); // 10:30 IST
    await client.saveShortlist(at, "TOP_GAINERS", [
      { nseSymbol: "RELIANCE", name: "Reliance", price: 1234.5 },
      { nseSymbol: "TCS", name: "TCS", price: 4000 },
    ]);
    const read = await client.shortlist("TOP_GAINERS", { asOf: new Date("2025-01-02T05:10:00Z") });
    assert.equal(read.shortlistType, "TOP_GAINERS");
    assert.deepEqual(read.entries.map((e) => e.nseSymbol), ["RELIANCE", "TCS"]);
    assert.equal(read.entries[0]?.price, 1234.5);
    assert.ok(read.timestamp instanceof Date);
    assert.equal(read.timestamp.getTime(), at.getTime());
  });

  it("reads a cross-section and exports a day as a file", async () => {
    const at = new Date("2035-11-06T03:45:00Z"); // 09:15 IST
    await client.saveQuotes(at, {
      TSXA: { status: "SUCCESS", payload: { last_price: 10 } },
      TSXB: { status: "SUCCESS", payload: { last_price: 20 } },
    });
    const xs = await client.quotes(["TSXB", "TSXNONE", "TSXA"], { asOf: new Date("2035-11-06T04:00:00Z") });
    assert.deepEqual(xs.quotes?.map((q) => q.nseSymbol), ["TSXB", "TSXA"]);
    assert.deepEqual(xs.missing, ["TSXNONE"]);
    assert.ok(xs.asOf instanceof Date);
    const every = await client.quotes(undefined, { asOf: new Date("2035-11-06T04:00:00Z") });
    assert.deepEqual(every.quotes?.map((q) => q.nseSymbol), ["TSXA", "TSXB"]);
    const csv = await new Response(await client.export("quotes", at, { format: "csv", symbols: ["TSXA", "TSXB"] })).text();
    const lines = csv.trim().split("\r\n");
    assert.equal(lines.length, 3);
    assert.ok(lines[0]!.startsWith("timestamp,trading_day,nse_symbol,status,last_price"));
    assert.ok(lines[1]!.startsWith("2035-11-06T03:45:00Z,2035-11-06,TSXA,SUCCESS,10,"));
    const parquet = new Uint8Array(await new Response(await client.export("quotes", at)).arrayBuffer());
    assert.equal(new TextDecoder().decode(parquet.slice(0, 4)), "PAR1");
    await assert.rejects(client.export("quotes", at, { end: new Date("2036-01-01") }), (e: unknown) =>
      e instanceof MdcError && e.httpStatus === 400 && e.fieldViolations.some((v) => v.field === "end_date"));
  });

  it("iterates a quote timeline over several pages", async () => {
    const base = Date.parse("2025-01-03T04:00:00Z");
    for (let i = 0; i < 5; i++) {
      await client.saveQuotes(new Date(base + i * 60_000), {
        INFY: { status: "SUCCESS", payload: { last_price: 1500 + i } },
      });
    }
    const seen: number[] = [];
    const times: Date[] = [];
    for await (const q of client.quoteTimeline("INFY", {
      start: new Date(base),
      end: new Date(base + 10 * 60_000),
      pageSize: 2,
    })) {
      seen.push(q.quoteData?.payload?.last_price ?? NaN);
      times.push(q.timestamp as Date);
    }
    assert.deepEqual(seen, [1500, 1501, 1502, 1503, 1504]);
    assert.ok(times.every((t) => t instanceof Date));
    assert.equal(times[4]?.getTime(), base + 4 * 60_000);
  });

  it("surfaces a read past the backtest clock as 403 FUTURE_READ", async () => {
    const now = new Date("2025-01-02T06:00:00Z");
    const past = client.backtestClock(now);
    const error = await past.shortlist("TOP_GAINERS", { asOf: new Date("2025-01-02T07:00:00Z") }).then(
      () => assert.fail("expected a 403"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof MdcError);
    assert.equal(error.httpStatus, 403);
    assert.equal(error.code, "PERMISSION_DENIED");
    assert.equal(error.reason, "FUTURE_READ");
    // Under the clock, a read without asOf sees the snapshot before it, and the client it came from has no clock.
    const read = await past.shortlist("TOP_GAINERS");
    assert.deepEqual(read.entries.map((e) => e.nseSymbol), ["RELIANCE", "TCS"]);
    await client.shortlist("TOP_GAINERS", { asOf: new Date("2025-01-02T07:00:00Z") });
  });

  it("reports a 400 with field violations", async () => {
    const error = await client
      .saveShortlist(new Date("2025-01-02T05:05:00Z"), "TOP_GAINERS", [{ nseSymbol: "RELIANCE", name: "R", price: -1 }])
      .then(() => assert.fail("expected a 400"), (e: unknown) => e);
    assert.ok(error instanceof MdcError);
    assert.equal(error.httpStatus, 400);
    assert.equal(error.code, "INVALID_ARGUMENT");
    assert.equal(error.attempts, 1);
    assert.ok(error.fieldViolations.length >= 1, JSON.stringify(error));
    assert.ok(error.fieldViolations.some((v) => v.field.includes("price")), JSON.stringify(error.fieldViolations));
  });

  it("reports a bad token as 401", async () => {
    const stranger = new MdcClient({ baseUrl: stack.baseUrl, token: "mdc_" + "x".repeat(43) });
    const error = await stranger.shortlist("TOP_GAINERS").then(() => assert.fail("expected a 401"), (e: unknown) => e);
    assert.ok(error instanceof MdcError);
    assert.equal(error.httpStatus, 401);
    assert.equal(error.code, "UNAUTHENTICATED");
  });

  it("creates a run and an order and lists them", async () => {
    const run = await client.createRun(new Date("2025-01-03T03:45:00Z"), new Date("2025-01-03T10:00:00Z"), { name: "ts-run", tags: ["ts"] });
    assert.ok(run.id);
    assert.equal(run.name, "ts-run");
    assert.ok(run.startTime instanceof Date);
    const order = await client.createOrder(run.id, "INFY", new Date("2025-01-03T04:01:00Z"), {
      entryPrice: 1501, stopLossPrice: 1400, takeProfitPrice: 1600,
    });
    assert.equal(order.nseSymbol, "INFY");
    const runs = [];
    for await (const r of client.runs({ tag: "ts" })) runs.push(r);
    assert.deepEqual(runs.map((r) => r.id), [run.id]);
    const orders = [];
    for await (const o of client.orders(run.id)) orders.push(o);
    assert.deepEqual(orders.map((o) => o.id), [order.id]);
  });

  it("saves NIFTY quotes and reads them as of an instant and as a timeline", async () => {
    const base = Date.parse("2025-01-06T04:00:00Z"); // 09:30 IST
    for (let i = 0; i < 3; i++) {
      await client.saveNifty(new Date(base + i * 300_000), { status: "SUCCESS", payload: { last_price: 23000 + 10 * i, day_change_perc: 0.5 + i } }, 0.5 + i);
    }
    const asOf = await client.nifty({ asOf: new Date(base + 7 * 60_000) }); // 09:37: the 09:35 quote
    assert.ok(asOf.timestamp instanceof Date);
    assert.equal(asOf.timestamp.getTime(), base + 300_000);
    assert.equal(asOf.dayChangePerc, 1.5);
    assert.equal(asOf.quoteData?.payload?.last_price, 23010);
    // Under the backtest clock a read without asOf sees only what is before it.
    const clocked = await client.backtestClock(new Date(base + 600_000)).nifty();
    assert.equal(clocked.quoteData?.payload?.last_price, 23010);

    const all = [];
    for await (const q of client.niftyTimeline({ start: new Date(base), end: new Date(base + 3_600_000), pageSize: 2 })) all.push(q);
    assert.deepEqual(all.map((q) => [(q.timestamp as Date).getTime(), q.dayChangePerc]), [[base, 0.5], [base + 300_000, 1.5], [base + 600_000, 2.5]]);
    // The clock cuts the window: nothing at or after 09:40 comes back.
    const cut = [];
    for await (const q of client.backtestClock(new Date(base + 600_000)).niftyTimeline({ start: new Date(base), end: new Date(base + 3_600_000) })) {
      cut.push(q.quoteData?.payload?.last_price);
    }
    assert.deepEqual(cut, [23000, 23010]);
  });

  it("builds candles from stored quotes", async () => {
    const base = Date.parse("2025-01-07T03:45:00Z"); // 09:15 IST
    const ticks: [number, number, number][] = [ // minute, last_price, cumulative volume
      [0, 100, 1000], [1, 104, 1500], [3, 98, 1700], [5, 101, 2500], [9, 103, 2600],
    ];
    for (const [m, price, volume] of ticks) {
      await client.saveQuotes(new Date(base + m * 60_000), { WIPRO: { status: "SUCCESS", payload: { last_price: price, volume } } });
    }
    const series = await client.candles("WIPRO", "5minute", { start: new Date(base), end: new Date(base + 15 * 60_000) });
    assert.equal(series.symbol, "WIPRO");
    assert.equal(series.interval, "5minute");
    assert.equal(series.intervalMinutes, 5);
    assert.deepEqual(
      series.candles.map((c) => ({ time: (c.time as Date).getTime(), open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume })),
      [
        { time: base, open: 100, high: 104, low: 98, close: 98, volume: 1700 },
        { time: base + 300_000, open: 101, high: 103, low: 101, close: 103, volume: 900 },
      ],
    );
    const error = await client.candles("WIPRO", "1minute", { start: new Date(base + 60_000), end: new Date(base) })
      .then(() => assert.fail("expected a 400"), (e: unknown) => e);
    assert.ok(error instanceof MdcError);
    assert.equal(error.httpStatus, 400);
  });

  it("updates and deletes a run", async () => {
    const run = await client.createRun(new Date("2025-01-08T03:45:00Z"), new Date("2025-01-08T10:00:00Z"));
    const renamed = await client.updateRun(run.id, { name: "renamed", tags: ["b", "a"] });
    assert.deepEqual([renamed.name, renamed.tags, renamed.completed], ["renamed", ["a", "b"], false]);
    const completed = await client.updateRun(run.id, { completed: true });
    assert.deepEqual([completed.name, completed.tags, completed.completed], ["renamed", ["a", "b"], true], "only the fields given change");
    assert.deepEqual((await client.updateRun(run.id, { name: "", tags: [] })).tags, []);
    await client.deleteRun(run.id);
    const error = await client.deleteRun(run.id).then(() => assert.fail("expected a 404"), (e: unknown) => e);
    assert.ok(error instanceof MdcError);
    assert.equal(error.httpStatus, 404);
  });

  it("lists a trading day's snapshot times, named by any Date of that day in IST", async () => {
    await client.saveShortlist(new Date("2025-01-09T04:00:00Z"), "TOP_GAINERS", []);
    await client.saveShortlist(new Date("2025-01-09T04:05:00Z"), "VOLUME_SHOCKERS", [], { scope: "FULL" });
    await client.saveShortlist(new Date("2025-01-10T04:00:00Z"), "TOP_GAINERS", []);
    const want = ["2025-01-09T04:00:00.000Z", "2025-01-09T04:05:00.000Z"];
    for (const day of [new Date("2025-01-09"), new Date("2025-01-08T18:30:00Z"), new Date("2025-01-09T18:29:59Z")]) {
      const times = await client.snapshotTimes(day);
      assert.ok(times.every((t) => t instanceof Date));
      assert.deepEqual(times.map((t) => t.toISOString()), want, day.toISOString());
    }
  });

  it("reads the coverage of a day: runs of minutes with quotes, the gaps between them", async () => {
    for (const minute of [15, 16, 18]) { // 09:17 missing
      await client.saveQuotes(new Date(`2031-09-01T09:${minute}:00+05:30`), { COVTS: { status: "SUCCESS", payload: { last_price: 10 } } });
    }
    const coverage = await client.coverage({ day: new Date("2031-09-01") });
    assert.equal(coverage.date, "2031-09-01");
    assert.equal(coverage.sessionStart?.toISOString(), "2031-09-01T03:45:00.000Z");
    const symbol = (coverage.symbols ?? []).find((s) => s.nseSymbol === "COVTS");
    assert.deepEqual((symbol?.ranges ?? []).map((r) => [r.first, r.last]), [[0, 1], [3, 3]]);
    assert.equal(symbol?.minutes, 3);
    assert.ok(symbol?.lastTime instanceof Date);
  });

  it("reads holidays, checks a day, reports health; call and paginate reach any route", async () => {
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    await admin.call("POST", "/v1/admin/holidays", { body: { holidays: [{ date: "2031-01-06", name: "Test holiday" }] } });
    assert.deepEqual((await client.holidays({ year: 2031 })).map((h) => [h.date, h.name]), [["2031-01-06", "Test holiday"]]);
    assert.deepEqual(await client.holidays({ year: 2032 }), []);
    const holiday = await client.checkHoliday(new Date("2031-01-06"));
    assert.deepEqual([holiday.date, holiday.isHoliday, holiday.isTradingDay], ["2031-01-06", true, false]);
    const weekday = await client.checkHoliday(new Date("2031-01-07T09:00:00+05:30"));
    assert.deepEqual([weekday.date, weekday.isHoliday, weekday.isTradingDay], ["2031-01-07", false, true]);
    assert.equal((await client.health()).status, "SERVING");
    const tags = await client.call("GET", "/v1/dashboard/runs/tags");
    assert.ok(Array.isArray(tags.tags));
    const names = [];
    for await (const d of admin.paginate("/v1/admin/developers", { params: { query: { pageSize: 1 } } }, "developers")) names.push(d.username);
    assert.ok(names.length >= 2 && new Set(names).size === names.length, JSON.stringify(names));
  });
});
