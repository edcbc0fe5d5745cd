// Against the real mdc-server and mdc-gateway (issue 37): what the client refuses before sending (unknown keys
// of collector inputs, with the server's field paths and the key meant; anything but a Date where a time goes),
// the server's rule that a SUCCESS quote carries last_price, the flat accessors of quotes, candles of several
// symbols as one long table, a candle's volume absent when no quote reported one, and a network failure that
// says what happened. Skipped without MDC_SERVER_BIN, MDC_GATEWAY_BIN and MDC_TEST_DATABASE_URL, unless
// MDC_REQUIRE_STACK=1 (run_tests.sh sets it) makes that a failure.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { MdcClient, MdcError, type QuoteData } from "../src/index.js";
import { freeAddr, missingEnv, Stack } from "./stack.js";

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

/** The MdcError `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<MdcError> {
  const error = await promise.then(() => assert.fail("expected MdcError"), (e: unknown) => e);
  assert.ok(error instanceof MdcError, String(error));
  return error;
}

/** Loosely typed, as JSON a collector parsed is. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose on purpose
const untyped = (value: unknown): any => value;

describe("research shapes and refusals against a real mdc stack", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let client: MdcClient;
  let sent = 0;

  before(async () => {
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    const token = (await admin.createDeveloper("tsresearch-" + randomBytes(4).toString("hex"))).token!;
    const counting: typeof fetch = (input, init) => {
      sent++;
      return globalThis.fetch(input, init);
    };
    client = new MdcClient({ baseUrl: stack.baseUrl, token, fetch: counting });
  });

  after(async () => {
    await stack?.stop();
  });

  it("refuses an unknown key before sending, naming the server's path and the key meant", async () => {
    const at = new Date("2035-12-03T04:00:00Z");
    const before = sent;
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => client.saveQuotes(at, { TSA1: { status: "SUCCESS", payload: { last_price: 1 } }, TSE01: untyped({ status: "SUCCESS", payload: { lastPrice: 5 } }) }),
        "data.quotes[1].quoteData.payload.lastPrice", "unknown key 'lastPrice' of QuotePayload; did you mean 'last_price'?"],
      [() => client.saveNifty(at, untyped({ status: "SUCCESS", payload: { last_price: 1, depth: { buy: [{ price: 1, qty: 2 }] } } }), 0),
        "data.quoteData.payload.depth.buy[0].qty", "did you mean 'quantity'?"],
      [() => client.saveShortlist(at, "TOP_GAINERS", [untyped({ nse_symbol: "TCS", price: 1 })]),
        "data.entries[0].nse_symbol", "did you mean 'nseSymbol'?"],
      [() => client.saveQuotes(at, { TSA1: untyped({ status: "SUCCESS", paylod: { last_price: 1 } }) }),
        "data.quotes[0].quoteData.paylod", "did you mean 'payload'?"],
      [() => client.saveQuotes(at, { TSA1: untyped({ status: "SUCCESS", payload: { last_price: 1, ohlc: [1, 2] } }) }),
        "data.quotes[0].quoteData.payload.ohlc", "expected an object (Ohlc), got an array"],
    ];
    for (const [call, field, says] of cases) {
      const error = await refusal(call());
      assert.equal(error.code, "INVALID_ARGUMENT");
      assert.equal(error.httpStatus, undefined);
      assert.equal(error.attempts, 0);
      assert.deepEqual(Object.keys(error.fields), [field], error.message);
      assert.ok(error.fields[field]!.includes(says), error.fields[field]);
    }
    assert.equal(sent, before, "nothing was sent");
    const stored = await refusal(client.quote("TSE01"));
    assert.equal(stored.httpStatus, 404);
  });

  it("refuses anything but a valid Date where a time goes, naming the field", async () => {
    const before = sent;
    const cases: [() => unknown, string][] = [
      [() => client.quote("TCS", { asOf: untyped("2025-01-02T10:00:00") }), "datetime"],
      [() => client.saveQuotes(untyped(1735800000000), {}), "data.timestamp"],
      [() => client.candles("TCS", "1minute", { start: new Date("not a date") }), "start_datetime"],
      [() => client.backtestClock(untyped("2025-01-02")), "X-Current-Timestamp"],
      [() => client.replayDay(untyped("2025-01-02")), "date"],
      [() => client.export("quotes", untyped(null)), "start_date"],
    ];
    for (const [call, field] of cases) {
      let error: unknown;
      try {
        await call();
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof MdcError, `${field}: ${String(error)}`);
      assert.equal(error.code, "INVALID_ARGUMENT");
      assert.deepEqual(Object.keys(error.fields), [field]);
      assert.match(error.fields[field]!, /expected a valid Date, got/);
    }
    let idle: unknown;
    try {
      await client.watchNifty({ idleTimeoutMs: -1 });
    } catch (e) {
      idle = e;
    }
    assert.ok(idle instanceof MdcError && idle.code === "INVALID_ARGUMENT", String(idle));
    assert.deepEqual(Object.keys(idle.fields), ["idleTimeoutMs"]);
    const text = await refusal(client.quote("TCS", { asOf: untyped("2025-01-02T10:00:00") }));
    assert.ok(text.message.includes('pass new Date("2025-01-02T10:00:00")'), text.message);
    assert.equal(sent, before, "nothing was sent");
  });

  it("gets the server's 400 for a SUCCESS quote without last_price", async () => {
    const at = new Date("2035-12-03T04:05:00Z");
    const error = await refusal(client.saveQuotes(at, { TSB1: { status: "SUCCESS", payload: { volume: 5 } } }));
    assert.equal(error.httpStatus, 400);
    assert.deepEqual(Object.keys(error.fields), ["data.quotes[0].quoteData.payload.last_price"]);
    assert.match(error.fields["data.quotes[0].quoteData.payload.last_price"]!, /is required when status is SUCCESS/);
    await client.saveQuotes(at, { TSB1: { status: "FAILURE" } }); // a FAILURE needs no price
    assert.equal((await client.quote("TSB1")).lastPrice, undefined);
  });

  it("reads quotes through flat accessors", async () => {
    const at = new Date("2035-12-04T04:00:00Z");
    const quotes: Record<string, QuoteData> = {
      TSC1: { status: "SUCCESS", payload: { last_price: 101.5, volume: 700 } },
      TSC2: { status: "SUCCESS", payload: { last_price: 55 } },
    };
    await client.saveQuotes(at, quotes);
    await client.saveNifty(at, { status: "SUCCESS", payload: { last_price: 22100 } }, 0.2);
    const q = await client.quote("TSC1", { asOf: at });
    assert.deepEqual([q.symbol, q.lastPrice, q.volume, q.status], ["TSC1", 101.5, 700, "SUCCESS"]);
    assert.equal(q.lastPrice, q.quoteData?.payload?.last_price);
    assert.equal(JSON.stringify(q).includes("lastPrice"), false, "the accessors are not wire fields");
    const n = await client.nifty({ asOf: at });
    assert.deepEqual([n.symbol, n.lastPrice, n.volume], ["NIFTY", 22100, undefined]);
    const xs = await client.quotes(["TSC2", "TSC1"], { asOf: at });
    assert.deepEqual(xs.quotes.map((x) => [x.symbol, x.lastPrice, x.volume]), [["TSC2", 55, undefined], ["TSC1", 101.5, 700]]);
    const events = [];
    for await (const event of await client.replayDay(at, { symbols: ["TSC1", "TSC2"], kinds: ["quotes"] })) events.push(event);
    assert.deepEqual(events.map((e) => [e.quote?.symbol, e.quote?.lastPrice]), [["TSC1", 101.5], ["TSC2", 55]]);
  });

  it("reads candles of several symbols as one long table, volume null where none was reported", async () => {
    const base = Date.parse("2035-12-05T03:45:00Z"); // 09:15 IST
    for (const [m, vol] of [[0, 50], [1, 50]] as const) {
      await client.saveQuotes(new Date(base + m * 60_000 + 10_000), {
        TSDV: { status: "SUCCESS", payload: { last_price: 10 + m, volume: vol } },
        TSDN: { status: "SUCCESS", payload: { last_price: 20 + m } },
      });
    }
    const answer = await client.candlesOfSymbols(["TSDV", "TSDN", "TSDX"], "1minute", { start: new Date(base), end: new Date(base + 3_600_000) });
    assert.deepEqual(answer.missing, ["TSDX"]);
    assert.deepEqual(answer.series?.map((s) => s.symbol), ["TSDV", "TSDN"]);
    assert.deepEqual(answer.rows.map((r) => [r.symbol, r.time.getTime(), r.close, r.volume]), [
      ["TSDV", base, 10, 50], ["TSDV", base + 60_000, 11, 0],
      ["TSDN", base, 20, null], ["TSDN", base + 60_000, 21, null],
    ]);
    const one = await client.candles("TSDN", "1minute", { start: new Date(base), end: new Date(base + 3_600_000) });
    assert.deepEqual(one.candles?.map((c) => "volume" in c), [false, false], "absent, not 0");
    const error = await refusal(client.candlesOfSymbols([], "1minute"));
    assert.deepEqual(Object.keys(error.fields), ["symbols"]);
  });

  it("says what a call without an answer met, and what to check", async () => {
    const addr = await freeAddr(); // nothing listens there
    const nowhere = new MdcClient({ baseUrl: `http://${addr}`, retries: 0 });
    const error = await refusal(nowhere.health());
    assert.equal(error.code, "UNAVAILABLE");
    assert.equal(error.httpStatus, undefined);
    assert.match(error.message, /ECONNREFUSED/);
    assert.ok(error.message.includes(`Is mdc-gateway running and reachable at http://${addr}?`), error.message);
  });
});
