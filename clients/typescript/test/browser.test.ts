// The package's main entry in a browser, with no bundler and no alias: Debian's headless chromium (driven by
// playwright-core) loads dist/src/index.js as native ES modules from a page served here, with an import map
// for its one dependency (openapi-fetch's own ESM file), and calls a real mdc stack cross-origin
// (MDC_CORS_ORIGINS names this page's origin): a write, an as-of read, a day replay under the backtest clock,
// an error answer. A Node-only import anywhere in the entry's module graph (node:*, a Node global at load
// time) stops the page from loading it. Needs the stack (MDC_SERVER_BIN, MDC_GATEWAY_BIN,
// MDC_TEST_DATABASE_URL) and chromium (MDC_CHROMIUM, default /usr/bin/chromium); skipped without them,
// unless MDC_REQUIRE_STACK=1 makes that a failure.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { MdcClient } from "../src/index.js";
import { missingEnv, Stack } from "./stack.js";

// This file runs as dist/test/browser.test.js.
const pkg = fileURLToPath(new URL("../../", import.meta.url));
const chromiumPath = process.env["MDC_CHROMIUM"] || "/usr/bin/chromium";
const missing = [...missingEnv(), ...(fs.existsSync(chromiumPath) ? [] : [`MDC_CHROMIUM (no chromium at ${chromiumPath})`])];
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack or browser: set " + missing.join(", "));
}

/** What the page may load: the package's compiled sources and openapi-fetch's ESM build. */
const SERVED: Record<string, string> = {
  "/pkg/": path.join(pkg, "dist", "src") + path.sep,
  "/openapi-fetch/": path.join(pkg, "node_modules", "openapi-fetch", "dist") + path.sep,
};

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>@mdc/client in a browser</title>
<script type="importmap">{"imports": {"openapi-fetch": "/openapi-fetch/index.mjs"}}</script>
<script type="module">
  import * as mdc from "/pkg/index.js";
  window.mdc = mdc;
</script>`;

/** Serves PAGE at / and the files of SERVED. */
function pageServer(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://page");
    if (url.pathname === "/") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(PAGE);
      return;
    }
    const prefix = Object.keys(SERVED).find((p) => url.pathname.startsWith(p));
    const file = prefix && path.resolve(SERVED[prefix]!, "." + url.pathname.slice(prefix.length - 1));
    if (!file || !file.startsWith(SERVED[prefix]!) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const type = /\.m?js$/.test(file) ? "text/javascript" : "application/octet-stream";
    res.writeHead(200, { "Content-Type": type }).end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Every JavaScript file under dir. */
function scripts(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? scripts(path.join(dir, e.name)) : e.name.endsWith(".js") ? [path.join(dir, e.name)] : []);
}

it("the main entry imports nothing of Node's", () => {
  for (const file of scripts(path.join(pkg, "dist", "src"))) {
    const text = fs.readFileSync(file, "utf8");
    assert.doesNotMatch(text, /from\s+["']node:|import\(\s*["']node:|require\(/, `${path.relative(pkg, file)} uses Node`);
  }
});

describe("the main entry in a browser", { skip: missing.length ? "set " + missing.join(", ") : false }, () => {
  let server: http.Server;
  let origin: string;
  let stack: Stack;
  let token: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    server = await pageServer();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stack = await Stack.start({ gatewayEnv: { MDC_CORS_ORIGINS: origin } });
    const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    token = (await admin.createDeveloper("tsbrowser-" + randomBytes(4).toString("hex"))).token!;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      // --no-sandbox: CI runs as root. The others keep chromium off the network.
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    });
    page = await browser.newPage();
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    await page.goto(origin + "/");
    await page.waitForFunction(() => "mdc" in window, undefined, { timeout: 15_000 }).catch((error: unknown) => {
      assert.fail(`the page did not load @mdc/client: ${String(error)}\n${problems.join("\n")}`);
    });
  });

  after(async () => {
    await browser?.close();
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("writes, reads as of an instant, replays a day under the backtest clock, and decodes an error", async () => {
    const result = await page.evaluate(async ([baseUrl, token]) => {
      const { MdcClient, MdcError } = (window as unknown as { mdc: typeof import("../src/index.js") }).mdc;
      const client = new MdcClient({ baseUrl, token });
      const at = new Date("2025-01-02T05:00:00Z");
      await client.saveShortlist(at, "TOP_GAINERS", [{ nseSymbol: "RELIANCE", name: "Reliance", price: 1234.5 }]);
      await client.saveQuotes(new Date("2025-01-02T05:01:00Z"), { TCS: { status: "SUCCESS", payload: { last_price: 3521 } } });
      await client.saveQuotes(new Date("2025-01-02T06:00:00Z"), { TCS: { status: "SUCCESS", payload: { last_price: 3600 } } });
      const list = await client.shortlist("TOP_GAINERS", { asOf: at });
      const replayed: string[] = [];
      const past = client.backtestClock(new Date("2025-01-02T05:30:00Z"));
      for await (const event of await past.replayDay(new Date("2025-01-02"), { kinds: ["quotes"] })) {
        replayed.push(`${event.quote?.nseSymbol} ${event.quote?.timestamp?.toISOString()}`);
      }
      let error: unknown;
      await client.quote("NOSUCHSYMBOL").catch((e: unknown) => { error = e; });
      return {
        symbols: list.entries.map((e) => e.nseSymbol),
        timestampIsDate: list.timestamp instanceof Date,
        timestamp: list.timestamp?.toISOString(),
        replayed,
        error: error instanceof MdcError ? [error.httpStatus, error.code] : String(error),
      };
    }, [stack.baseUrl, token] as const);
    assert.deepEqual(result, {
      symbols: ["RELIANCE"],
      timestampIsDate: true,
      timestamp: "2025-01-02T05:00:00.000Z",
      replayed: ["TCS 2025-01-02T05:01:00.000Z"],
      error: [404, "NOT_FOUND"],
    });
    // The 404 is logged by the browser as a failed resource load; anything else is a problem.
    assert.deepEqual(problems.filter((p) => !/404 \(Not Found\)/.test(p)), []);
  });
});

describe("a page the gateway's CORS does not allow", { skip: missing.length ? "set " + missing.join(", ") : false }, () => {
  let server: http.Server;
  let allowed: string;
  let refused: string;
  let stack: Stack;
  let browser: Browser;

  before(async () => {
    server = await pageServer();
    const port = (server.address() as AddressInfo).port;
    // Two origins of one server: 127.0.0.1 is allowed, localhost is not (another origin to the browser).
    allowed = `http://127.0.0.1:${port}`;
    refused = `http://localhost:${port}`;
    stack = await Stack.start({ gatewayEnv: { MDC_CORS_ORIGINS: allowed } });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    });
  });

  after(async () => {
    await browser?.close();
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("fails as UNAVAILABLE saying which origin MDC_CORS_ORIGINS must allow", async () => {
    const page = await browser.newPage();
    await page.goto(refused + "/");
    await page.waitForFunction(() => "mdc" in window, undefined, { timeout: 15_000 });
    const result = await page.evaluate(async (baseUrl) => {
      const { MdcClient, MdcError } = (window as unknown as { mdc: typeof import("../src/index.js") }).mdc;
      const client = new MdcClient({ baseUrl, retries: 0 });
      const error = await client.health().then(() => undefined, (e: unknown) => e);
      return error instanceof MdcError ? { code: error.code, httpStatus: error.httpStatus ?? null, message: error.message } : String(error);
    }, stack.baseUrl);
    assert.equal(typeof result, "object", String(result));
    const { code, httpStatus, message } = result as { code: string; httpStatus: number | null; message: string };
    assert.equal(code, "UNAVAILABLE");
    assert.equal(httpStatus, null);
    assert.ok(message.includes(`From this page (origin ${refused})`), message);
    assert.ok(message.includes(`MDC_CORS_ORIGINS=${refused}`), message);
    assert.ok(message.includes(new URL(stack.baseUrl).origin), message);
    await page.close();
  });
});
