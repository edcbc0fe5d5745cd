// Measures the time from navigation to a run's orders table fully rendered
// (all ORDERS rows, with outcomes), in headless chromium against the real
// stack. Started by bench/web/run.sh, which sets the environment.
//
// Each navigation opens a fresh browser context (empty cache) on
// /runs/{id}; the page's own clock gives the numbers (performance.now() from
// the navigation's start): when the orders answer arrived and when the table
// held every row. Prints each run, then min / median / max.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [ordersArg, runsArg] = process.argv.slice(2);
const ORDERS = Number(ordersArg ?? 1000);
const RUNS = Number(runsArg ?? 9);
const web = path.resolve(process.env.MDC_WEB_DIR);
// The dashboard's own packages (web/node_modules): the client, its test stack, Playwright.
const load = (p) => import(pathToFileURL(path.join(web, "node_modules", p)).href);
const { MdcClient } = await load("@mdc/client/dist/src/index.js");
const { Stack } = await load("@mdc/client/dist/test/stack.js");
const { chromium } = await load("playwright-core/index.mjs");

const DAY = "2025-01-02";
const SYMBOLS = { RELIANCE: 1240, TCS: 4100, INFY: 1900, HDFCBANK: 1780, ICICIBANK: 1290, SBIN: 800, ITC: 470, LT: 3600 };
const minute = (i) => new Date(Date.parse(`${DAY}T09:15:00+05:30`) + i * 60_000);
const price = (base, i) => Math.round(base * (1 + Math.sin(i / 9 + base) * 0.012 + i * 0.00002) * 20) / 20;

const stack = await Stack.start();
let browser;
try {
  const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
  const dev = await admin.createDeveloper("bench", "developer");
  const client = new MdcClient({ baseUrl: stack.baseUrl, token: dev.token });

  // A session of minute quotes of 8 symbols, so every order has an outcome to compute.
  for (let i = 0; i < 375; i++) {
    await client.saveQuotes(minute(i), Object.fromEntries(Object.entries(SYMBOLS).map(([s, base]) =>
      [s, { status: "SUCCESS", payload: { last_price: price(base, i), volume: 40_000 * (i + 1) } }])));
  }
  // ORDERS orders spread over the session and the symbols, targets and stops of 0.5-1.5%.
  const run = await client.createRun(`bench ${ORDERS} orders`, minute(0), minute(374), { tags: ["bench"] });
  const names = Object.keys(SYMBOLS);
  for (let n = 0; n < ORDERS; n++) {
    const symbol = names[n % names.length];
    const i = (n * 7) % 360;
    const entry = price(SYMBOLS[symbol], i);
    const pct = 0.5 + (n % 3) * 0.5;
    await client.createOrder(run.id, {
      symbol, at: minute(i), entryPrice: entry,
      takeProfitPrice: Math.round(entry * (1 + pct / 100) * 100) / 100,
      stopLossPrice: Math.round(entry * (1 - pct / 100) * 100) / 100,
    });
  }

  browser = await chromium.launch({
    executablePath: process.env.MDC_CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const results = [];
  for (let r = 0; r < RUNS; r++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Signed in already (the token in sessionStorage, as after the sign-in page),
    // and a watcher that notes when the table holds every order.
    await context.addInitScript(({ token, user, orders }) => {
      sessionStorage.setItem("mdc.token", token);
      sessionStorage.setItem("mdc.user", JSON.stringify(user));
      new MutationObserver((_, observer) => {
        const rows = document.querySelectorAll("[data-testid=orders-table] tbody tr").length;
        if (rows === orders) {
          window.__rendered = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    }, { token: dev.token, user: { id: dev.id, username: dev.username, role: dev.role }, orders: ORDERS });
    const page = await context.newPage();
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`${stack.baseUrl}/runs/${run.id}`);
    await page.waitForFunction(() => window.__rendered !== undefined, null, { timeout: 60_000 });
    const m = await page.evaluate(() => {
      const orders = performance.getEntriesByType("resource").find((e) => /\/orders(\?|$)/.test(e.name));
      const paint = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
      return { rendered: window.__rendered, ordersAnswered: orders?.responseEnd, firstPaint: paint?.startTime };
    });
    if (errors.length) throw new Error(`console errors: ${errors.join("; ")}`);
    results.push(m);
    console.log(`run ${r + 1}: first paint ${m.firstPaint?.toFixed(0)} ms, orders answer ${m.ordersAnswered?.toFixed(0)} ms, ` +
      `table with ${ORDERS} rows ${m.rendered.toFixed(0)} ms`);
    await context.close();
  }
  const stat = (key) => {
    const v = results.map((x) => x[key]).filter((x) => typeof x === "number").sort((a, b) => a - b);
    return { min: v[0], median: v[Math.floor(v.length / 2)], max: v[v.length - 1] };
  };
  const fmt = ({ min, median, max }) => `median ${median.toFixed(0)} ms (min ${min.toFixed(0)}, max ${max.toFixed(0)})`;
  console.log(`${RUNS} navigations to a run of ${ORDERS} orders, each in a fresh browser context:`);
  console.log(`  first contentful paint:        ${fmt(stat("firstPaint"))}`);
  console.log(`  orders answer received:        ${fmt(stat("ordersAnswered"))}`);
  console.log(`  orders table fully rendered:   ${fmt(stat("rendered"))}`);
} finally {
  await browser?.close();
  await stack.stop();
}
