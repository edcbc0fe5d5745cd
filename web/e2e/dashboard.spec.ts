/**
 * A developer's day with the dashboard, in a real browser against the real
 * gateway, server and database: sign in, create a run, see the outcomes of
 * the orders a strategy added through the API, the chart, the shortlist and
 * the companies of the day. Each test leaves screenshots of its pages.
 */
import { type Page } from "@playwright/test";
import { DAY, orderAt, priceAt } from "./seed";
import { collect, expect, nextFrames, screenshots, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const RUN_NAME = "Momentum, 2 Jan";
let runId = "";

/** Rows of a table (by its data-testid) as arrays of cell texts. */
async function rows(page: Page, testId: string): Promise<string[][]> {
  return page.getByTestId(testId).locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())));
}

/** The number shown under a label of a totals panel. */
function total(page: Page, label: string) {
  return page.getByTestId("order-totals").locator("div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd");
}

test("signs in with a developer token kept for this tab only", async ({ page, world, consoleErrors }) => {
  await page.goto("/runs?tag=none");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fruns%3Ftag%3Dnone$/);
  await screenshots(page, "sign-in");

  consoleErrors.allow(/status of 401/); // the wrong token below
  await page.getByLabel("Developer token").fill("mdc_not-a-token");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("#developer-token-error")).toHaveText("This token is unknown or was revoked. Check it (tokens start with mdc_) and try again.");
  // An error looks like one: the danger colour, not the hint's grey.
  expect(await page.locator("#developer-token-error").evaluate((el) => getComputedStyle(el).color)).toBe("rgb(185, 28, 28)");
  await expect(page.getByLabel("Developer token")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Developer token").fill(world.devToken);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Back where the link pointed, signed in.
  await expect(page).toHaveURL(/\/runs\?tag=none$/);
  await expect(page.getByText("asha")).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("mdc.token"))).toBe(world.devToken);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  expect(await page.context().cookies()).toEqual([]);

  // A reload keeps the tab signed in; another tab is not.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Runs", level: 1 })).toBeVisible();
  const other = await page.context().newPage();
  await other.goto("/runs");
  await expect(other.getByRole("button", { name: "Sign in" })).toBeVisible();
  await other.close();

  // The first page's JavaScript, as the browser received it (gzip), within budget.
  const js = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((r) => r.name.endsWith(".js"))
      .map((r) => ({ name: r.name, encoded: r.encodedBodySize, decoded: r.decodedBodySize })));
  expect(js.length).toBeGreaterThan(0);
  const sent = js.reduce((sum, r) => sum + r.encoded, 0);
  expect(sent).toBeLessThan(300_000);
  for (const r of js) expect(r.encoded, `${r.name} is sent compressed`).toBeLessThan(r.decoded);
  expect(js.some((r) => r.name.includes("ChartPage")), "the chart is loaded only when opened").toBe(false);
});

test("creates a run, with the server's errors next to their fields", async ({ page, world, consoleErrors }) => {
  await signIn(page, world.devToken, "/runs");
  await expect(page.getByText("No runs yet")).toBeVisible();

  consoleErrors.allow(/status of 400/); // a tag the server refuses, on purpose
  const form = page.getByTestId("run-form");
  await form.getByLabel("Name").fill(RUN_NAME);
  await form.getByLabel("Tags").fill("momentum, intraday");
  // Dates are ISO whatever the browser's locale (en-IN here), checked with words for people.
  await form.getByLabel("Start (IST)").fill("2025-02-30 10:00");
  await form.getByLabel("End (IST)").fill("2025-01-02 09:00");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(form.locator("#run-start-error")).toHaveText("February 2025 has 28 days: there is no day 30.");
  await form.getByLabel("Start (IST)").fill("2025-01-02 10:00");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(form.locator("#run-start-error")).toHaveText("The start must not be after the end.");
  await expect(form.getByLabel("Start (IST)")).toHaveAttribute("aria-invalid", "true");
  // The server's own refusals are worded for people too: the field's label, not its API name.
  await form.getByLabel("End (IST)").fill("2025-01-02 15:30:00");
  await form.getByLabel("Tags").fill("momentum, intraday, no!");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(form.locator("#run-tags-error")).toBeVisible();
  expect(await form.locator("#run-tags-error").textContent()).not.toMatch(/tags\[|_datetime|[a-z][A-Z]/);
  await form.getByLabel("Tags").fill("momentum, intraday");
  await form.getByRole("button", { name: "Create run" }).click();
  const table = page.getByTestId("runs-table");
  await expect(table.getByRole("link", { name: RUN_NAME })).toBeVisible();
  await expect(form.locator(".field-error")).toHaveCount(0);
  const [row] = await rows(page, "runs-table");
  expect(row).toEqual([
    "", RUN_NAME, "intradaymomentum", "2025-01-02 10:00", "2025-01-02 15:30", "0", "—", "—", "—", "No",
    expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/), "EditDelete",
  ]);
  // The run is the API's too.
  const [listed] = await collect(world.dev.runs());
  expect(listed).toMatchObject({ name: RUN_NAME, tags: ["intraday", "momentum"] });
  runId = listed!.id!;

  // Tag filter in the URL.
  await page.getByLabel("Filter by tag").selectOption("momentum");
  await expect(page).toHaveURL(/\/runs\?tag=momentum$/);
  await page.reload();
  await expect(page.getByTestId("runs-table").getByRole("link", { name: RUN_NAME })).toBeVisible();
  await screenshots(page, "runs");
});

test("shows the outcomes and totals of orders a strategy added through the API", async ({ page, world }) => {
  expect(runId).not.toBe("");
  // A strategy adds its orders through the API: RELIANCE rises after 10:00
  // (target), TCS falls (stop), INFY only wiggles (open), and a day without
  // quotes has no outcome yet.
  await world.dev.createOrder(runId, ...orderAt("RELIANCE", 30, 1, 1));
  await world.dev.createOrder(runId, ...orderAt("TCS", 30, 1, 1));
  await world.dev.createOrder(runId, ...orderAt("INFY", 30, 2, 2));
  await world.dev.createOrder(runId, ...orderAt("HDFCBANK", 30, 1, 1, "2025-01-06"));
  const fromApi = await collect(world.dev.orders(runId));

  await signIn(page, world.devToken, `/runs/${runId}`);
  await expect(page.getByRole("heading", { name: RUN_NAME })).toBeVisible();
  const table = page.getByTestId("orders-table");
  await expect(table.locator("tbody tr")).toHaveCount(4);
  const shown = await rows(page, "orders-table");
  const bySymbol = Object.fromEntries(shown.map((r) => [r[1], r]));
  expect(bySymbol["RELIANCE"]![5]).toBe("Target hit");
  expect(bySymbol["TCS"]![5]).toBe("Stop hit");
  expect(bySymbol["INFY"]![5]).toBe("Open");
  expect(bySymbol["HDFCBANK"]![5]).toBe("No data");
  // Times in IST; the minutes and prices the API computed.
  expect(bySymbol["RELIANCE"]![0]).toBe("2025-01-02 09:45:00");
  const reliance = fromApi.find((o) => o.nseSymbol === "RELIANCE")!;
  expect(bySymbol["RELIANCE"]![6]).toBe(String(reliance.outcome!.minutesToTarget));
  const tcs = fromApi.find((o) => o.nseSymbol === "TCS")!;
  expect(bySymbol["TCS"]![7]).toBe(String(tcs.outcome!.minutesToStopLoss));
  expect(bySymbol["RELIANCE"]![2]).toBe(priceAt("RELIANCE", 30).toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

  await expect(total(page, "Orders")).toHaveText("4");
  await expect(total(page, "Target hit")).toHaveText("1");
  await expect(total(page, "Stop hit")).toHaveText("1");
  await expect(total(page, "Open")).toHaveText("1");
  await expect(total(page, "No data")).toHaveText("1");
  await expect(total(page, "Hit rate")).toHaveText("50.0%");
  await expect(page.getByText("Start").locator("..").getByText("2025-01-02 10:00:00 IST")).toBeVisible();

  // Sorting is in the URL: a reload or a shared link shows the same order.
  await table.getByRole("button", { name: "Symbol" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?sort=symbol$`));
  await expect(table.locator("th[aria-sort=ascending]")).toHaveText(/Symbol/);
  await expect.poll(async () => (await rows(page, "orders-table")).map((r) => r[1])).toEqual(["HDFCBANK", "INFY", "RELIANCE", "TCS"]);
  await table.getByRole("button", { name: "Symbol" }).click();
  await page.reload();
  await expect.poll(async () => (await rows(page, "orders-table")).map((r) => r[1])).toEqual(["TCS", "RELIANCE", "INFY", "HDFCBANK"]);

  // A target gain percentage replaces each order's own target.
  await page.getByLabel("Target gain %").fill("0.5");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/gain=0.5/);
  const moved = await collect(world.dev.orders(runId, { targetGainPercentage: 0.5 }));
  const infy = moved.find((o) => o.nseSymbol === "INFY")!;
  await expect.poll(async () => (await rows(page, "orders-table")).find((r) => r[1] === "INFY")?.[3])
    .toBe(infy.outcome!.targetPrice!.toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  await page.getByLabel("Target gain %").fill("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).not.toHaveURL(/gain=/);
  await screenshots(page, "run");

  // Rename and tag the run.
  await page.getByRole("button", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: /Edit run/ });
  await dialog.getByLabel("Name").fill("Momentum, 2 Jan (checked)");
  await dialog.getByLabel("Tags").fill("momentum reviewed");
  await dialog.getByLabel("Completed").check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: "Momentum, 2 Jan (checked)" })).toBeVisible();
  const [renamed] = await collect(world.dev.runs());
  expect(renamed).toMatchObject({ name: "Momentum, 2 Jan (checked)", tags: ["momentum", "reviewed"], completed: true });
});

test("draws the candle chart with the run's orders and the quotes beneath", async ({ page, world }) => {
  await signIn(page, world.devToken, `/runs/${runId}`);
  await page.getByTestId("orders-table").getByRole("link", { name: "RELIANCE" }).click();
  await expect(page).toHaveURL(new RegExp(`/chart\\?symbol=RELIANCE&date=${DAY}&run=${runId}&order=\\d+$`));
  const chart = page.getByTestId("candle-chart");
  await expect(chart).toHaveAttribute("aria-label", /RELIANCE on 2025-01-02, 75 candles of 5 min, 2 order markers/);

  // The canvas is drawn: rising (green) and falling (red) candles and the
  // blue entry marker, read from its pixels.
  const colours = () => chart.evaluate((box) => {
    const count = { up: 0, down: 0, marker: 0 };
    for (const canvas of box.querySelectorAll("canvas")) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (r === 0x15 && g === 0x80 && b === 0x3d) count.up++;
        if (r === 0xb9 && g === 0x1c && b === 0x1c) count.down++;
        if (r === 0x25 && g === 0x63 && b === 0xeb) count.marker++;
      }
    }
    return count;
  });
  await expect.poll(async () => (await colours()).up).toBeGreaterThan(100);
  const drawn = await colours();
  expect(drawn.down).toBeGreaterThan(100);
  expect(drawn.marker).toBeGreaterThan(10);

  // The quote timeline of the day beneath: every minute of the session.
  await expect(page.getByTestId("timeline-table").locator("tbody tr")).toHaveCount(375);
  expect((await rows(page, "timeline-table"))[0]![0]).toBe("2025-01-02 09:15:00");

  // The interval is in the URL; zoom and pan from the keyboard.
  await page.getByLabel("Interval").selectOption("15minute");
  await expect(page).toHaveURL(/interval=15minute/);
  await expect(chart).toHaveAttribute("aria-label", /25 candles of 15 min/);
  await page.getByRole("button", { name: "Zoom in" }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Pan left" }).click();
  await page.getByRole("button", { name: "Fit" }).click();
  await page.getByLabel("Interval").selectOption("5minute");
  await expect.poll(async () => (await colours()).up).toBeGreaterThan(100);
  await nextFrames(page);
  await screenshots(page, "chart");

  // Another day without quotes says so.
  await page.getByLabel("Date (IST)").fill("2025-01-06");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("Nothing is stored for 2025-01-06.")).toBeVisible();
});

test("shows the shortlist at a chosen snapshot with each entry's outcome", async ({ page, world, consoleErrors }) => {
  await signIn(page, world.devToken, "/shortlist");
  // It opens on the latest snapshot of the latest day.
  await expect(page.getByTestId("snapshot-now")).toHaveText("10:10:00 (11 of 11)");
  await page.getByLabel("Date (IST)").selectOption(DAY);
  await expect(page.getByTestId("snapshot-now")).toHaveText("15:25:00 (74 of 74)");
  await page.getByLabel("Go to time").fill("10:32");
  await page.getByRole("button", { name: "Go", exact: true }).click();
  await expect(page).toHaveURL(/at=2025-01-02T10%3A30%3A00/);
  await expect(page.getByTestId("snapshot-now")).toHaveText("10:30:00 (15 of 74)");
  await expect(page.getByTestId("shortlist-table").locator("tbody tr")).toHaveCount(5);
  await page.getByLabel("Take profit %").fill("1");
  await page.getByLabel("Stop loss %").fill("0.5");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/tp=1&sl=0.5/);
  await expect(page.getByTestId("shortlist-table").locator("thead")).toContainText("Outcome");

  // The same outcomes as the API's.
  const answer = await world.dev.api.GET("/v1/dashboard/shortlists", {
    params: { query: { datetime: "2025-01-02T10:30:00", timezone: "Asia/Kolkata", type: "TOP_GAINERS", takeProfitPercentage: 1, stopLossPercentage: 0.5 } },
  });
  const expected = (answer.data!.entries ?? []).map((e) => [e.nseSymbol,
    e.outcome?.targetAchieved ? "Target hit" : e.outcome?.stopLossHit ? "Stop hit" : e.outcome?.targetAchieved === false ? "Open" : "No data"]);
  await expect.poll(async () => (await rows(page, "shortlist-table")).map((r) => [r[1], r[7]])).toEqual(expected);
  expect(expected.some(([, o]) => o === "Target hit")).toBe(true);
  await screenshots(page, "shortlist");

  // A reload shows the same view; a server error lands next to its field.
  await page.reload();
  await expect(page.getByTestId("shortlist-table").locator("tbody tr")).toHaveCount(5);
  consoleErrors.allow(/status of 400/);
  await page.goto("/shortlist?at=2025-01-02T10%3A30%3A00&tp=1");
  await expect(page.locator("#sl-sl-error")).toBeVisible();
  expect(await page.locator("#sl-sl-error").textContent()).not.toMatch(/Percentage|_/);
});

test("lists the day's persistent and unique companies", async ({ page, world }) => {
  await signIn(page, world.devToken, `/companies?date=${DAY}&type=TOP_GAINERS`);
  const persistent = await world.dev.api.GET("/v1/dashboard/daily-persistent-companies", { params: { query: { date: DAY, type: "TOP_GAINERS" } } });
  const unique = await world.dev.api.GET("/v1/dashboard/daily-unique-companies", { params: { query: { date: DAY, type: "TOP_GAINERS" } } });
  const companies = persistent.data!.companies ?? [];
  expect(companies.length).toBeGreaterThan(0);
  await expect(page.getByTestId("persistent-TOP_GAINERS").locator("tbody tr")).toHaveCount(companies.length);
  await expect.poll(async () => (await rows(page, "persistent-TOP_GAINERS")).map((r) => r[0])).toEqual(companies.map((c) => c.nseSymbol));
  await expect(page.getByTestId("unique-companies").locator("li")).toHaveText(unique.data!.symbols ?? []);

  await screenshots(page, "companies");

  // A stricter threshold, kept in the URL.
  await page.getByLabel("Persistent at %").fill("100");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/min=100/);
  await page.getByLabel("List").selectOption("");
  await expect(page.getByText("Top gainers: none of 74 snapshots had a company 100% of the time.")).toBeVisible();
  await expect(page.getByText(/^Volume shockers: none of \d+ snapshots/)).toBeVisible();
});

test("works from the keyboard and keeps admin pages from developers", async ({ page, world }) => {
  await signIn(page, world.devToken, "/runs");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "mdc" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Chart" })).toBeFocused();
  await page.keyboard.press("Enter");
  // The chart opens on the latest trading day with data.
  await expect(page).toHaveURL(/\/chart\?date=2025-01-03$/);
  await expect(page.getByText("Choose a symbol to see its candles of 2025-01-03")).toBeVisible();

  // The delete dialog opens and closes from the keyboard.
  await page.goto("/runs");
  await page.getByRole("button", { name: /^Delete run/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // No admin links, and the admin pages say why.
  await expect(page.getByRole("link", { name: "Developers" })).toHaveCount(0);
  await page.goto("/admin/developers");
  await expect(page.getByText("This page is for admins only.")).toBeVisible();
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("deletes a run after confirmation", async ({ page, world }) => {
  await signIn(page, world.devToken, "/runs");
  await page.getByRole("button", { name: /^Delete run/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("its 4 orders are deleted");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("runs-table").locator("tbody tr")).toHaveCount(1);
  await page.getByRole("button", { name: /^Delete run/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete run" }).click();
  await expect(page.getByText("No runs yet")).toBeVisible();
  expect(await collect(world.dev.runs())).toEqual([]);
});
