// Watches and day replay (docs/api.md section 10) through the real gateway and
// server: the client's async iterators over the NDJSON stream routes. Each test
// writes symbols and days of its own. Skipped without MDC_SERVER_BIN,
// MDC_GATEWAY_BIN and MDC_TEST_DATABASE_URL, unless MDC_REQUIRE_STACK=1 makes
// that a failure.
import assert from "node:assert/strict";
import { randomBytes, randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { MdcClient, MdcError, type EventStream, type QuoteData, type StreamEvent } from "../src/index.js";
import { missingEnv, Stack, WATCH_HEARTBEAT_SECONDS } from "./stack.js";
import { BlackHoleProxy } from "./tcp-proxy.js";

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

const symbol = (prefix: string) => prefix + randomBytes(3).toString("hex").toUpperCase();
/** A trading day of its own (YYYY-MM-DD), far from the other tests' days. */
const uniqueDay = () => new Date(Date.UTC(2042, 0, 1) + randomInt(7000) * 86_400_000).toISOString().slice(0, 10);
/** The Date that names a trading day (YYYY-MM-DD). */
const dayOf = (day: string) => new Date(day);
/** The instant of an IST wall clock (HH:MM) on day. */
const ist = (day: string, clock: string) => new Date(`${day}T${clock}:00+05:30`);
const quote = (price: number): QuoteData => ({ status: "SUCCESS", payload: { last_price: price } });

/** The record an event carries, e.g. "Q TCS 09:15" (IST). */
function key(event: StreamEvent): string {
  const hhmm = (at: Date | undefined) => new Date((at?.getTime() ?? NaN) + 5.5 * 3_600_000).toISOString().slice(11, 16);
  if (event.quote) return `Q ${event.quote.nseSymbol} ${hhmm(event.quote.timestamp)}`;
  if (event.nifty) return `N ${hhmm(event.nifty.timestamp)}`;
  if (event.shortlist) return `S ${event.shortlist.shortlistType} ${event.shortlist.scope} ${hhmm(event.shortlist.timestamp)}`;
  return "?";
}

async function take(stream: EventStream<StreamEvent>, n: number): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  while (events.length < n) {
    const next = await stream.next();
    assert.ok(!next.done, `the stream ended after ${events.length} of ${n} events`);
    events.push(next.value);
  }
  return events;
}

async function all(stream: EventStream<StreamEvent>): Promise<string[]> {
  const keys: string[] = [];
  for await (const event of stream) keys.push(key(event));
  return keys;
}

async function rejection(promise: Promise<unknown>): Promise<MdcError> {
  const error = await promise.then(() => assert.fail("expected an MdcError"), (e: unknown) => e);
  assert.ok(error instanceof MdcError, String(error));
  return error;
}

describe("streams against a real mdc stack", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let client: MdcClient;
  let token: string;

  before(async () => {
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    token = (await admin.createDeveloper("tsstream-" + randomBytes(4).toString("hex"))).token!;
    client = new MdcClient({ baseUrl: stack.baseUrl, token });
  });

  after(async () => {
    await stack?.stop();
  });

  it("a watch receives a write made after it opened", async () => {
    const day = uniqueDay();
    const sym = symbol("W");
    const watch = await client.watchQuotes([sym, "NOT" + sym]);
    const openedAt = watch.cursor;
    assert.ok(openedAt, "the first message says where the watch stands");
    await client.saveQuotes(ist(day, "09:15"), { [sym]: quote(101.5), [symbol("X")]: quote(1) });
    const [event] = await take(watch, 1);
    await watch.close();
    assert.equal(key(event!), `Q ${sym} 09:15`);
    assert.equal(event!.quote?.quoteData?.payload?.last_price, 101.5);
    assert.ok(event!.quote?.timestamp instanceof Date);
    assert.equal(watch.cursor, event!.cursor);
    assert.notEqual(watch.cursor, openedAt);
    assert.equal((await watch.next()).done, true, "a closed watch yields nothing more");
  });

  it("a watch resumed from a cursor misses nothing", async () => {
    const day = uniqueDay();
    const sym = symbol("R");
    const first = await client.watchQuotes([sym]);
    await client.saveQuotes(ist(day, "09:15"), { [sym]: quote(1) });
    for await (const event of first) {
      assert.equal(key(event), `Q ${sym} 09:15`);
      break; // hangs up
    }
    const cursor = first.cursor!;
    // While nobody watches: two new quotes, and the first one replaced.
    await client.saveQuotes(ist(day, "09:16"), { [sym]: quote(2) });
    await client.saveQuotes(ist(day, "09:17"), { [sym]: quote(3) });
    await client.saveQuotes(ist(day, "09:15"), { [sym]: quote(4) });

    const resumed = await client.watchQuotes([sym], { cursor });
    const missed = await take(resumed, 3);
    await client.saveQuotes(ist(day, "09:18"), { [sym]: quote(5) });
    const live = await take(resumed, 1);
    await resumed.close();
    assert.deepEqual([...missed, ...live].map(key), ["16", "17", "15", "18"].map((m) => `Q ${sym} 09:${m}`));
    assert.equal(missed[2]!.quote?.quoteData?.payload?.last_price, 4, "the latest version");
  });

  it("a watch cut by a server restart resumes by itself; without resume the error is thrown", async () => {
    const day = uniqueDay();
    const sym = symbol("S");
    // Patient enough to outlast the server's restart.
    const patient = new MdcClient({ baseUrl: stack.baseUrl, token, retries: 20, backoffMs: 100, maxBackoffMs: 1000 });
    const watch = await patient.watchQuotes([sym]);
    const broken = await patient.watchQuotes([sym], { resume: false });
    await client.saveQuotes(ist(day, "10:00"), { [sym]: quote(1) });
    assert.equal(key((await take(watch, 1))[0]!), `Q ${sym} 10:00`);
    assert.equal(key((await take(broken, 1))[0]!), `Q ${sym} 10:00`);

    // The server shuts down (its watches end 503 UNAVAILABLE) and comes back;
    // the quotes written meanwhile, before either iterator reads on, reach the
    // resuming one from the database.
    try {
      await stack.stopServer();
    } finally {
      await stack.startServer();
    }
    await client.saveQuotes(ist(day, "10:01"), { [sym]: quote(2) });
    await client.saveQuotes(ist(day, "10:02"), { [sym]: quote(3) });
    assert.deepEqual((await take(watch, 2)).map(key), [`Q ${sym} 10:01`, `Q ${sym} 10:02`]);
    await client.saveQuotes(ist(day, "10:03"), { [sym]: quote(4) });
    assert.deepEqual((await take(watch, 1)).map(key), [`Q ${sym} 10:03`]);
    await watch.close();

    const error = await rejection(broken.next());
    assert.equal(error.code, "UNAVAILABLE");
    assert.equal(error.httpStatus, 503);
    assert.match(error.message, /shutting down/);
    assert.equal((await broken.next()).done, true, "a failed stream ends");
  });

  it("a watch whose connection dies silently reconnects after its idle timeout, missing nothing", { timeout: 180_000 }, async () => {
    // A proxy between the client and the gateway black-holes the watches' connections (no reset, no error:
    // nothing). Only the idle timeout can notice; the watch then reconnects through the proxy from its
    // cursor and gets what was written meanwhile, once each.
    const day = uniqueDay();
    const sym = symbol("H");
    const idleTimeoutMs = 2_000 * WATCH_HEARTBEAT_SECONDS; // heartbeats keep a healthy watch under it
    const proxy = await BlackHoleProxy.start(stack.httpAddr);
    // A watch blocked for ever fails the test instead of hanging it: closing the proxy cuts it.
    const guard = setTimeout(() => void proxy.close(), 60_000);
    try {
      const proxied = new MdcClient({ baseUrl: `http://${proxy.addr}`, token, retries: 5, backoffMs: 100, maxBackoffMs: 500 });
      const watch = await proxied.watchQuotes([sym], { idleTimeoutMs });
      const fragile = await proxied.watchQuotes([sym], { idleTimeoutMs, resume: false });
      await client.saveQuotes(ist(day, "11:00"), { [sym]: quote(1) }); // writes bypass the proxy
      assert.equal(key((await take(watch, 1))[0]!), `Q ${sym} 11:00`);
      assert.equal(key((await take(fragile, 1))[0]!), `Q ${sym} 11:00`);

      proxy.blackHole();
      const accepted = proxy.accepted;
      await client.saveQuotes(ist(day, "11:01"), { [sym]: quote(2) });
      await client.saveQuotes(ist(day, "11:02"), { [sym]: quote(3) });
      assert.deepEqual((await take(watch, 2)).map(key), [`Q ${sym} 11:01`, `Q ${sym} 11:02`]);
      assert.ok(proxy.accepted > accepted, "a new connection, through the proxy");
      await client.saveQuotes(ist(day, "11:03"), { [sym]: quote(4) });
      assert.deepEqual((await take(watch, 1)).map(key), [`Q ${sym} 11:03`]);
      await watch.close();

      // Without resume, the silence is the error that ends the stream.
      const error = await rejection(fragile.next());
      assert.deepEqual([error.code, error.httpStatus], ["UNAVAILABLE", undefined]);
      assert.match(error.message, /no message for/);
    } finally {
      clearTimeout(guard);
      await proxy.close();
    }
  });

  it("replay yields the day in order, resumes from any cursor and follows the backtest clock", async () => {
    const day = uniqueDay();
    const [a, b] = [symbol("RA"), symbol("RB")].sort() as [string, string];
    for (const clock of ["09:15", "10:00"]) {
      await client.saveQuotes(ist(day, clock), { [b]: quote(2), [a]: quote(1) });
      await client.saveNifty(ist(day, clock), quote(22000), 0.5);
    }
    await client.saveShortlist(ist(day, "09:15"), "TOP_GAINERS", [{ nseSymbol: a, name: "A", price: 1 }]);
    const want = ["N 09:15", `Q ${a} 09:15`, `Q ${b} 09:15`, "S TOP_GAINERS TOP_5 09:15", "N 10:00", `Q ${a} 10:00`, `Q ${b} 10:00`];

    const events: StreamEvent[] = [];
    for await (const event of await client.replayDay(dayOf(day), { symbols: [a, b] })) events.push(event);
    assert.deepEqual(events.map(key), want);
    for (const [i, event] of events.entries()) {
      assert.deepEqual(await all(await client.replayDay(dayOf(day), { symbols: [a, b], cursor: event.cursor })), want.slice(i + 1));
    }
    assert.deepEqual(await all(await client.replayDay(ist(day, "15:00"), { kinds: ["nifty"] })), ["N 09:15", "N 10:00"]);
    const clocked = await client.backtestClock(ist(day, "10:00")).replayDay(dayOf(day), { symbols: [a, b] });
    assert.deepEqual(await all(clocked), want.slice(0, 4));
    assert.deepEqual(await all(await client.replayDay(dayOf("1990-01-01"))), [], "a day without records");
  });

  it("a bad token, parameter or clock is an MdcError", async () => {
    const stranger = new MdcClient({ baseUrl: stack.baseUrl, token: "mdc_" + "x".repeat(43) });
    let error = await rejection(stranger.watchNifty());
    assert.deepEqual([error.httpStatus, error.code], [401, "UNAUTHENTICATED"]);
    error = await rejection(client.watchQuotes(["NOT A SYMBOL"]));
    assert.equal(error.httpStatus, 400);
    assert.ok(error.fieldViolations.some((v) => v.field.startsWith("symbols")), JSON.stringify(error.fieldViolations));
    error = await rejection(client.replayDay(dayOf("2024-01-02"), { cursor: "not-a-cursor" }));
    assert.deepEqual([error.httpStatus, Object.keys(error.fields)], [400, ["cursor"]]);
    error = await rejection(client.backtestClock(ist("2024-01-02", "10:00")).watchNifty());
    assert.deepEqual([error.httpStatus, error.code], [412, "FAILED_PRECONDITION"]);
  });
});
