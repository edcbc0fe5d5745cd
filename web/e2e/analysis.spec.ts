/**
 * Analysis across runs: the runs list with each run's hit rate, P&L per
 * share and average return (open orders valued at their session's close),
 * the comparison of two runs with their equity curves, and CSV downloads
 * whose rows are the table's.
 */
import { DAY, SECOND_DAY, orderAt, priceAt } from "./seed";
import fs from "node:fs";
import type { MdcClient } from "@mdc/client";
import { formatPercent, formatSignedPrice } from "../src/format";
import { collect, downloadCsv, expect, otherDeveloper, readmeShot, screenshots, shown, signIn, tableRows, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const runIds: string[] = [];
// A developer of its own: runs are per developer, and the other suites count theirs.
let analyst: { token: string; client: MdcClient } | undefined;

/** A table cell or CSV field as a comparable value: numbers without grouping, signs or units; "—" empty. */
function comparable(text: string): string {
  const t = text.replace(/ \(close\)$/, "").trim();
  if (t === "—") return "";
  if (/^[+-]?[\d,]+(\.\d+)?%?$/.test(t)) return String(Number(t.replace(/[,%+]/g, "")));
  return t;
}

test("lists each run's hit rate, P&L per share and average return, open orders valued at the close", async ({ page, world }) => {
  analyst = await otherDeveloper(world, "meena");
  const dev = analyst.client;
  const breakout = await dev.createRun(new Date(`${DAY}T09:15:00+05:30`), new Date(`${DAY}T15:30:00+05:30`), { name: "Breakout" });
  await dev.createOrder(breakout.id!, ...orderAt("RELIANCE", 30, 1, 1)); // target
  await dev.createOrder(breakout.id!, ...orderAt("TCS", 30, 1, 1)); // stop
  await dev.createOrder(breakout.id!, ...orderAt("INFY", 30, 2, 2)); // open: valued at the close
  const fade = await dev.createRun(new Date(`${DAY}T09:15:00+05:30`), new Date(`${DAY}T15:30:00+05:30`), { name: "Fade" });
  await dev.createOrder(fade.id!, ...orderAt("HDFCBANK", 30, 0.3, 1)); // target
  await dev.createOrder(fade.id!, ...orderAt("TCS", 100, 1, 1)); // stop
  runIds.push(breakout.id!, fade.id!);

  // The expected totals, from the API's outcomes and the seeded close of INFY.
  const orders = await collect(dev.orders(breakout.id!));
  const exit = (o: (typeof orders)[number]) =>
    o.outcome?.targetAchieved ? o.outcome.targetPrice! : o.outcome?.stopLossHit ? o.outcome.stopLossPrice! : priceAt("INFY", 374);
  const pnl = orders.reduce((sum, o) => sum + exit(o) - o.entryPrice!, 0);
  const avg = orders.reduce((sum, o) => sum + ((exit(o) - o.entryPrice!) / o.entryPrice!) * 100, 0) / orders.length;

  await signIn(page, analyst!.token, "/runs");
  const row = page.getByTestId("runs-table").locator("tbody tr", { hasText: "Breakout" });
  const cells = row.locator("td");
  await expect(cells.nth(6)).toHaveText("50.0%"); // hit rate
  await expect(cells.nth(7)).toHaveText(formatSignedPrice(pnl));
  await expect(cells.nth(8)).toHaveText(formatPercent(avg));
  await page.getByText("How the totals are counted").click();
  await expect(page.getByText(/^Hit rate: of the orders that reached their target or their stop/)).toBeVisible();
  await screenshots(page, "runs-totals");

  // The run's own page: the same totals, the open order valued at the close, the equity curve.
  await row.getByRole("link", { name: "Breakout" }).click();
  await expect(page.getByTestId("order-totals")).toContainText(`P&L per share${formatSignedPrice(pnl)}`);
  const infy = page.getByTestId("orders-table").locator("tbody tr", { hasText: "INFY" });
  await expect(infy).toContainText(`${shown(priceAt("INFY", 374))} (close)`);
  await expect(page.getByTestId("equity-curve").locator("polyline")).toHaveCount(1);
  await readmeShot(page, "run");
});

test("downloads a table as CSV whose rows are the table's", async ({ page }) => {
  await signIn(page, analyst!.token, `/runs/${runIds[0]}?sort=-symbol`);
  await expect(page.getByTestId("orders-table").locator("tbody tr")).toHaveCount(3);
  const table = await tableRows(page, "orders-table");
  expect(table).toHaveLength(3);
  const { name, rows } = await downloadCsv(page, page.getByTestId("orders-table-csv"));
  expect(name).toBe(`orders-run-${runIds[0]}.csv`);
  const header = await page.getByTestId("orders-table").locator("thead th").allTextContents();
  expect(rows[0]).toEqual(header.map((h) => h.replace(/[▲▼]/g, "").trim()));
  expect(rows[0]![0]).toBe("Time (IST)");
  // Row for row, in the order shown (sorted by symbol, descending), the same values.
  expect(rows.slice(1).map((r) => r.map(comparable))).toEqual(table.map((r) => r.map(comparable)));

  // The quotes of a day, from the chart page.
  await page.goto(`/chart?symbol=RELIANCE&date=${SECOND_DAY}`);
  await expect(page.getByTestId("timeline-table").locator("tbody tr")).toHaveCount(60);
  const quotes = await downloadCsv(page, page.getByTestId("timeline-table-csv"));
  expect(quotes.name).toBe(`quotes-RELIANCE-${SECOND_DAY}.csv`);
  expect(quotes.rows).toHaveLength(61);
  const shownRows = await tableRows(page, "timeline-table");
  expect(quotes.rows.slice(1).map((r) => r.map(comparable))).toEqual(shownRows.map((r) => r.map(comparable)));

  // The day's export (the server's export route, every column): one row per quote of the table, the same
  // instants (UTC in the file, IST in the table) and last prices.
  const exported = await downloadCsv(page, page.getByTestId("export-day-csv"));
  expect(exported.name).toBe(`quotes_RELIANCE_${SECOND_DAY}.csv`);
  const [head, ...records] = exported.rows;
  expect(head!.slice(0, 4)).toEqual(["timestamp", "trading_day", "nse_symbol", "status"]);
  const column = (name: string) => head!.indexOf(name);
  expect(records).toHaveLength(shownRows.length);
  expect(new Set(records.map((r) => r[column("nse_symbol")]))).toEqual(new Set(["RELIANCE"]));
  expect(new Set(records.map((r) => r[column("trading_day")]))).toEqual(new Set([SECOND_DAY]));
  const istMinute = (utc: string) => new Date(new Date(utc).getTime() + 330 * 60_000).toISOString().slice(11, 16);
  const byTime = [...shownRows].sort((a, b) => a[0]!.localeCompare(b[0]!));
  expect(records.map((r) => [istMinute(r[column("timestamp")]!), comparable(r[column("last_price")]!)]))
    .toEqual(byTime.map((r) => [r[0]!.slice(11, 16), comparable(r[1]!)]));
  // And as Parquet: a file with Parquet's magic bytes at both ends (its columns are read back with pyarrow
  // in tests/e2e/export_test.go).
  const [parquet] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-day-parquet").click()]);
  expect(parquet.suggestedFilename()).toBe(`quotes_RELIANCE_${SECOND_DAY}.parquet`);
  const bytes = fs.readFileSync(await parquet.path());
  expect(bytes.subarray(0, 4).toString("latin1")).toBe("PAR1");
  expect(bytes.subarray(bytes.length - 4).toString("latin1")).toBe("PAR1");
});

test("compares two runs: their totals side by side and their equity curves", async ({ page }) => {
  await signIn(page, analyst!.token, "/runs");
  const compare = page.getByRole("button", { name: /^Compare/ });
  await expect(compare).toBeDisabled();
  await page.getByRole("checkbox", { name: "Compare Breakout" }).check();
  await page.getByRole("checkbox", { name: "Compare Fade" }).check();
  await compare.click();
  await expect(page).toHaveURL(new RegExp(`/runs/compare\\?ids=${runIds[0]}%2C${runIds[1]}$`));
  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  const hitRate = page.getByTestId("compare-table").locator("tbody tr", { hasText: "Hit rate" });
  await expect(hitRate.locator("td")).toHaveText(["Hit rate %", "50.0%", "50.0%"]);
  await expect(page.getByTestId("compare-table").locator("tbody tr", { hasText: "Orders" }).locator("td")).toHaveText(["Orders", "3", "2"]);
  await expect(page.getByTestId("equity-curve").locator("polyline")).toHaveCount(2);
  await expect(page.getByTestId("equity-curve")).toContainText("Breakout");
  await expect(page.getByTestId("equity-curve")).toContainText("Fade");
  await readmeShot(page, "compare");
  await screenshots(page, "compare");
});
