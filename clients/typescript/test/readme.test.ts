// The TypeScript quick starts, run verbatim against a real mdc stack: the ```ts
// block under "## Quick start" in clients/typescript/README.md and the one under
// "## Clients" in the top-level README.md, and the streams example under
// "## Streams" in clients/typescript/README.md. Each is transpiled with TypeScript's
// transpileModule (ES2022 module: top-level await, `import ... from
// "@mdc/client"` kept as written), written as an .mjs file in a temporary folder
// inside this package (so that the self-reference resolves through package.json
// "exports" to dist/src), and run with node in a child process with MDC_URL and
// MDC_TOKEN set. Skipped without MDC_SERVER_BIN, MDC_GATEWAY_BIN and
// MDC_TEST_DATABASE_URL, unless MDC_REQUIRE_STACK=1 makes that a failure.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import ts from "typescript";
import { MdcClient } from "../src/index.js";
import { missingEnv, Stack } from "./stack.js";

// This file runs as dist/test/readme.test.js.
const pkg = fileURLToPath(new URL("../../", import.meta.url));
const root = path.resolve(pkg, "../..");

const quickStarts = [
  { readme: path.join(pkg, "README.md"), heading: "## Quick start" },
  { readme: path.join(root, "README.md"), heading: "## Clients" },
];

/** The text of the section `heading` (up to the next `## ` heading). */
function sectionOf(readme: string, heading: string): string {
  const lines = fs.readFileSync(readme, "utf8").split("\n");
  const start = lines.findIndex((l) => l.trimEnd() === heading);
  assert.ok(start >= 0, `${readme}: no "${heading}" section`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n") + "\n";
}

/** The first ```ts block of the section `heading`. */
function quickStart(readme: string, heading: string): string {
  const section = sectionOf(readme, heading);
  const match = /^```ts\n([\s\S]*?)^```/m.exec(section);
  assert.ok(match, `${readme}: no ts block under ${heading}`);
  return match[1]!;
}

function transpile(source: string, fileName: string): string {
  const out = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  });
  const errors = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  assert.deepEqual(errors, [], `${fileName}: the block does not transpile`);
  return out.outputText;
}

for (const { readme, heading } of quickStarts) {
  it(`${path.relative(root, readme)}: the quick start is at most 12 lines`, () => {
    const lines = quickStart(readme, heading).trim().split("\n");
    assert.ok(lines.length <= 12, `${readme}: the quick start has ${lines.length} lines, at most 12 wanted`);
  });
}

it("clients/typescript/README.md: ## Methods names every method of MdcClient, and no other", () => {
  const section = sectionOf(path.join(pkg, "README.md"), "## Methods");
  const documented = [...section.matchAll(/^- `(\w+)\(/gm)].map((m) => m[1]!);
  const methods = Object.getOwnPropertyNames(MdcClient.prototype).filter((name) => name !== "constructor");
  assert.ok(methods.length > 20, methods.join(", "));
  assert.deepEqual(methods.filter((m) => !documented.includes(m)), [], "methods the README does not list");
  assert.deepEqual(documented.filter((d) => !methods.includes(d)), [], "listed in the README, but no method");
});

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

describe("the README quick starts", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let developerToken: string;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(pkg, ".readme-test-"));
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    const created = await admin.createDeveloper("tsreadme-" + randomBytes(4).toString("hex"));
    developerToken = created.token!;
  });

  after(async () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await stack?.stop();
  });

  for (const { readme, heading } of quickStarts) {
    const name = path.relative(root, readme);
    it(`${name}: the quick start runs as written`, async () => {
      const file = path.join(dir, name.replace(/[^A-Za-z0-9]+/g, "-") + ".mjs");
      fs.writeFileSync(file, transpile(quickStart(readme, heading), readme));
      // test/stack.ts does not expose the server's gRPC address; the ts
      // block does not use it, so it is left out rather than set wrongly.
      const env: NodeJS.ProcessEnv = { ...process.env, MDC_URL: stack.baseUrl, MDC_TOKEN: developerToken };
      delete env["MDC_GRPC_ADDR"];
      let stdout: string;
      try {
        ({ stdout } = await promisify(execFile)(process.execPath, [file], { env, timeout: 60_000 }));
      } catch (error) {
        const e = error as { stdout?: string; stderr?: string };
        assert.fail(`${name}: the quick start failed: ${String(error)}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
      }
      assert.match(stdout, /nseSymbol: 'RELIANCE'/, `${name}: output lacks the saved entry:\n${stdout}`);
      assert.match(stdout, /price: 1234\.5/, `${name}: output lacks the saved price:\n${stdout}`);
      if (quickStart(readme, heading).includes("client.quotes(")) {
        assert.match(stdout, /missing: \[ 'TCS' \]/, `${name}: the cross-section lacks TCS as missing:\n${stdout}`);
        assert.match(stdout, /quotes: \[\s*\{\s*timestamp: [^,]+,\s*nseSymbol: 'RELIANCE'/, `${name}: the cross-section lacks RELIANCE's quote:\n${stdout}`);
      }
    });
  }

  it("clients/typescript/README.md: the streams example runs as written", async () => {
    const readme = path.join(pkg, "README.md");
    const file = path.join(dir, "streams.mjs");
    fs.writeFileSync(file, transpile(quickStart(readme, "## Streams"), readme));
    const env: NodeJS.ProcessEnv = { ...process.env, MDC_URL: stack.baseUrl, MDC_TOKEN: developerToken };
    let stdout: string;
    try {
      ({ stdout } = await promisify(execFile)(process.execPath, [file], { env, timeout: 60_000 }));
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      assert.fail(`the streams example failed: ${String(error)}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
    }
    assert.match(stdout, /^watched TCS 3521$/m, stdout);
    assert.match(stdout, /^replayed TCS 2025-01-02T05:01:00\.000Z$/m, stdout);
  });
});
