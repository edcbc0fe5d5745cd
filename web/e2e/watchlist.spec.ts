/**
 * The watchlist: many symbols and NIFTY 50 at once, each row's last price,
 * change from the previous session's close and volume checked against the
 * seeded prices (seed.ts), a quote written during the test reaching its row
 * live, sorting, the list kept in the browser, a row opening its chart.
 */
import type { QuoteData } from "@mdc/client";
import { SECOND_DAY, type Symbol, minuteOf, niftyAt, priceAt } from "./seed";
import { expect, readmeShot, screenshots, shown, signIn, tableRows, test } from "./fixtures";

const cum = (i: number) => 50_000 * (i + 1) + (i % 7) * 3_000;
const signed = (n: number) => `${n > 0 ? "+" : n < 0 ? "-" : ""}${shown(Math.abs(n))}`;
const percent = (n: number) => `${n > 0 ? "+" : n < 0 ? "-" : ""}${Math.abs(n).toFixed(2)}%`;

/** A row as the table shows it: SECOND_DAY's first hour against DAY's close (minute 374). */
function expected(symbol: Symbol, last = priceAt(symbol, 59), volume = cum(59)) {
  const previous = priceAt(symbol, 374);
  return { last: shown(last), change: signed(last - previous), pct: percent(((last - previous) / previous) * 100), volume: volume.toLocaleString("en-IN") };
}

async function row(page: import("@playwright/test").Page, symbol: string): Promise<Record<string, string>> {
  const tr = page.getByTestId("watchlist-table").locator("tbody tr").filter({ has: page.getByRole("link", { name: symbol, exact: true }) });
  return tr.locator("[data-field]").evaluateAll((els) =>
    Object.fromEntries(els.map((el) => [el.getAttribute("data-field")!, (el.textContent ?? "").trim()])));
}

test("many symbols at once, live, sorted, kept in the browser", async ({ page, world }) => {
  await signIn(page, world.devToken, "/watchlist");
  // A new browser starts with NIFTY 50: only SECOND_DAY has it, so there is no previous close.
  await expect(page.getByTestId("watchlist-note")).toContainText(`Prices of ${SECOND_DAY}`);
  await expect.poll(() => row(page, "NIFTY 50")).toEqual({ last: shown(niftyAt(59)), change: "—", pct: "—", volume: "—" });
  for (const symbol of ["TCS", "INFY", "SBIN"]) {
    await page.getByRole("combobox", { name: "Add a symbol" }).fill(symbol.toLowerCase());
    await page.getByRole("button", { name: "Add", exact: true }).click();
  }
  await expect(page.getByTestId("watchlist-table").locator("tbody tr")).toHaveCount(4);
  for (const symbol of ["TCS", "INFY", "SBIN"] as Symbol[]) await expect.poll(() => row(page, symbol)).toEqual(expected(symbol));
  // The sparkline: the day's 5-minute closes, 12 in the first hour.
  const spark = (symbol: string) => page.getByRole("img", { name: new RegExp(`^${symbol} today`) });
  await expect(spark("INFY")).toHaveAttribute("data-points", "12");

  // A quote written now reaches its row through the watch.
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "live");
  const price = priceAt("SBIN", 59) + 3;
  await world.dev.saveQuotes(minuteOf(SECOND_DAY, 62), { SBIN: { status: "SUCCESS", payload: { last_price: price, volume: cum(59) + 5_000 } } as QuoteData });
  await expect.poll(() => row(page, "SBIN")).toEqual(expected("SBIN", price, cum(59) + 5_000));
  await expect(spark("SBIN")).toHaveAttribute("data-points", "13"); // 10:17 opens the 10:15 bucket
  await expect(page.getByTestId("live-status")).toContainText("last update");

  // Sorted by change %, lowest first, from the numbers above.
  const pct = (s: Symbol, last = priceAt(s, 59)) => (last - priceAt(s, 374)) / priceAt(s, 374);
  const order = (["TCS", "INFY", "SBIN"] as Symbol[]).sort((a, b) => pct(a, a === "SBIN" ? price : undefined) - pct(b, b === "SBIN" ? price : undefined));
  await page.getByRole("button", { name: "Change %" }).click();
  await expect(page).toHaveURL(/\/watchlist\?sort=pct$/);
  const rows = await tableRows(page, "watchlist-table");
  // NIFTY 50 has no change: it sorts last.
  expect(rows.map((r) => r[0])).toEqual([...order, "NIFTY 50"]);
  await readmeShot(page, "watchlist");
  await screenshots(page, "watchlist");

  // A symbol once only.
  await page.getByRole("combobox", { name: "Add a symbol" }).fill("TCS");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText("TCS is already on the list.")).toBeVisible();

  // Kept in this browser: a reload shows the same list.
  await page.reload();
  await expect(page.getByTestId("watchlist-table").locator("tbody tr")).toHaveCount(4);
  await page.getByRole("button", { name: "Remove SBIN" }).click();
  await expect(page.getByTestId("watchlist-table").locator("tbody tr")).toHaveCount(3);
  await page.reload();
  await expect(page.getByTestId("watchlist-table").locator("tbody tr")).toHaveCount(3);

  // A row opens its chart.
  await page.getByRole("link", { name: "INFY", exact: true }).click();
  await expect(page).toHaveURL(`/chart?symbol=INFY&date=${SECOND_DAY}`);
  await expect(page.getByTestId("candle-chart")).toBeVisible();
});
