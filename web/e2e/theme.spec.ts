/**
 * Dark mode (the system's setting, or the header's switch, remembered) and
 * the keyboard: the help overlay (`?`), `/` for the page's search, `g` then
 * a letter for a page, `t` for the theme.
 */
import { DAY, SECOND_DAY } from "./seed";
import { expect, readmeShot, screenshots, signIn, test } from "./fixtures";

const background = (page: import("@playwright/test").Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT = "rgb(243, 244, 246)";
const DARK = "rgb(11, 17, 32)";
/** The chart's background, light and dark (CandleChart.tsx), as RGBA. */
const DARK_CHART = [17, 24, 39, 255];
const LIGHT_CHART = [255, 255, 255, 255];

/** The colour of a pixel of the chart's price pane away from its grid lines. */
async function chartPixel(page: import("@playwright/test").Page): Promise<number[]> {
  return page.getByTestId("candle-chart").locator("canvas").first().evaluate((c: HTMLCanvasElement) =>
    Array.from(c.getContext("2d")!.getImageData(3, 3, 1, 1).data));
}

test("follows the system's dark setting, and the switch overrides it", async ({ page, world }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, world.devToken, `/chart?symbol=TCS&date=${DAY}&ind=sma,bb`);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK);
  // The chart's own canvas is dark too: its top-left pixel.
  await expect(page.getByTestId("candle-chart")).toBeVisible();
  await expect.poll(() => chartPixel(page)).toEqual(DARK_CHART);
  await page.mouse.move(0, 0); // no crosshair in the picture
  await readmeShot(page, "dark");
  await screenshots(page, "chart-dark");

  // The system turns light: the page follows.
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await background(page)).toBe(LIGHT);
  await expect.poll(() => chartPixel(page)).toEqual(LIGHT_CHART);
  // Chosen dark: it stays dark whatever the system says, after a reload too.
  await page.getByTestId("theme-switch").selectOption("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK);
  await expect(page.getByTestId("theme-switch")).toHaveValue("dark");
  // `t` switches; back to the system's setting with the switch.
  await page.locator("h1").click();
  await page.keyboard.press("t");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.getByTestId("theme-switch").selectOption("system");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
});

test("keyboard: the help overlay, search, going to pages", async ({ page, world }) => {
  await signIn(page, world.devToken, `/chart?symbol=TCS&date=${SECOND_DAY}`);
  await expect(page.getByTestId("candle-chart")).toBeVisible();
  await page.keyboard.press("?");
  const help = page.getByTestId("help");
  await expect(help).toBeVisible();
  await expect(help.getByRole("heading", { name: "Keyboard shortcuts" })).toBeVisible();
  for (const keys of ["?", "/", "g then w", "t", "← →", "+ −", "[ ]", "l", "f"]) {
    await expect(help.locator("kbd", { hasText: keys }).first()).toBeVisible();
  }
  await screenshots(page, "help");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  await page.keyboard.press("/");
  await expect(page.getByRole("combobox", { name: "Symbol" })).toBeFocused();
  // Typed into the field, "g w" is text, not a page.
  await page.keyboard.type("gw");
  await expect(page.getByRole("combobox", { name: "Symbol" })).toHaveValue("gw");
  await page.locator("h1").click();
  await page.keyboard.press("g");
  await page.keyboard.press("w");
  await expect(page).toHaveURL(/\/watchlist$/);
  await expect(page.getByRole("heading", { name: "Watchlist" })).toBeVisible();
  await page.keyboard.press("/");
  await expect(page.getByRole("combobox", { name: "Add a symbol" })).toBeFocused();
  await page.locator("h1").click();
  await page.keyboard.press("g");
  await page.keyboard.press("v");
  await expect(page).toHaveURL(/\/coverage/);
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await expect(page).toHaveURL(/\/chart/);
});
