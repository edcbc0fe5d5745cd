/**
 * The coverage page: for a trading day, which minutes of the session hold
 * data per symbol (the seeded hole of ITC from 09:35 to 09:39 stands out),
 * NIFTY 50 and the shortlists, and when each collector last wrote.
 */
import { ITC_GAP, SECOND_DAY, SYMBOL_NAMES } from "./seed";
import { downloadCsv, expect, readmeShot, screenshots, signIn, tableRows, test } from "./fixtures";

test("shows the minutes with data of a day, its gaps, and each collector's last write", async ({ page, world }) => {
  await signIn(page, world.devToken, "/coverage");
  // The latest trading day with data.
  await expect(page).toHaveURL(/\/coverage\?date=2025-01-03$/);
  await expect(page.getByTestId("coverage-summary")).toContainText(`${SECOND_DAY}: ${SYMBOL_NAMES.length} symbols with quotes`);

  // The collector: asha wrote quotes, NIFTY and shortlists for the day.
  const writers = await tableRows(page, "writers-table");
  const byKind = Object.fromEntries(writers.filter((r) => r[0] === "asha").map((r) => [r[1], r]));
  expect(Object.keys(byKind).sort()).toEqual(["nifty", "quotes", "shortlists"]);
  const quotes = 60 * SYMBOL_NAMES.length - (ITC_GAP.last - ITC_GAP.first + 1);
  expect(byKind["quotes"]![5]).toBe(quotes.toLocaleString("en-IN"));
  expect(byKind["nifty"]![5]).toBe("60");
  expect(byKind["shortlists"]![5]).toBe("14"); // 11 top gainers, 3 volume shockers
  expect(byKind["quotes"]![2]).toMatch(/^(Writing|Silent for .+)$/);
  expect(byKind["quotes"]![3]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(.+ ago\)$/);

  // NIFTY and the lists: 60 minutes of NIFTY, snapshots every 5 minutes.
  const series = Object.fromEntries((await tableRows(page, "series-coverage")).map((r) => [r[0], r]));
  expect(series["NIFTY 50"]![1]).toBe("60");
  expect(series["Top gainers, top 5"]![1]).toBe("11");

  // Symbols, most gaps first: ITC's hole stands out besides the end of the day's data at 10:14.
  const symbols = await tableRows(page, "symbol-coverage");
  expect(symbols).toHaveLength(SYMBOL_NAMES.length);
  expect(symbols[0]!.slice(0, 4)).toEqual(["ITC", "55", "2", "09:35-09:39, 10:15-15:29"]);
  expect(symbols.slice(1).every((r) => r[1] === "60" && r[2] === "1" && r[3] === "10:15-15:29")).toBe(true);
  await expect(page.getByRole("img", { name: "ITC: missing 09:35-09:39, 10:15-15:29" })).toBeVisible();
  await readmeShot(page, "coverage");

  // Its CSV has the same rows (the bars left out).
  const csv = await downloadCsv(page, page.getByTestId("symbol-coverage-csv"));
  expect(csv.name).toBe(`coverage-${SECOND_DAY}.csv`);
  expect(csv.rows[0]).toEqual(["Symbol", "Minutes with data", "Gaps", "Missing (IST)", "Records", "Latest (IST)"]);
  expect(csv.rows[1]!.slice(0, 4)).toEqual(["ITC", "55", "2", "09:35-09:39 10:15-15:29"]);

  // A chosen day; a malformed one is explained.
  await page.getByLabel("Date (IST)").fill("2025-13-01");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page.locator("#cov-date-error")).toHaveText("There is no month 13: months go from 01 to 12.");
  await page.getByRole("button", { name: "◀ Previous day" }).click();
  await expect(page).toHaveURL(/date=2025-01-02/);
  await expect(page.getByTestId("coverage-summary")).toContainText("2025-01-02: 8 symbols with quotes, 0 symbols with gaps");
  await page.getByLabel(/Only symbols with gaps/).check();
  await expect(page).toHaveURL(/gaps=1/);
  await expect(page.getByText("No symbol has a gap.")).toBeVisible();
  await screenshots(page, "coverage");
});
