/**
 * The chart as a user finds their way around it: symbol search with
 * suggestions (any case), bad input explained, trading-day steps, the
 * interval, the OHLCV legend under the crosshair against the API's candles,
 * an order's entry, target and stop as lines, and NIFTY 50 as a symbol and
 * as an overlay, with candle values checked against the seeded prices.
 */
import type { Page } from "@playwright/test";
import { DAY, SECOND_DAY, minuteOf, niftyAt, orderAt, priceAt } from "./seed";
import { expect, legend, nextFrames, otherDeveloper, readmeShot, screenshots, shown, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

/** Moves the pointer over the chart's price pane, `fraction` of the way across. */
async function hover(page: Page, fraction: number): Promise<void> {
  const box = (await page.getByTestId("candle-chart").boundingBox())!;
  await page.mouse.move(box.x + box.width * fraction, box.y + box.height * 0.3);
  await expect(page.getByTestId("chart-legend")).not.toContainText("last bar");
}

/** The legend's time "2025-01-03 09:45 IST" as an instant. */
function legendInstant(text: string): string {
  return new Date(`${text.replace(" IST", "").replace(" ", "T")}:00+05:30`).toISOString().replace(".000Z", "Z");
}

test("finds a symbol in any case, explains bad input and steps through trading days", async ({ page, world }) => {
  await signIn(page, world.devToken, "/chart");
  // It opens on the latest trading day with data.
  await expect(page).toHaveURL(/\/chart\?date=2025-01-03$/);
  const symbol = page.getByRole("combobox", { name: "Symbol" });

  // Suggestions of the symbols stored that day, whatever the case typed.
  await symbol.fill("rel");
  await expect(page.getByRole("option", { name: "RELIANCE" })).toBeVisible();
  await symbol.fill("nif");
  await expect(page.getByRole("option", { name: /NIFTY/ })).toContainText("NIFTY 50 index");
  await symbol.fill("reliance");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/symbol=RELIANCE&date=2025-01-03/);
  const chart = page.getByTestId("candle-chart");
  await expect(chart).toHaveAttribute("aria-label", /^RELIANCE on 2025-01-03, 12 candles of 5 min/);

  // From the keyboard: down to the first suggestion, Enter picks it.
  await symbol.fill("hdfc");
  await symbol.press("ArrowDown");
  await symbol.press("Enter");
  await expect(page).toHaveURL(/symbol=HDFCBANK/);

  // Bad input stays where it was typed, and says what is wrong.
  await symbol.fill("FOO BAR");
  await page.getByLabel("Date (IST)").fill("2025-02-30");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page.locator("#chart-symbol-error")).toHaveText("“FOO BAR” is not a symbol: symbols are 1-32 letters, digits and & . _ - (no spaces).");
  await expect(page.locator("#chart-date-error")).toHaveText("February 2025 has 28 days: there is no day 30.");
  await expect(symbol).toHaveValue("FOO BAR");
  await expect(page.getByLabel("Date (IST)")).toHaveValue("2025-02-30");
  await expect(page).toHaveURL(/symbol=HDFCBANK&date=2025-01-03/);
  // A well-formed symbol the day does not have: said, with what it does have.
  await symbol.fill("adanient");
  await page.getByLabel("Date (IST)").fill("2025-01-03");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page.getByText("No quotes of ADANIENT are stored for 2025-01-03.")).toBeVisible();
  await expect(page.getByRole("link", { name: "RELIANCE" })).toBeVisible();
  await page.getByRole("link", { name: "RELIANCE" }).click();

  // Trading days: back to Thursday, forward over the weekend to Monday (nothing stored).
  await page.getByRole("button", { name: "◀ Previous day" }).click();
  await expect(page).toHaveURL(/date=2025-01-02/);
  await expect(chart).toHaveAttribute("aria-label", /^RELIANCE on 2025-01-02, 75 candles of 5 min/);
  await page.getByRole("button", { name: "Next day ▶" }).click();
  await page.getByRole("button", { name: "Next day ▶" }).click();
  await expect(page).toHaveURL(/date=2025-01-06/);
  await expect(page.getByText("Nothing is stored for 2025-01-06.")).toBeVisible();
  await page.getByRole("button", { name: "◀ Previous day" }).click();
  await expect(chart).toHaveAttribute("aria-label", /^RELIANCE on 2025-01-03/);

  // The interval.
  await page.getByLabel("Interval").selectOption("15minute");
  await expect(chart).toHaveAttribute("aria-label", /4 candles of 15 min/);
});

test("shows the API's OHLCV under the crosshair, volume in its own pane, an order's lines", async ({ page, world }) => {
  // A developer of its own: runs are per developer, and the other suites count theirs.
  const charter = await otherDeveloper(world, "kiran");
  const run = await charter.client.createRun(minuteOf(SECOND_DAY, 0), minuteOf(SECOND_DAY, 60), { name: "Lines" });
  const order = await charter.client.createOrder(run.id!, ...orderAt("RELIANCE", 10, 1, 1, SECOND_DAY));
  const dayOrder = await charter.client.createOrder(run.id!, ...orderAt("RELIANCE", 30, 1, 1, DAY)); // reaches its target
  await signIn(page, charter.token, `/chart?symbol=RELIANCE&date=${SECOND_DAY}&interval=1minute&run=${run.id}`);
  const chart = page.getByTestId("candle-chart");
  await expect(chart).toHaveAttribute("aria-label", /60 candles of 1 min, 1 order marker of run/);
  await expect(page.getByTestId("price-lines")).toHaveText(
    ` Lines: Entry ${shown(order.entryPrice!)}, Target ${shown(order.takeProfitPrice!)}, Stop ${shown(order.stopLossPrice!)}.`);
  // Two panes: candles above, volume below (lightweight-charts draws each pane in its own cell).
  await expect.poll(() => chart.locator("table tr td canvas").count()).toBeGreaterThan(3);

  const api = await world.dev.api.GET("/v1/dashboard/candles", { params: { query: { symbol: "RELIANCE", date: SECOND_DAY, interval: "1minute" } } });
  const candles = api.data!.candles!;
  const check = async (values: Record<string, string>) => {
    const candle = candles.find((c) => c.time === legendInstant(values["time"]!));
    expect(candle, `an API candle at ${values["time"]}`).toBeDefined();
    expect(values).toMatchObject({
      open: shown(candle!.open!), high: shown(candle!.high!), low: shown(candle!.low!), close: shown(candle!.close!),
      volume: candle!.volume!.toLocaleString("en-IN"),
    });
  };
  // Without the pointer over the chart: the last bar.
  await page.mouse.move(0, 0);
  await expect(page.getByTestId("chart-legend")).toContainText("last bar");
  const last = await legend(page);
  expect(last["time"]).toBe("2025-01-03 10:14 IST");
  await check(last);
  for (const fraction of [0.2, 0.55]) {
    await hover(page, fraction);
    await check(await legend(page));
  }
  await page.mouse.move(0, 0);

  // The README's chart: a whole day in 5-minute candles, an order's entry, target and stop in view.
  await page.goto(`/chart?symbol=RELIANCE&date=${DAY}&run=${run.id}&order=${dayOrder.id}`);
  await expect(chart).toHaveAttribute("aria-label", /^RELIANCE on 2025-01-02, 75 candles of 5 min, 2 order markers/);
  await page.mouse.move(0, 0);
  await readmeShot(page, "chart");
});

test("charts NIFTY 50 as a symbol with the right candle values, and as an overlay", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?date=${SECOND_DAY}`);
  const symbol = page.getByRole("combobox", { name: "Symbol" });
  await symbol.fill("nifty");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/symbol=NIFTY&date=2025-01-03/);
  const chart = page.getByTestId("candle-chart");
  await expect(chart).toHaveAttribute("aria-label", /^NIFTY 50 on 2025-01-03, 12 candles of 5 min/);
  // The last 5-minute candle, 10:10-10:14, from the seeded prices by hand.
  const prices = [55, 56, 57, 58, 59].map(niftyAt);
  expect(await legend(page)).toMatchObject({
    time: "2025-01-03 10:10 IST", open: shown(prices[0]!), high: shown(Math.max(...prices)), low: shown(Math.min(...prices)), close: shown(prices[4]!),
  });
  await expect(page.getByTestId("timeline-table").locator("tbody tr")).toHaveCount(60);
  await screenshots(page, "chart-nifty");

  // NIFTY over a stock on a percent scale: the legend gives both, and both changes since the first bar.
  await symbol.fill("TCS");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await page.getByLabel("NIFTY 50 overlay (percent scale)").check();
  await expect(page).toHaveURL(/nifty=1/);
  await expect(chart).toHaveAttribute("aria-label", /NIFTY 50 overlaid/);
  const values = await legend(page);
  expect(values["overlay"]).toBe(shown(niftyAt(59)));
  const niftyChange = ((niftyAt(59) - niftyAt(0)) / niftyAt(0)) * 100;
  expect(values["overlay-change"]).toBe(`+${niftyChange.toFixed(2)}%`);
  const tcsChange = ((priceAt("TCS", 59) - priceAt("TCS", 0)) / priceAt("TCS", 0)) * 100;
  expect(values["change"]).toBe(`${tcsChange < 0 ? "-" : "+"}${Math.abs(tcsChange).toFixed(2)}%`);
  await nextFrames(page);
});
