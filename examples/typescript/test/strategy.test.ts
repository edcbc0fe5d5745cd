// The strategy against a real mdc stack (the client package's test stack):
// loads the sample day through the client, checks the printed buys exactly,
// and checks that no answer the strategy received held data stamped at or
// after the minute it was deciding. Needs MDC_SERVER_BIN, MDC_GATEWAY_BIN and
// MDC_TEST_DATABASE_URL; skipped without them unless MDC_REQUIRE_STACK=1.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { MdcClient } from "@mdc/client";
import { missingEnv, Stack } from "@mdc/client/testing";
import { loadSampleDay, SAMPLE_DAY, sampleInstants } from "../src/sample_day.js";
import { formatBuy, walkDay } from "../src/strategy.js";

const EXPECTED = [
  "09:31 BUY INFY at 1694.55 (day change +2.70%; shortlist of 09:30, quote of 09:30)",
  "09:46 BUY TCS at 3611.52 (day change +2.60%; shortlist of 09:30, quote of 09:45)",
  "10:01 BUY SBIN at 742.32 (day change +3.10%; shortlist of 10:00, quote of 10:00)",
  "11:31 BUY ITC at 421.48 (day change +2.80%; shortlist of 11:30, quote of 11:30)",
  "13:01 BUY HDFCBANK at 1744.08 (day change +3.20%; shortlist of 13:00, quote of 13:00)",
  "5 buys on 2025-03-04",
].join("\n") + "\n";

const DATE_KEYS = new Set(["timestamp", "time", "startTime", "endTime"]);

/** Every instant in an answer body (RFC 3339 strings under DATE_KEYS). */
function instantsIn(value: unknown, key?: string): number[] {
  if (Array.isArray(value)) return value.flatMap((v) => instantsIn(v));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => instantsIn(v, k));
  return typeof value === "string" && key && DATE_KEYS.has(key) ? [Date.parse(value)] : [];
}

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

describe("the backtest strategy example", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let token: string;

  before(async () => {
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    token = (await admin.createDeveloper("tsexample-" + randomBytes(4).toString("hex"))).token!;
    assert.equal(await loadSampleDay(new MdcClient({ baseUrl: stack.baseUrl, token })), sampleInstants().length);
  });

  after(async () => {
    await stack?.stop();
  });

  it("prints the expected buys", async () => {
    const main = fileURLToPath(new URL("../src/main.js", import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [main, SAMPLE_DAY], {
      env: { ...process.env, MDC_URL: stack.baseUrl, MDC_TOKEN: token },
      timeout: 60_000,
    });
    assert.equal(stderr, "");
    assert.equal(stdout, EXPECTED);
  });

  it("never uses data stamped at or after the minute it decides", async () => {
    // Every answer is checked against the clock its request carried.
    let requests = 0;
    let instants = 0;
    const checkingFetch: typeof fetch = async (url, init) => {
      const clock = new Headers(init?.headers).get("X-Current-Timestamp");
      assert.ok(clock, `request without the backtest clock: ${String(url)}`);
      assert.equal(new Headers(init?.headers).get("X-Current-Timezone"), "UTC");
      const response = await fetch(url, init);
      const body: unknown = await response.clone().json().catch(() => undefined);
      const now = Date.parse(clock + "Z");
      for (const t of instantsIn(body)) {
        instants++;
        assert.ok(t < now, `${String(url)} at clock ${clock} answered data of ${new Date(t).toISOString()}`);
      }
      requests++;
      return response;
    };
    const client = new MdcClient({ baseUrl: stack.baseUrl, token, fetch: checkingFetch });
    const buys = await walkDay(client, SAMPLE_DAY);
    assert.ok(requests > 361, `one shortlist read a minute at least (${requests} requests)`);
    assert.ok(instants > 361, `${instants} instants checked`);
    assert.equal(buys.map(formatBuy).join("\n") + `\n${buys.length} buys on ${SAMPLE_DAY}\n`, EXPECTED);
    const data = sampleInstants();
    for (const buy of buys) {
      assert.equal(buy.at.getUTCSeconds(), 0);
      assert.ok(buy.shortlistTime < buy.at && buy.quoteTime < buy.at, formatBuy(buy));
      // The quote used is the latest stored strictly before the minute, and its price is that one.
      const latest = data.filter((d) => d.at < buy.at).at(-1)!;
      assert.equal(buy.quoteTime.getTime(), latest.at.getTime());
      assert.deepEqual([buy.price, buy.dayChangePerc], latest.prices[buy.symbol]);
    }
    // LT tops the list at 15:20:00, the walk's last minute: the clock hides it.
    assert.ok(!buys.some((b) => b.symbol === "LT"));
  });
});
