/**
 * The chart over ranges and with indicators: daily and weekly candles of
 * several days, intraday candles over several sessions with a break between
 * them, VWAP, SMA, EMA, Bollinger bands and RSI in the legend, each value
 * computed here by hand from the seeded prices (seed.ts) of INFY, which no
 * other test writes; price lines a person adds and removes; the chart's keys.
 */
import type { QuoteData } from "@mdc/client";
import { DAY, SECOND_DAY, minuteOf, priceAt } from "./seed";
import { expect, hoverUntil, legend, readmeShot, screenshots, shown, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

/** INFY's cumulative volume at minute i (seed.ts). */
const cum = (i: number) => 50_000 * (i + 1) + (i % 7) * 3_000;
const p = (i: number) => priceAt("INFY", i);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const count = (n: number) => n.toLocaleString("en-IN");

/** A day's candle of INFY from minute 0 to `last`. */
function dayCandle(last: number) {
  const prices = range(0, last).map(p);
  return { open: p(0), high: Math.max(...prices), low: Math.min(...prices), close: p(last), volume: cum(last) };
}

test("daily and weekly candles over months, intraday over days with a session break", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?symbol=INFY&date=${SECOND_DAY}&interval=1day&range=3m`);
  const chart = page.getByTestId("candle-chart");
  await expect(chart).toHaveAttribute("aria-label", `INFY from 2024-10-04 to ${SECOND_DAY}, 2 candles of 1 day`);
  // The legend's last bar: SECOND_DAY's first hour as one candle.
  const second = dayCandle(59);
  expect(await legend(page)).toMatchObject({
    time: SECOND_DAY, open: shown(second.open), high: shown(second.high), low: shown(second.low), close: shown(second.close), volume: count(second.volume),
  });
  // DAY under the pointer: the whole session.
  const first = dayCandle(374);
  expect(await hoverUntil(page, DAY)).toMatchObject({
    open: shown(first.open), high: shown(first.high), low: shown(first.low), close: shown(first.close), volume: count(first.volume),
  });
  await expect(page.getByTestId("timeline-table")).toHaveCount(0); // no day's quotes under a range
  await expect(page.getByTestId("live-toggle")).toHaveCount(0);
  await screenshots(page, "chart-daily");

  // Weekly: both days are in the ISO week of Monday 2024-12-30.
  await page.getByLabel("Interval").selectOption("1week");
  await expect(page).toHaveURL(/interval=1week/);
  await expect(chart).toHaveAttribute("aria-label", /, 1 candle of 1 week$/);
  expect(await legend(page)).toMatchObject({
    time: "2024-12-30", open: shown(first.open), high: shown(Math.max(first.high, second.high)), low: shown(Math.min(first.low, second.low)),
    close: shown(second.close), volume: count(first.volume + second.volume),
  });

  // Hourly over five trading days: DAY's 7 hours from 09:15 and SECOND_DAY's first, two sessions.
  await page.getByLabel("Interval").selectOption("1hour");
  await page.getByLabel("Range").selectOption("5d");
  await expect(page).toHaveURL(/interval=1hour&range=5d/);
  await expect(chart).toHaveAttribute("aria-label", `INFY from 2024-12-30 to ${SECOND_DAY}, 8 candles of 1 hour over 2 sessions`);
  const api = await world.dev.api.GET("/v1/developer/historical-candles", {
    params: { query: { symbol: "INFY", interval: "1hour", start_datetime: "2024-12-30T00:00:00", end_datetime: "2025-01-04T00:00:00", timezone: "Asia/Kolkata" } },
  });
  expect(api.data!.candles).toHaveLength(8);
  // DAY's last hour, 15:15-15:29 (minutes 360-374), beside the break.
  const last = range(360, 374).map(p);
  expect(await hoverUntil(page, `${DAY} 15:15 IST`)).toMatchObject({
    open: shown(p(360)), high: shown(Math.max(...last)), low: shown(Math.min(...last)), close: shown(p(374)), volume: count(cum(374) - cum(359)),
  });
  await screenshots(page, "chart-days");
});

/** Closes of INFY's 5-minute bars of DAY (75 bars), with their highs, lows and volumes. */
function fiveMinuteBars() {
  return range(0, 74).map((k) => {
    const minutes = range(5 * k, 5 * k + 4);
    const prices = minutes.map(p);
    return { close: p(5 * k + 4), high: Math.max(...prices), low: Math.min(...prices), volume: cum(5 * k + 4) - (k === 0 ? 0 : cum(5 * k - 1)) };
  });
}

/** The indicators at bar k, worked out step by step as their definitions say. */
function indicatorsAt(k: number) {
  const bars = fiveMinuteBars();
  const closes = bars.map((b) => b.close);
  const window = closes.slice(k - 19, k + 1);
  const mean = window.reduce((a, b) => a + b, 0) / 20;
  const sd = Math.sqrt(window.reduce((a, b) => a + (b - mean) ** 2, 0) / 20);
  let ema = closes.slice(0, 20).reduce((a, b) => a + b, 0) / 20;
  for (let i = 20; i <= k; i++) ema = closes[i]! * (2 / 21) + ema * (19 / 21);
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= 14; i++) {
    gain += Math.max(0, closes[i]! - closes[i - 1]!) / 14;
    loss += Math.max(0, closes[i - 1]! - closes[i]!) / 14;
  }
  for (let i = 15; i <= k; i++) {
    gain = (gain * 13 + Math.max(0, closes[i]! - closes[i - 1]!)) / 14;
    loss = (loss * 13 + Math.max(0, closes[i - 1]! - closes[i]!)) / 14;
  }
  let pv = 0;
  let v = 0;
  for (let i = 0; i <= k; i++) {
    pv += ((bars[i]!.high + bars[i]!.low + bars[i]!.close) / 3) * bars[i]!.volume;
    v += bars[i]!.volume;
  }
  return {
    sma: shown(mean), ema: shown(ema), bb: `${shown(mean - 2 * sd)} / ${shown(mean)} / ${shown(mean + 2 * sd)}`,
    rsi: (loss === 0 ? 100 : 100 - 100 / (1 + gain / loss)).toFixed(2), vwap: shown(pv / v),
  };
}

test("indicators in the legend: their values at the last bar and under the crosshair", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?symbol=INFY&date=${DAY}`);
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /, 75 candles of 5 min/);
  for (const name of ["vwap", "sma", "ema", "bb", "rsi"]) await page.getByTestId(`indicator-${name}`).check();
  await expect(page).toHaveURL(/ind=vwap%2Csma%2Cema%2Cbb%2Crsi/);
  expect(await legend(page)).toMatchObject({ time: `${DAY} 15:25 IST`, ...indicatorsAt(74) });
  // A bar under the pointer: 30 bars in, its values.
  const values = await hoverUntil(page, `${DAY} 11:45 IST`);
  expect(values).toMatchObject(indicatorsAt(30));
  await page.mouse.move(0, 0);
  await readmeShot(page, "indicators");
  await screenshots(page, "chart-indicators");
  // Off again, from the legend.
  await page.getByTestId("indicator-rsi").uncheck();
  await expect(page).toHaveURL(/ind=vwap%2Csma%2Cema%2Cbb(&|$)/);
  expect(Object.keys(await legend(page))).not.toContain("rsi");
});

test("price lines a person adds stay for the symbol and go when removed", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?symbol=INFY&date=${DAY}`);
  await page.getByLabel("Line at price").fill("19x");
  await page.getByRole("button", { name: "Add line" }).click();
  await expect(page.getByRole("form", { name: "Price lines" }).getByRole("alert")).toContainText("“19x” is not a price");
  await page.getByLabel("Line at price").fill("1905.5");
  await page.getByRole("button", { name: "Add line" }).click();
  await page.getByLabel("Line at price").fill("1890");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("user-lines").locator("li")).toHaveText(["1,890.00Remove", "1,905.50Remove"]);
  await expect(page.getByTestId("price-lines")).toHaveText("Lines: Line 1,890.00, Line 1,905.50.");
  await page.reload();
  await expect(page.getByTestId("price-lines")).toHaveText("Lines: Line 1,890.00, Line 1,905.50.");
  // Another symbol has its own (none).
  await page.goto(`/chart?symbol=TCS&date=${DAY}`);
  await expect(page.getByTestId("candle-chart")).toBeVisible();
  await expect(page.getByTestId("price-lines")).toHaveCount(0);
  await page.goto(`/chart?symbol=INFY&date=${DAY}`);
  await page.getByRole("button", { name: "Remove the line at 1,890.00" }).click();
  await page.getByRole("button", { name: "Remove the line at 1,905.50" }).click();
  await expect(page.getByTestId("price-lines")).toHaveCount(0);
});

test("the chart's keys: days, intervals, ranges, live", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?symbol=INFY&date=${SECOND_DAY}`);
  await expect(page.getByTestId("candle-chart")).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(new RegExp(`date=${DAY}$`));
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /on 2025-01-02, 75 candles of 5 min/);
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(new RegExp(`date=${SECOND_DAY}$`));
  await page.keyboard.press("+");
  await expect(page).toHaveURL(/interval=10minute/);
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /, 6 candles of 10 min/);
  await page.keyboard.press("-");
  await page.keyboard.press("-");
  await expect(page).toHaveURL(/interval=3minute/);
  await page.keyboard.press("]");
  await expect(page).toHaveURL(/range=5d/);
  await page.keyboard.press("[");
  await expect(page).not.toHaveURL(/range=/);
  await page.keyboard.press("l");
  await expect(page).toHaveURL(/live=1/);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "live");
  await page.keyboard.press("l");
  await expect(page).not.toHaveURL(/live=1/);
  // Keys typed into a field are the field's.
  await page.getByRole("combobox", { name: "Symbol" }).fill("");
  await page.getByRole("combobox", { name: "Symbol" }).press("ArrowLeft");
  await expect(page).toHaveURL(new RegExp(`date=${SECOND_DAY}`));
});

test("the chart views opened last are offered again, from this browser", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?symbol=INFY&date=${SECOND_DAY}&interval=1day&range=3m&ind=sma`);
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /^INFY from /);
  await page.goto(`/chart?symbol=TCS&date=${DAY}`);
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /^TCS on /);
  await page.goto("/chart");
  const recent = page.getByTestId("recent-charts").locator("li");
  await expect(recent).toHaveText(["TCS, 5 min", "INFY, 1 day, 3 months, SMA 20"]);
  await page.reload();
  await expect(recent).toHaveText(["TCS, 5 min", "INFY, 1 day, 3 months, SMA 20"]);
  await recent.nth(1).getByRole("link").click();
  await expect(page).toHaveURL(/symbol=INFY&interval=1day&range=3m&ind=sma&date=2025-01-03$/);
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", `INFY from 2024-10-04 to ${SECOND_DAY}, 2 candles of 1 day`);
  await expect(page.getByTestId("indicator-sma")).toBeChecked();
});

test("in live mode the indicators follow the live bar", async ({ page, world }) => {
  // ICICIBANK's 1-minute bars of SECOND_DAY (60), then quotes written now: a new bar at 10:15, then that bar changed.
  const icici = (i: number) => priceAt("ICICIBANK", i);
  await signIn(page, world.devToken, `/chart?symbol=ICICIBANK&date=${SECOND_DAY}&interval=1minute&ind=sma&live=1`);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "live");
  await page.mouse.move(0, 0); // off the chart: the legend shows the last bar
  await expect(page.getByTestId("chart-legend")).toContainText("last bar");
  const before = range(40, 59).map(icici);
  await expect.poll(async () => (await legend(page))["sma"]).toBe(shown(before.reduce((a, b) => a + b, 0) / 20));
  const write = (at: Date, price: number) =>
    world.dev.saveQuotes(at, { ICICIBANK: { status: "SUCCESS", payload: { last_price: price, volume: cum(59) + 1_000 } } as QuoteData });
  const last19 = range(41, 59).map(icici).reduce((a, b) => a + b, 0);
  await write(minuteOf(SECOND_DAY, 60), icici(59) + 6);
  await expect(page.getByTestId("chart-legend").locator("[data-field='time']")).toHaveText(`${SECOND_DAY} 10:15 IST`);
  await expect.poll(async () => (await legend(page))["sma"]).toBe(shown((last19 + icici(59) + 6) / 20));
  await write(new Date(minuteOf(SECOND_DAY, 60).getTime() + 30_000), icici(59) - 4);
  await expect.poll(async () => (await legend(page))["close"]).toBe(shown(icici(59) - 4));
  expect((await legend(page))["sma"]).toBe(shown((last19 + icici(59) - 4) / 20));
});
