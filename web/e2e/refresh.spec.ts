/**
 * Pages that read again by themselves (the refresh picker, in the URL):
 * coverage shows a collector's new symbol and the runs a new run without a
 * reload; a collector that stops writing for longer than the threshold is
 * an alert on the coverage page, gone once it writes again. The browser's
 * clock is set (Playwright's clock) rather than waited for.
 */
import type { QuoteData } from "@mdc/client";
import { DAY, SECOND_DAY, minuteOf } from "./seed";
import { expect, otherDeveloper, screenshots, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const quote = (price: number) => ({ status: "SUCCESS", payload: { last_price: price, volume: 1_000 } }) as QuoteData;

test("coverage reads again by itself, and a silent collector is an alert", async ({ page, world }) => {
  const carol = await otherDeveloper(world, "carol");
  await signIn(page, world.devToken, `/coverage?date=${SECOND_DAY}`);
  await expect(page.getByTestId("symbol-coverage")).toBeVisible();
  await page.getByTestId("refresh-picker").selectOption("5");
  await expect(page).toHaveURL(/refresh=5/);
  await page.getByLabel("Silent after").selectOption("1");
  await expect(page).toHaveURL(/silent=1/);

  // A new collector writes a symbol nobody had: its row and its collector appear without a reload.
  await carol.client.saveQuotes(minuteOf(SECOND_DAY, 10), { WIPRO: quote(300) });
  const wipro = page.getByTestId("symbol-coverage").locator("tbody tr", { hasText: "WIPRO" });
  await expect(wipro).toHaveCount(1);
  await expect(wipro.locator("td[data-label='Records']")).toHaveText("1");
  await expect(page.getByTestId("writers-table").locator("tbody tr", { hasText: "carol" })).toHaveCount(1);

  // Three minutes after carol's last write (by the browser's clock), with a threshold of one: an alert.
  const lastWrite = async () => {
    const answer = await world.dev.api.GET("/v1/dashboard/coverage", { params: { query: { date: SECOND_DAY } } });
    return new Date(answer.data!.writers!.find((w) => w.username === "carol")!.lastWriteTime!).getTime();
  };
  const first = await lastWrite();
  await page.clock.setFixedTime(first + 3 * 60_000);
  const alert = page.getByTestId("silent-alert");
  await expect(alert.locator("li[data-collector='carol']")).toContainText("carol (quotes): nothing written since");
  await expect(alert.locator("li[data-collector='carol']")).toContainText("3 min ago");
  await expect(alert).toHaveAttribute("role", "alert");
  await screenshots(page, "coverage-alert");

  // carol writes again; ten seconds later by the clock it is no longer silent.
  await carol.client.saveQuotes(minuteOf(SECOND_DAY, 11), { WIPRO: quote(301) });
  // The server merges its tallies of writes about once a second (docs/api.md): wait for this one's.
  await expect.poll(lastWrite).toBeGreaterThan(first);
  const second = await lastWrite();
  await page.clock.setFixedTime(second + 10_000);
  await expect(wipro.locator("td[data-label='Records']")).toHaveText("2");
  await expect(page.locator("li[data-collector='carol']")).toHaveCount(0);
});

test("the runs read again by themselves", async ({ page, world }) => {
  const dev = await otherDeveloper(world, "dev_refresh");
  await signIn(page, dev.token, "/runs?refresh=5");
  await expect(page.getByTestId("refresh-picker")).toHaveValue("5");
  await expect(page.getByText("No runs yet")).toBeVisible();
  await dev.client.createRun(new Date(`${DAY}T09:15:00+05:30`), new Date(`${DAY}T15:30:00+05:30`), { name: "Written elsewhere" });
  await expect(page.getByRole("link", { name: "Written elsewhere" })).toBeVisible();
  await page.getByTestId("refresh-picker").selectOption("0");
  await expect(page).toHaveURL(/\/runs$/);
});
