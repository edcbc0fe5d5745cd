// Imports through the real binaries (docs/api.md section 12): a day exported, deleted and imported back
// by importFile (a path, in every format) and by client.import (a Blob, as the dashboard sends a File),
// and a bad file refused with its line.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { MdcClient, MdcError } from "../src/index.js";
import { downloadExport, importFile } from "../node/download.js";
import { missingEnv, Stack } from "./stack.js";

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

const DAY = "2035-11-13";
const START = new Date(`${DAY}T03:45:00Z`); // 09:15 IST

describe("import", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let admin: MdcClient;
  let developer: MdcClient;
  let dir: string;

  before(async () => {
    stack = await Stack.start();
    admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    const token = (await admin.createDeveloper("tsimport-" + randomBytes(4).toString("hex"))).token!;
    developer = new MdcClient({ baseUrl: stack.baseUrl, token });
    stack.sql(`INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
      SELECT 'TSIMP' || g, timestamptz '${DAY} 09:15:00+05:30', date '${DAY}', 101.5, 1000,
             '\\x08011212090000000000605940210000000000408f40'::bytea
      FROM generate_series(1, 4) g`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mdc-tsimport-"));
  });

  after(async () => {
    await stack?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const format of ["parquet", "csv", "ndjson"] as const) {
    it(`reads a day back as it was from its ${format} export`, async () => {
      const file = path.join(dir, `quotes_${DAY}_${DAY}.${format}`);
      await downloadExport(developer, "quotes", START, file, { format });
      stack.sql(`DELETE FROM stock_quotes WHERE trading_day = '${DAY}'`);
      assert.deepEqual(await importFile(admin, file), { records: 4, written: 4, unchanged: 0 });
      const again = path.join(dir, `again.${format}`);
      await downloadExport(developer, "quotes", START, again, { format });
      assert.deepEqual(fs.readFileSync(again), fs.readFileSync(file));
      // A Blob, as a browser's File: the same records change nothing.
      const blob = new Blob([fs.readFileSync(file)]);
      assert.deepEqual(await admin.import("quotes", blob, { format }), { records: 4, written: 0, unchanged: 4 });
    });
  }

  it("refuses a bad file naming its line, and a developer", async () => {
    const bad = new Blob(["timestamp,trading_day\r\n"]);
    await assert.rejects(admin.import("quotes", bad, { format: "csv" }), (error: unknown) => {
      assert.ok(error instanceof MdcError);
      assert.equal(error.code, "INVALID_ARGUMENT");
      assert.match(error.message, /line 1: missing column/);
      return true;
    });
    await assert.rejects(developer.import("quotes", bad, { format: "csv" }), (error: unknown) => {
      assert.ok(error instanceof MdcError);
      assert.equal(error.code, "PERMISSION_DENIED");
      return true;
    });
  });
});
