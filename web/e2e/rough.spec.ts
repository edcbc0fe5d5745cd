/**
 * The rough edges of issue 38, each checked: a shortlist link with a time
 * of day that does not exist and percentages out of range says so; a chart
 * link with a date that does not exist says so rather than showing another
 * day; coverage paints red exactly the gaps its Gaps column counts; at
 * 390 px the chart starts in the first half of the screen, controls are at
 * least 32 px high and the equity curve's labels are readable; the NIFTY
 * export has the columns docs/api.md names.
 */
import fs from "node:fs";
import path from "node:path";
import { DAY, ITC_GAP, SECOND_DAY, orderAt } from "./seed";
import { downloadCsv, expect, otherDeveloper, screenshots, signIn, test } from "./fixtures";

test("a shortlist link's time and percentages that do not parse are named, not dropped", async ({ page, world }) => {
  await signIn(page, world.devToken, "/shortlist?at=2025-03-10T25:61:00&tp=-5&sl=500");
  const note = page.getByTestId("invalid-params");
  await expect(note).toHaveAttribute("role", "alert");
  await expect(note.locator("li[data-param='at']")).toHaveText(
    "The snapshot time “2025-03-10T25:61:00”: 25:61:00 is not a time of day: hours go to 23, minutes and seconds to 59. The day's latest snapshot is shown instead.");
  await expect(note.locator("li[data-param='tp']")).toContainText("Take profit “-5”: it must be a percentage of 0 or more.");
  await expect(note.locator("li[data-param='sl']")).toContainText("Stop loss “500”: it must be a percentage from 0 to 100.");
  // The latest snapshot is shown, not "as of 25:61:00" over nothing.
  await expect(page.getByTestId("snapshot-now")).toHaveText(/^\d\d:\d\d:00 \((\d+) of \1\)$/);
  await expect(page.getByTestId("shortlist-table").locator("tbody tr").first()).toBeVisible();
  await screenshots(page, "shortlist-bad-link");
});

test("a chart link's date that does not exist is said, and no other day is shown", async ({ page, world }) => {
  await signIn(page, world.devToken, "/chart?symbol=TCS&date=2025-02-30");
  await expect(page.getByTestId("invalid-params").locator("li[data-param='date']")).toHaveText(
    "The date “2025-02-30”: February 2025 has 28 days: there is no day 30. Enter a date above.");
  await expect(page.getByLabel("Date (IST)")).toHaveValue("2025-02-30");
  await page.waitForLoadState("networkidle");
  await expect(page).toHaveURL("/chart?symbol=TCS&date=2025-02-30");
  await expect(page.getByTestId("candle-chart")).toHaveCount(0);
  // Typing a real date shows it.
  await page.getByLabel("Date (IST)").fill(SECOND_DAY);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /^TCS on 2025-01-03/);
  await expect(page.getByTestId("invalid-params")).toHaveCount(0);
});

test("coverage paints red the gaps its Gaps column counts, and no more", async ({ page, world }) => {
  await signIn(page, world.devToken, `/coverage?date=${SECOND_DAY}`);
  for (const table of ["series-coverage", "symbol-coverage"]) {
    const rows = page.getByTestId(table).locator("tbody tr");
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) {
      const gaps = Number(await row.locator("td[data-label='Gaps']").innerText());
      await expect(row.locator("svg.minute-bar rect.missing"), await row.innerText()).toHaveCount(gaps);
    }
  }
  // DAY's shortlists (top gainers every 5 minutes, volume shockers every 15, the whole session) have no
  // gap and no red between their snapshots.
  await page.goto(`/coverage?date=${DAY}`);
  const lists = page.getByTestId("series-coverage").locator("tbody tr", { hasText: /Top gainers|Volume shockers/ });
  await expect(lists).toHaveCount(2);
  for (const row of await lists.all()) {
    await expect(row.locator("td[data-label='Gaps']")).toHaveText("0");
    await expect(row.locator("rect.missing")).toHaveCount(0);
    await expect(row.locator("rect.present")).not.toHaveCount(0);
  }
  await page.goto(`/coverage?date=${SECOND_DAY}`);
  // ITC's hole, 09:35-09:39, red where it is; then the rest of the session after 10:14, not written.
  const itcRow = page.getByTestId("symbol-coverage").locator("tbody tr", { hasText: "ITC" });
  await expect(itcRow.locator("td[data-label='Gaps']")).toHaveText("2");
  const itc = itcRow.locator("rect.missing");
  await expect(itc).toHaveCount(2);
  await expect(itc.first()).toHaveAttribute("x", String(ITC_GAP.first));
  await expect(itc.first()).toHaveAttribute("width", String(ITC_GAP.last - ITC_GAP.first + 1));
  await expect(itc.last()).toHaveAttribute("x", "60");
});

/** Visible controls (buttons, fields, the header's links) under `min` px high: their names. */
async function smallControls(page: import("@playwright/test").Page, min: number): Promise<string[]> {
  return page.locator("button:not(.link), select, input:not([type='checkbox']):not([type='radio']), .top nav a, label.check").evaluateAll((els, min) =>
    els.filter((el) => {
      if (el.closest("thead, dialog:not([open]), [hidden]")) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden" && r.height < min;
    }).map((el) => `${el.tagName} "${(el.textContent || el.getAttribute("aria-label") || el.id).trim()}" ${Math.round(el.getBoundingClientRect().height)} px`), min);
}

test("at 390 px: the chart in the first half of the screen, controls a finger can hit, readable curves", async ({ page, world }) => {
  const phone = await otherDeveloper(world, "dev_rough_phone");
  const run = await phone.client.createRun(new Date(`${DAY}T09:15:00+05:30`), new Date(`${DAY}T15:30:00+05:30`), { name: "Thumb" });
  await phone.client.createOrder(run.id!, ...orderAt("RELIANCE", 30, 1, 1));
  await phone.client.createOrder(run.id!, ...orderAt("TCS", 30, 1, 1));
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, phone.token, `/chart?symbol=INFY&date=${SECOND_DAY}`);
  const chart = page.getByTestId("candle-chart");
  await expect(chart).toBeVisible();
  // The candles' own area, below the legend, starts in the first half of the screen.
  const top = (await chart.boundingBox())!.y;
  expect(top, "the chart's top at 390 px").toBeLessThan(844 / 2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  // The other controls are one tap away.
  await expect(page.getByLabel("Orders of run")).toBeHidden();
  await page.getByRole("button", { name: "More options" }).click();
  await expect(page.getByLabel("Orders of run")).toBeVisible();
  const pages: [string, string][] = [
    [`/chart?symbol=INFY&date=${SECOND_DAY}`, "candle-chart"], ["/watchlist", "watchlist-table"], ["/shortlist", "shortlist-table"],
    [`/coverage?date=${SECOND_DAY}`, "symbol-coverage"], ["/runs", "runs-table"], [`/runs/${run.id}`, "equity-curve"],
  ];
  for (const [path, shown] of pages) {
    await page.goto(path);
    await expect(page.getByTestId(shown)).toBeVisible();
    expect(await smallControls(page, 32), `controls under 32 px on ${path}`).toEqual([]);
  }
  // The equity curve's labels: at least 10 px high at 390 px.
  await page.goto(`/runs/${run.id}`);
  const labels = page.getByTestId("equity-curve").locator("text");
  await expect(labels.first()).toBeVisible();
  const heights = await labels.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
  expect(Math.min(...heights), "the equity curve's smallest label").toBeGreaterThanOrEqual(10);
  await screenshots(page, "run-rough");
});

test("the NIFTY export has the columns docs/api.md names", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?symbol=NIFTY&date=${SECOND_DAY}`);
  const exported = await downloadCsv(page, page.getByTestId("export-day-csv"));
  const [head, ...records] = exported.rows;
  expect(records).toHaveLength(60);
  expect(head!.at(-1)).toBe("index_day_change_perc");
  const docs = fs.readFileSync(path.resolve("../docs/api.md"), "utf8");
  const named = Number(/^\*\*NIFTY\*\* \((\d+) columns\)/m.exec(docs)![1]);
  expect(head).toHaveLength(named);
  expect(named).toBe(34);
});
