/**
 * Live mode: the chart and the shortlist follow writes made during the
 * test through the watch streams, without a reload: the chart's last bar
 * grows by the server's candle rules (checked against the API's candles
 * afterwards), the day's quotes gain the new rows, a new snapshot is shown.
 */
import type { QuoteData } from "@mdc/client";
import { SECOND_DAY, minuteOf, priceAt } from "./seed";
import { expect, legend, readmeShot, shown, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const quote = (price: number, volume: number) => ({ status: "SUCCESS", payload: { last_price: price, volume } }) as QuoteData;

test("the chart follows new quotes as they are written", async ({ page, world }) => {
  await signIn(page, world.devToken, "/chart?symbol=RELIANCE&date=2025-01-02");
  const before = await page.evaluate(() => performance.getEntriesByType("navigation").length);
  await page.getByTestId("live-toggle").click();
  // Live opens on the latest trading day with data.
  await expect(page).toHaveURL(/symbol=RELIANCE&date=2025-01-03&live=1$/);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("timeline-table").locator("tbody tr")).toHaveCount(60);

  // A collector writes minute 60 (10:15 IST): a new 5-minute bar.
  const first = priceAt("RELIANCE", 59) + 4;
  const seededVolume = 50_000 * 60 + (59 % 7) * 3_000; // the cumulative volume at 10:14
  await world.dev.saveQuotes(minuteOf(SECOND_DAY, 60), { RELIANCE: quote(first, seededVolume + 7_000) });
  await expect(page.getByTestId("chart-legend")).toContainText("2025-01-03 10:15 IST");
  expect(await legend(page)).toMatchObject({ open: shown(first), high: shown(first), low: shown(first), close: shown(first), volume: "7,000" });
  await expect(page.getByTestId("timeline-table").locator("tbody tr")).toHaveCount(61);
  await expect(page.getByTestId("live-status")).toContainText("last update");

  // Then a higher price in the same bucket: the bar grows in place.
  await world.dev.saveQuotes(minuteOf(SECOND_DAY, 61), { RELIANCE: quote(first + 2.5, seededVolume + 10_000) });
  await expect.poll(async () => (await legend(page))["high"]).toBe(shown(first + 2.5));
  const api = await world.dev.api.GET("/v1/dashboard/candles", { params: { query: { symbol: "RELIANCE", date: SECOND_DAY, interval: "5minute" } } });
  const last = api.data!.candles!.at(-1)!;
  expect(await legend(page)).toMatchObject({
    time: "2025-01-03 10:15 IST", open: shown(last.open!), high: shown(last.high!), low: shown(last.low!), close: shown(last.close!),
    volume: last.volume!.toLocaleString("en-IN"),
  });
  expect(last.volume).toBe(10_000);
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /^RELIANCE on 2025-01-03, 13 candles of 5 min/);
  // No page load happened.
  expect(await page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(before);
  await readmeShot(page, "live");

  // Off again: the watch closes.
  await page.getByTestId("live-toggle").click();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "off");
  await expect(page).not.toHaveURL(/live=1/);
});

test("the shortlist shows a new snapshot as it is written", async ({ page, world }) => {
  await signIn(page, world.devToken, "/shortlist?live=1");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("snapshot-now")).toHaveText("10:10:00 (11 of 11)");
  await world.dev.saveShortlist(minuteOf(SECOND_DAY, 60), "TOP_GAINERS", [
    { nseSymbol: "RELIANCE", name: "Reliance Industries", price: priceAt("RELIANCE", 60) },
    { nseSymbol: "ITC", name: "ITC", price: priceAt("ITC", 60) },
  ]);
  await expect(page.getByTestId("snapshot-now")).toHaveText("10:15:00 (12 of 12)");
  await expect(page.getByTestId("snapshot-note")).toContainText("Snapshot of 2025-01-03 10:15:00 IST");
  await expect(page.getByTestId("shortlist-table").locator("tbody tr")).toHaveCount(2);
  // Only the chosen list's times are offered: the volume shockers have 3 that day.
  await page.getByTestId("live-toggle").click();
  await page.getByLabel("List").selectOption("VOLUME_SHOCKERS");
  await expect(page.getByTestId("snapshot-now")).toHaveText("10:00:00 (3 of 3)");
  await page.getByRole("button", { name: "◀ Previous" }).click();
  await expect(page.getByTestId("snapshot-now")).toHaveText("09:45:00 (2 of 3)");
});
