/**
 * The chart's corporate-action mode: NSE-layout files imported through the
 * client (an equity list, and corporate actions with a 1:1 bonus, a 1:5
 * split and a Rs 4 dividend), one quote a day of a stock no other test
 * writes, then its daily candles over a month as stored, adjusted for splits
 * and bonuses, and for dividends too, each close and volume computed here by
 * hand, and the actions marked and listed. The days' quotes are deleted at
 * the end (the specs share one stack); the security master and the actions
 * have no delete route and name a symbol no other spec reads.
 */
import { expect, hoverUntil, signIn, shown, test } from "./fixtures";

const SYMBOL = "ADJCO";
const ISIN = "INE000A01038"; // a valid check digit (ISO 6166)
// Tuesday to Friday, before today whatever the machine's date: the actions are known to a read of today.
const [D1, D2, D3, D4] = ["2024-06-04", "2024-06-05", "2024-06-06", "2024-06-07"] as const;
const DAYS = [D1, D2, D3, D4];
// One quote a day: the close and the day's volume as stored.
const STORED = [[1000, 100], [500, 200], [100, 1000], [98, 1000]] as const;
// By hand. Splits and bonuses: before D2 x 1/2, before D3 x 1/5, volumes inversely. Also dividends: x (1 - 4/100)
// before D4, 100 being D3's close.
const SPLIT = [[100, 1000], [100, 1000], [100, 1000], [98, 1000]] as const;
const ALL = [[96, 1000], [96, 1000], [96, 1000], [98, 1000]] as const;

const count = (n: number) => n.toLocaleString("en-IN");

test("daily candles as stored and adjusted, with the corporate actions marked", async ({ page, world, consoleErrors }) => {
  const listed = await world.admin.importInstruments("equity_list",
    "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE\n" +
    `${SYMBOL},Adjusted Company Limited,EQ,06-OCT-2008,10,1,${ISIN},10\n`);
  expect(listed.rejected ?? []).toEqual([]);
  const actions = await world.admin.importCorporateActions("SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE\n" +
    `${SYMBOL},Adjusted Company Limited,EQ,Bonus 1:1,10,05-Jun-2024\n` +
    `${SYMBOL},Adjusted Company Limited,EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,10,06-Jun-2024\n` +
    `${SYMBOL},Adjusted Company Limited,EQ,Interim Dividend - Rs 4 Per Share,2,07-Jun-2024\n`);
  expect([actions.imported + actions.unchanged, actions.rejected ?? []]).toEqual([3, []]);
  try {
    for (const [i, day] of DAYS.entries()) {
      await world.dev.saveQuotes(new Date(`${day}T10:00:00+05:30`), {
        [SYMBOL]: { status: "SUCCESS", payload: { last_price: STORED[i]![0], volume: STORED[i]![1] } },
      });
    }
    await signIn(page, world.devToken, `/chart?symbol=${SYMBOL}&date=${D4}&interval=1day&range=1m`);
    const chart = page.getByTestId("candle-chart");
    await expect(chart).toHaveAttribute("aria-label", `${SYMBOL} from 2024-05-08 to ${D4}, 4 candles of 1 day`);
    // Each day's bar under the pointer: its close and volume in the legend.
    const expectBars = async (rows: readonly (readonly [number, number])[]) => {
      for (const [i, day] of DAYS.entries()) {
        expect(await hoverUntil(page, day), day).toMatchObject({ close: shown(rows[i]![0]), volume: count(rows[i]![1]) });
      }
    };
    await expectBars(STORED);

    await page.getByLabel("Prices").selectOption("split");
    await expect(page).toHaveURL(/adj=split/);
    await expect(chart).toHaveAttribute("aria-label", /, adjusted for splits and bonuses$/);
    await expectBars(SPLIT);

    await page.getByLabel("Prices").selectOption("all");
    await expect(chart).toHaveAttribute("aria-label", /, adjusted for splits, bonuses and dividends$/);
    await expectBars(ALL);

    await page.getByLabel("Mark corporate actions").check();
    await expect(page).toHaveURL(/acts=1/);
    await expect(chart).toHaveAttribute("aria-label", /, 3 corporate actions marked$/);
    const list = page.getByTestId("corporate-actions");
    await expect(list.getByRole("heading")).toHaveText("3 corporate actions");
    await expect(list.getByRole("listitem")).toHaveText([
      `${D2} Bonus 1:1 (earlier prices × 0.5, volumes × 2)`,
      `${D3} Split ₹10.00 → ₹2.00 (earlier prices × 0.2, volumes × 5)`,
      `${D4} Dividend ₹4.00 (earlier prices × 0.96, volumes × 1)`,
    ]);
    // Weekly: the three actions fall in the one week drawn.
    await page.getByLabel("Interval").selectOption("1week");
    await expect(chart).toHaveAttribute("aria-label", /1 candle of 1 week, adjusted for splits, bonuses and dividends, 3 corporate actions marked$/);

    // Back to prices as stored: the markers stay, the adjustment is gone from the URL.
    await page.getByLabel("Prices").selectOption("raw");
    await expect(page).not.toHaveURL(/adj=/);
    await expect(chart).toHaveAttribute("aria-label", /1 candle of 1 week, 3 corporate actions marked$/);

    // A stock the security master does not have: said, nothing marked (its read of actions is a 400 on purpose).
    consoleErrors.allow(/status of 400/);
    await page.goto(`/chart?symbol=INFY&date=2025-01-03&interval=1day&range=1m&acts=1`);
    await expect(page.getByText("INFY is not in the security master")).toBeVisible();
    await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /^INFY from 2024-12-04 to 2025-01-03, /);
  } finally {
    await world.admin.call("DELETE", "/v1/admin/data/dates", { body: { dates: DAYS } });
  }
});
