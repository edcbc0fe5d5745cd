// The collector spool under Node (node/spool.ts) against a real mdc stack: writes mdc cannot take now wait on
// disk, are reported, survive a restart of the collector (a Spool opened again on the same folder) and are
// delivered oldest first once mdc is back; the spool is bounded. "Unavailable" is a gateway address nothing
// listens on; the failover test (tests/e2e, TestFailover) covers the database's loss behind a live gateway.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { Spool } from "../node/spool.js";
import { MdcClient, MdcError } from "../src/index.js";
import { freeAddr, missingEnv, Stack } from "./stack.js";

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}
const AT = new Date("2031-05-06T04:30:00Z");
const LATER = new Date("2031-05-06T04:31:00Z");
const quote = (lastPrice: number) => ({ status: "SUCCESS" as const, payload: { last_price: lastPrice } });

describe("collector spool against a real mdc stack", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let token: string;
  let dir: string;

  before(async () => {
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    token = (await admin.createDeveloper("tsspool-" + randomBytes(4).toString("hex"))).token!;
    dir = await mkdtemp(join(tmpdir(), "mdc-ts-spool-"));
  });

  after(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps writes while mdc is unavailable and delivers them in order after a restart", async () => {
    const symbol = "TSSPOOL" + randomBytes(2).toString("hex").toUpperCase();
    const folder = join(dir, "spool");
    const down = new MdcClient({ baseUrl: `http://${await freeAddr()}`, token, retries: 0 });
    const spool = await Spool.open(down, folder);
    await spool.saveQuotes(AT, { [symbol]: quote(1) });
    await spool.saveQuotes(AT, { [symbol]: quote(2) }); // the same key again: the last one wins
    await spool.saveQuotes(LATER, { [symbol]: quote(3) });
    const held = await spool.state();
    assert.equal(held.writes, 3);
    assert.ok(held.bytes > 0 && held.oldest !== undefined && held.rejected === 0);
    assert.match(held.lastError ?? "", /^UNAVAILABLE/);

    // The collector restarts; mdc is back.
    const up = new MdcClient({ baseUrl: stack.baseUrl, token });
    const restarted = await Spool.open(up, folder);
    assert.equal((await restarted.state()).writes, 3);
    assert.equal(await restarted.flush(), 3);
    assert.deepEqual(await restarted.state(), { writes: 0, bytes: 0, rejected: 0 });
    assert.equal((await up.quote(symbol, { asOf: AT })).quoteData?.payload?.last_price, 2);
    assert.equal((await up.quote(symbol)).quoteData?.payload?.last_price, 3);
  });

  it("is bounded", async () => {
    const down = new MdcClient({ baseUrl: `http://${await freeAddr()}`, token, retries: 0 });
    const spool = await Spool.open(down, join(dir, "bounded"), { maxWrites: 2 });
    await spool.saveQuotes(AT, { TCS: quote(1) });
    await spool.saveQuotes(LATER, { TCS: quote(2) });
    await assert.rejects(spool.saveQuotes(LATER, { INFY: quote(3) }), (e: unknown) => e instanceof MdcError && e.code === "RESOURCE_EXHAUSTED");
    assert.equal((await spool.state()).writes, 2);
  });
});
