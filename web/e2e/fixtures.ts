/**
 * What every browser test shares: one real mdc stack (mdc-server and
 * mdc-gateway on a fresh database, @mdc/client/testing), the seeded market
 * data, a check that the page logged no console error, and screenshots.
 */
import { MdcClient } from "@mdc/client";
import { Stack } from "@mdc/client/testing";
import { type Page, test as base, expect } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { parseCsv } from "../src/csv";
import { seedMarket } from "./seed";

export interface World {
  stack: Stack;
  admin: MdcClient;
  /** A developer whose token the tests sign in with, and its client. */
  devToken: string;
  dev: MdcClient;
}

export const test = base.extend<
  { consoleErrors: { allow: (pattern: RegExp) => void } },
  { world: World }
>({
  world: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
    async ({}, use) => {
      const stack = await Stack.start();
      try {
        const admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
        const created = await admin.createDeveloper("asha", { role: "developer" });
        const dev = new MdcClient({ baseUrl: stack.baseUrl, token: created.token! });
        await seedMarket(dev);
        await use({ stack, admin, devToken: created.token!, dev });
      } finally {
        await stack.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ world }, use) => use(world.stack.baseUrl),
  // Fails the test on any console error or uncaught exception of the page,
  // except those a test announced (a 4xx it provokes on purpose).
  consoleErrors: [
    async ({ page }, use) => {
      const allowed: RegExp[] = [];
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error" && !allowed.some((p) => p.test(msg.text()))) {
          errors.push(`${msg.text()} (${msg.location().url})`);
        }
      });
      page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      await use({ allow: (pattern) => allowed.push(pattern) });
      expect(errors, "console errors of the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Signs in through the sign-in page with token. */
export async function signIn(page: Page, token: string, path = "/"): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "mdc dashboard" })).toBeVisible();
  await page.getByLabel("Developer token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/**
 * Screenshots of the page as it is, 1280 and 390 px wide (full length), into
 * MDC_WEB_SCREENSHOTS; the view is back at 1280 afterwards. Also checks the
 * page does not scroll sideways at 390 px (tables scroll inside their frame).
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  const dir = process.env.MDC_WEB_SCREENSHOTS || "test-results/screenshots";
  fs.mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(dir, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await nextFrames(page); // the chart follows the new width on the next frames
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name}: the page is wider than 390 px`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(dir, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await nextFrames(page);
}

/** Waits until the page has drawn two more frames. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Collects an async iterator (the client's paged lists) into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * A screenshot for the README (docs/images/dashboard/NAME.png): the view at
 * 1280x900 into MDC_WEB_README_SHOTS; run_tests.sh checks that the README's
 * images are exactly the ones the suite makes, and copies them into
 * docs/images/dashboard with MDC_UPDATE_README_IMAGES=1.
 */
export async function readmeShot(page: Page, name: string): Promise<void> {
  const dir = process.env.MDC_WEB_README_SHOTS || "test-results/readme";
  fs.mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await nextFrames(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** Clicks a CSV download button and gives the file's rows (byte order mark dropped), and its name. */
export async function downloadCsv(page: Page, button: ReturnType<Page["getByTestId"]>): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const file = await download.path();
  const text = fs.readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  return { name: download.suggestedFilename(), rows: parseCsv(text) };
}

/** Rows of a table (by its data-testid) as arrays of cell texts. */
export async function tableRows(page: Page, testId: string): Promise<string[][]> {
  return page.getByTestId(testId).locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())));
}

/** The legend's values: field name to text. */
export async function legend(page: Page): Promise<Record<string, string>> {
  return page.getByTestId("chart-legend").locator("[data-field]").evaluateAll((els) =>
    Object.fromEntries(els.map((el) => [el.getAttribute("data-field")!, (el.textContent ?? "").trim()])));
}

/** Moves the pointer across the chart until the legend shows `time`; the legend's values then. */
export async function hoverUntil(page: Page, time: string): Promise<Record<string, string>> {
  const box = (await page.getByTestId("candle-chart").boundingBox())!;
  for (let f = 0.02; f < 0.95; f += 0.01) {
    await page.mouse.move(box.x + box.width * f, box.y + box.height * 0.3);
    await nextFrames(page);
    const values = await legend(page);
    if (values["time"] === time) return values;
  }
  throw new Error(`no bar of ${time} under the pointer`);
}

/** A price as the dashboard shows it (en-IN, two decimals). */
export function shown(n: number): string {
  return n.toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Another developer of the stack (runs are per developer): its token and client, for tests that make runs of their own. */
export async function otherDeveloper(world: World, username: string): Promise<{ token: string; client: MdcClient }> {
  const created = await world.admin.createDeveloper(username, { role: "developer" });
  return { token: created.token!, client: new MdcClient({ baseUrl: world.stack.baseUrl, token: created.token! }) };
}
