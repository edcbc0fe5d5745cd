// src/generated/ is committed (so that a clean copy builds with `npm ci && npm run build` alone); these tests
// regenerate it from the gateway's freshly built OpenAPI document (`scripts/generate.mjs --check`, which
// writes nothing) and fail when any file differs, and show that the check and the generation fail when they
// should. Without the document (no gateway build) they are skipped, unless MDC_REQUIRE_STACK=1 makes that a
// failure.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";

// This file runs as dist/test/generated.test.js.
const pkg = fileURLToPath(new URL("../../", import.meta.url));
const document = path.resolve(pkg, process.env["MDC_OPENAPI"] || "../../gateway/internal/openapi/openapi.json");
const missing = !fs.existsSync(document);
if (missing && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error(`no OpenAPI document at ${document}: build the gateway first`);
}

/** Runs the generator's check against `doc` (a path); its exit status and what it printed. */
function check(doc: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [path.join(pkg, "scripts", "generate.mjs"), "--check"], {
    cwd: pkg,
    env: { ...process.env, MDC_OPENAPI: doc },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("src/generated/", { skip: missing ? `no OpenAPI document at ${document}` : false }, () => {
  const dir = missing ? "" : fs.mkdtempSync(path.join(os.tmpdir(), "mdc-generated-"));
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  /** A copy of the document, changed by `change`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a document of any shape, changed by hand
  function doctored(name: string, change: (doc: any) => void): string {
    const doc = JSON.parse(fs.readFileSync(document, "utf8"));
    change(doc);
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
  }

  it("is what the gateway's OpenAPI document gives (else: npm run generate, and commit)", () => {
    const { status, output } = check(document);
    assert.equal(status, 0, output);
  });

  it("is found stale when an operation's retry rule changes", () => {
    const doc = doctored("flipped.json", (d) => {
      d.paths["/v1/dashboard/runs"].post["x-mdc-idempotent"] = true;
    });
    const { status, output } = check(doc);
    assert.equal(status, 1, output);
    assert.match(output, /src\/generated\/idempotent\.ts differ/);
  });

  it("is found stale when a message changes", () => {
    const doc = doctored("renamed.json", (d) => {
      d.components.schemas.Run.properties.renamedField = { type: "string" };
    });
    const { status, output } = check(doc);
    assert.equal(status, 1, output);
    assert.match(output, /src\/generated\/openapi\.ts differ/);
  });

  it("cannot be made from an operation without x-mdc-idempotent", () => {
    const doc = doctored("unknown.json", (d) => {
      delete d.paths["/v1/dashboard/runs"].post["x-mdc-idempotent"];
    });
    const { status, output } = check(doc);
    assert.equal(status, 1, output);
    assert.match(output, /POST \/v1\/dashboard\/runs \(DashboardService_CreateRun\) has no boolean x-mdc-idempotent/);
  });

  it("cannot be made when a field name of answers is an instant in one schema and not in another", () => {
    const doc = doctored("clash.json", (d) => {
      d.components.schemas.Run.properties.time = { type: "integer" };
    });
    const { status, output } = check(doc);
    assert.equal(status, 1, output);
    assert.match(output, /the field name "time" is an instant in .*Candle\.time.* but not in Run\.time/);
  });
});
