// A cut download cannot pass as complete (docs/api.md section 11): with mdc-server killed in the middle
// of an export, downloadExport rejects with MdcError and leaves no file, neither under the name asked for
// nor as .part; a whole export is renamed into place. Against the real binaries, as stack.test.ts.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { MdcClient, MdcError } from "../src/index.js";
import { downloadExport } from "../node/download.js";
import { GateProxy } from "./gate-proxy.js";
import { missingEnv, Stack } from "./stack.js";

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

const DAY = "2035-11-06";
const START = new Date(`${DAY}T03:45:00Z`); // 09:15 IST
// More rows than the gateway, the sockets and gRPC's windows can hold, so the export cannot have ended
// when the server is killed.
const ROWS = 200_000;

describe("a cut export download", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let token: string;
  let dir: string;

  before(async () => {
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    token = (await admin.createDeveloper("tscut-" + randomBytes(4).toString("hex"))).token!;
    // QuoteData{status: SUCCESS, payload: {last_price, volume}}, with SQL: far faster than the API.
    stack.sql(`INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
      SELECT 'TSCUT' || (g % 500), timestamptz '${DAY} 09:15:00+05:30' + (g / 500) * interval '1 second',
             date '${DAY}', 101.5, 1000, '\\x08011212090000000000605940210000000000408f40'::bytea
      FROM generate_series(0, ${ROWS - 1}) g`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mdc-tscut-"));
  });

  after(async () => {
    await stack?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("renames a whole download into place", async () => {
    const client = new MdcClient({ baseUrl: stack.baseUrl, token });
    const target = path.join(dir, "whole.csv");
    assert.equal(await downloadExport(client, "quotes", START, target, { format: "csv", symbols: ["TSCUT1"] }), target);
    assert.equal(fs.readFileSync(target, "utf8").trimEnd().split("\r\n").length, 1 + ROWS / 500);
    assert.ok(!fs.existsSync(target + ".part"));
  });

  for (const format of ["csv", "ndjson"] as const) {
    it(`rejects with MdcError and leaves no file when the server dies mid-download (${format})`, async () => {
      const proxy = await GateProxy.start(stack.httpAddr);
      try {
        const client = new MdcClient({ baseUrl: `http://${proxy.addr}`, token, retries: 0 });
        const target = path.join(dir, `cut.${format}`);
        const download = downloadExport(client, "quotes", START, target, { format });
        download.catch(() => {}); // awaited below, after the kill
        await proxy.firstBytes;
        await stack.killServer();
        try {
          proxy.release();
          await assert.rejects(download, (e: unknown) =>
            e instanceof MdcError && e.code === "UNAVAILABLE" && /cut/.test(e.message));
        } finally {
          await stack.startServer();
        }
        assert.ok(!fs.existsSync(target), "a file under the final name");
        assert.ok(!fs.existsSync(target + ".part"), "a part file left");
      } finally {
        await proxy.close();
      }
    });
  }
});
