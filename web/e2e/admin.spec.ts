/**
 * The admin pages in a real browser against the real stack: developers and
 * their tokens (shown once), the holiday calendar, dates with data, the
 * maintenance scripts.
 */
import { MdcClient } from "@mdc/client";
import { seedQuotes } from "./seed";
import { expect, screenshots, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

/** Whether token is accepted by the sign-in operation. */
async function tokenWorks(baseUrl: string, token: string): Promise<boolean> {
  const answer = await new MdcClient({ baseUrl, retries: 0 }).api.POST("/v1/dashboard/auth/sign-in", { body: { developerToken: token } });
  return answer.response.ok;
}

test("creates a developer and shows its token once, with a copy button", async ({ page, world, consoleErrors }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, world.stack.adminToken, "/admin/developers");
  await expect(page.getByRole("link", { name: "Developers" })).toHaveAttribute("aria-current", "page");
  const form = page.getByTestId("developer-form");

  consoleErrors.allow(/status of 400/);
  await form.getByLabel("Username").fill("ravi kumar");
  await form.getByRole("button", { name: "Create developer" }).click();
  await expect(form.locator("#dev-username-error")).toBeVisible();

  await form.getByLabel("Username").fill("ravi");
  await form.getByRole("button", { name: "Create developer" }).click();
  const shown = page.getByTestId("new-token");
  await expect(shown).toContainText("only time the token is shown");
  const token = await shown.getByLabel("Token").inputValue();
  expect(token).toMatch(/^mdc_[A-Za-z0-9_-]{43}$/);
  expect(await tokenWorks(world.stack.baseUrl, token)).toBe(true);
  await expect(page.getByTestId("developers-table")).toContainText("ravi");

  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await screenshots(page, "developers");

  // Once dismissed (or after a reload) the token is nowhere on the page.
  await shown.getByRole("button", { name: /hide the token/ }).click();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await expect(page.getByTestId("developers-table")).toContainText("ravi");
  expect(await page.content()).not.toContain(token);

  // A taken username is refused with the server's words.
  consoleErrors.allow(/status of 409/);
  await form.getByLabel("Username").fill("ravi");
  await form.getByRole("button", { name: "Create developer" }).click();
  await expect(form.getByRole("alert")).toContainText("already taken");

  // A new key: shown once, the old one stops working.
  await page.getByRole("button", { name: "Refresh the key of ravi" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Refresh key" }).click();
  const fresh = await page.getByTestId("new-token").getByLabel("Token").inputValue();
  expect(fresh).not.toBe(token);
  expect(await tokenWorks(world.stack.baseUrl, fresh)).toBe(true);
  expect(await tokenWorks(world.stack.baseUrl, token)).toBe(false);
  await page.getByRole("button", { name: /hide the token/ }).click();

  // Deleting needs the username typed.
  await page.getByRole("button", { name: "Delete ravi" }).click();
  const dialog = page.getByRole("dialog");
  const confirm = dialog.getByRole("button", { name: "Delete developer" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type/).fill("ravi");
  await confirm.click();
  await expect(page.getByTestId("developers-table")).not.toContainText("ravi");
  expect(await tokenWorks(world.stack.baseUrl, fresh)).toBe(false);
});

test("adds and deletes holidays of a year", async ({ page, world, consoleErrors }) => {
  await signIn(page, world.stack.adminToken, "/admin/holidays?year=2025");
  await expect(page.getByText("No holidays in 2025.")).toBeVisible();
  const form = page.getByTestId("holiday-form");
  await form.getByLabel("Date").fill("2025-02-26");
  await form.getByLabel("Name").fill("Mahashivratri");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.getByTestId("holidays-table")).toContainText("Mahashivratri");

  await form.getByLabel("Date").fill("2025-10-21");
  await form.getByLabel("Name").fill("Diwali Laxmi Pujan (Muhurat trading)");
  await form.getByLabel("Session opens (IST)").fill("18:00");
  await form.getByLabel("Session closes (IST)").fill("19:00");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.getByTestId("holidays-table")).toContainText("18:00–19:00");
  const check = await world.dev.api.GET("/v1/developer/collector/check-holiday", { params: { query: { date: "2025-10-21" } } });
  expect(check.data).toMatchObject({ isTradingDay: true });

  consoleErrors.allow(/status of 409/);
  await form.getByLabel("Date").fill("2025-02-26");
  await form.getByLabel("Name").fill("again");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(form.getByRole("alert")).toContainText("2025-02-26");
  await screenshots(page, "holidays");

  await page.getByRole("button", { name: "Delete holiday 2025-02-26" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("holidays-table")).not.toContainText("Mahashivratri");
  await page.getByRole("button", { name: "Year 2024" }).click();
  await expect(page).toHaveURL(/year=2024/);
  await expect(page.getByText("No holidays in 2024.")).toBeVisible();
});

test("deletes the data of a date after the date is typed", async ({ page, world }) => {
  // A day of its own, so the other tests' data stays.
  await seedQuotes(world.dev, "2024-12-31", 10);
  await signIn(page, world.stack.adminToken, "/admin/data");
  const table = page.getByTestId("data-table");
  await expect(table.locator("tbody tr").first()).toContainText("2025-01-03"); // newest first
  const row = table.locator("tbody tr", { hasText: "2024-12-31" });
  await expect(row).toContainText("80"); // 10 minutes of 8 symbols
  await screenshots(page, "data");

  await row.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Delete 1 selected day" }).click();
  const dialog = page.getByRole("dialog");
  const confirm = dialog.getByRole("button", { name: "Delete data" });
  await dialog.getByLabel(/Type/).fill("delete 2024-12-3");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type/).fill("delete 2024-12-31");
  await confirm.click();
  await expect(page.getByTestId("delete-result")).toHaveText("Deleted 0 shortlists, 80 quotes and 0 NIFTY quotes.");
  await expect(table.locator("tbody tr", { hasText: "2024-12-31" })).toHaveCount(0);
  await expect(table.locator("tbody tr", { hasText: "2025-01-02" })).toHaveCount(1);
});

test("imports a file an export wrote, and names a bad file's line", async ({ page, world, consoleErrors }) => {
  // A day of its own: exported, deleted, then imported back through the page.
  const day = "2024-12-27";
  await seedQuotes(world.dev, day, 5);
  const exported = await world.dev.export("quotes", new Date(`${day}T03:45:00Z`), { format: "csv" });
  const file = Buffer.from(await new Response(exported).arrayBuffer());
  await world.admin.call("DELETE", "/v1/admin/data/dates", { body: { dates: [day] } });
  await signIn(page, world.stack.adminToken, "/admin/data");
  const table = page.getByTestId("data-table");
  await expect(table.locator("tbody tr").first()).toBeVisible();
  await expect(table.locator("tbody tr", { hasText: day })).toHaveCount(0);

  const form = page.getByRole("form", { name: "Import a file" });
  await form.getByLabel(/^File/).setInputFiles({ name: `quotes_${day}_${day}.csv`, mimeType: "text/csv", buffer: file });
  await expect(form.getByLabel("Format")).toHaveValue("csv");
  await expect(form.getByLabel("Kind")).toHaveValue("quotes");
  await form.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-result")).toHaveText("Imported 40 records: 40 written, 0 unchanged.");
  await expect(table.locator("tbody tr", { hasText: day })).toContainText("40");
  await screenshots(page, "data-import");

  consoleErrors.allow(/status of 400/);
  await form.getByLabel(/^File/).setInputFiles({ name: "notes.csv", mimeType: "text/csv", buffer: Buffer.from("timestamp\r\n") });
  await form.getByRole("button", { name: "Import" }).click();
  await expect(form.getByRole("alert")).toContainText("line 1: missing column");
  // The day goes again: the other specs share this stack and read INFY's
  // days by range (ranges.spec.ts counts its daily candles).
  await world.admin.call("DELETE", "/v1/admin/data/dates", { body: { dates: [day] } });
});

test("runs a maintenance script, as a dry run first", async ({ page, world, consoleErrors }) => {
  await signIn(page, world.stack.adminToken, "/admin/scripts");
  await expect(page.getByLabel("Dry run (only report what would happen)")).toBeChecked();
  await page.getByRole("button", { name: "Dry run" }).click();
  const result = page.getByTestId("script-result");
  await expect(result.getByRole("heading")).toHaveText(/^analyze \(dry run\): \d+ tables$/);

  consoleErrors.allow(/status of 400/);
  await page.getByLabel(/^purge-before/).check();
  await page.getByRole("button", { name: "Dry run" }).click();
  await expect(page.locator("#script-before-error")).toBeVisible();
  await page.getByLabel("Keep data from (first trading day kept)").fill("2025-01-03");
  await page.getByRole("button", { name: "Dry run" }).click();
  await expect(result.getByRole("heading")).toHaveText(/^purge-before \(dry run\): [1-9]\d* rows$/);
  await screenshots(page, "scripts");
  // A dry run deleted nothing.
  const days = await world.admin.api.GET("/v1/admin/data/available-dates");
  expect((days.data!.dates ?? []).map((d) => d.date)).toContain("2025-01-02");
});

test("ends the session when its token stops working", async ({ page, world, consoleErrors }) => {
  const temp = await world.admin.createDeveloper("meera");
  await signIn(page, temp.token!, "/runs");
  await expect(page.getByText("No runs yet")).toBeVisible();
  await world.admin.api.PATCH("/v1/admin/developers/{id}/refresh-key", { params: { path: { id: temp.id! } } });
  consoleErrors.allow(/status of 401/);
  await page.getByRole("link", { name: "Shortlist" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fshortlist$/);
  expect(await page.evaluate(() => sessionStorage.getItem("mdc.token"))).toBeNull();
});
