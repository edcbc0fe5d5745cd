// The README's "## Install", run verbatim from a clean state: this package's sources are copied into a fresh
// checkout-like folder (MDC_CHECKOUT, so that the README's `npm ci` and `npm run build` touch nothing the other
// tests use), and the README's ```sh block runs with bash in a fresh project folder. The project then compiles
// the README's quick start with tsc (the package's own .d.ts, resolved through its "exports") and runs it
// against a real stack; a second fresh project installs the checkout's folder (the link form the README gives)
// and calls the stack through it. npm reads its cache ($npm_config_cache: run_tests.sh's) and the registry for
// openapi-fetch. Skipped without MDC_SERVER_BIN, MDC_GATEWAY_BIN and MDC_TEST_DATABASE_URL, unless
// MDC_REQUIRE_STACK=1 makes that a failure.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { MdcClient } from "../src/index.js";
import { missingEnv, Stack } from "./stack.js";

// This file runs as dist/test/install.test.js.
const pkg = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

/** The first ```<lang> block of the section `heading` of this package's README. */
function block(heading: string, lang: string): string {
  const lines = fs.readFileSync(path.join(pkg, "README.md"), "utf8").split("\n");
  const start = lines.findIndex((l) => l.trimEnd() === heading);
  assert.ok(start >= 0, `README.md: no "${heading}" section`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  const section = lines.slice(start + 1, end < 0 ? undefined : end).join("\n") + "\n";
  const match = new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```", "m").exec(section);
  assert.ok(match, `README.md: no ${lang} block under ${heading}`);
  return match[1]!;
}

/** Runs `file` with `args` in `cwd`; its output, or a failure that shows it. */
async function sh(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env, timeout: 600_000, maxBuffer: 64 << 20 });
    return stdout + stderr;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return assert.fail(`${file} ${args.join(" ")} in ${cwd}: ${String(error)}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** A fresh project folder: a package.json of ES modules, nothing else. */
function freshProject(root: string, name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true, type: "module" }, null, 2));
  return dir;
}

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

describe("the README's install, verbatim, in a fresh project", { skip: missing.length ? "no mdc stack: set " + missing.join(", ") : false }, () => {
  let stack: Stack;
  let token: string;
  let root: string;
  let checkout: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "mdc-ts-install-"));
    // The checkout: what `git clone` gives of clients/typescript, i.e. every
    // file of the package but what the build and the tests make (a fixed
    // list of entries missed one added later: node/).
    checkout = path.join(root, "mdc");
    const copy = path.join(checkout, "clients", "typescript");
    const made = new Set(["node_modules", "dist"]);
    for (const entry of fs.readdirSync(pkg)) {
      if (made.has(entry) || entry.endsWith(".tgz") || entry.startsWith(".readme-test-")) continue;
      fs.cpSync(path.join(pkg, entry), path.join(copy, entry), { recursive: true });
    }
    stack = await Stack.start();
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    token = (await admin.createDeveloper("tsinstall-" + randomBytes(4).toString("hex"))).token!;
  });

  after(async () => {
    await stack?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("packs, installs, type-checks and runs the quick start", async () => {
    const project = freshProject(root, "fresh-tarball");
    const env = { ...process.env, MDC_CHECKOUT: checkout };
    await sh("bash", ["-euo", "pipefail", "-c", block("## Install", "sh")], project, env);
    const installed = JSON.parse(fs.readFileSync(path.join(project, "node_modules", "@mdc", "client", "package.json"), "utf8"));
    assert.equal(installed.name, "@mdc/client");
    assert.ok(!fs.lstatSync(path.join(project, "node_modules", "@mdc", "client")).isSymbolicLink(), "the tarball is a copy, not a link");
    const dependencies = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")).dependencies;
    assert.match(dependencies["@mdc/client"], /mdc-client-0\.1\.0\.tgz$/);
    // The quick start, compiled by tsc against the installed package's types (nodenext: its "exports").
    fs.writeFileSync(path.join(project, "main.ts"), block("## Quick start", "ts"));
    const tsc = path.join(checkout, "clients", "typescript", "node_modules", "typescript", "bin", "tsc");
    const types = path.join(checkout, "clients", "typescript", "node_modules", "@types");
    await sh(process.execPath, [tsc, "--module", "nodenext", "--target", "es2022", "--strict", "--skipLibCheck",
      "--typeRoots", types, "--types", "node", "main.ts"], project, env);
    const out = await sh(process.execPath, ["main.js"], project, { ...env, MDC_URL: stack.baseUrl, MDC_TOKEN: token });
    assert.match(out, /nseSymbol: 'RELIANCE'/, out);
    assert.match(out, /price: 1234\.5/, out);
  });

  it("installs the checkout's folder as a link, the README's other form", async () => {
    const project = freshProject(root, "fresh-link");
    const env = { ...process.env, MDC_CHECKOUT: checkout };
    // The checkout was built by the test above (its node_modules and dist are there).
    await sh("bash", ["-euo", "pipefail", "-c", 'npm install "$MDC_CHECKOUT/clients/typescript"'], project, env);
    assert.ok(fs.lstatSync(path.join(project, "node_modules", "@mdc", "client")).isSymbolicLink());
    fs.writeFileSync(path.join(project, "health.mjs"),
      'import { MdcClient } from "@mdc/client";\n' +
      "const client = new MdcClient({ baseUrl: process.env.MDC_URL });\n" +
      "console.log((await client.health()).status);\n");
    const out = await sh(process.execPath, ["health.mjs"], project, { ...env, MDC_URL: stack.baseUrl });
    assert.equal(out.trim(), "SERVING");
  });
});
