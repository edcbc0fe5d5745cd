/**
 * Sign-in and session ends, and the phone: a `next` that is not a path of
 * this site is ignored without an error, a session ended by a refreshed
 * token says why, and at phone width tables become cards with every column
 * on screen and no page scrolls sideways.
 */
import { DAY, orderAt } from "./seed";
import { expect, otherDeveloper, screenshots, signIn, test } from "./fixtures";

test("ignores a return path outside the site, backslashes included, without an error", async ({ page, world }) => {
  for (const next of ["%2F%5Cevil.example", "%2F%2Fevil.example", "https%3A%2F%2Fevil.example", "%2F%5C%5Cevil.example%2Fx"]) {
    await page.goto(`/sign-in?next=${next}`);
    await expect(page.getByRole("heading", { name: "mdc dashboard" })).toBeVisible();
  }
  await page.getByLabel("Developer token").fill(world.devToken);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  // The fixture fails the test on any uncaught exception (the SecurityError of replaceState was one).
});

test("says why a session ended when its token was refreshed", async ({ page, world, consoleErrors }) => {
  const temp = await world.admin.createDeveloper("farah");
  await signIn(page, temp.token!, "/runs");
  await world.admin.api.PATCH("/v1/admin/developers/{id}/refresh-key", { params: { path: { id: temp.id! } } });
  consoleErrors.allow(/status of 401/);
  await page.getByRole("link", { name: "Coverage" }).click();
  await expect(page.getByTestId("session-ended")).toHaveText(
    "Your session ended because the token stopped working: an admin refreshed or revoked it. Sign in with your current token.");
  await expect(page.getByTestId("session-ended")).toHaveAttribute("role", "alert");
});

test("at phone width, tables are cards with every column on screen", async ({ page, world }) => {
  const phone = await otherDeveloper(world, "dev_phone");
  const run = await phone.client.createRun(new Date(`${DAY}T09:15:00+05:30`), new Date(`${DAY}T15:30:00+05:30`), { name: "Phone" });
  await phone.client.createOrder(run.id!, ...orderAt("RELIANCE", 30, 1, 1));
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, phone.token, "/runs");
  const onScreen = async (locator: ReturnType<typeof page.locator>) => {
    const box = (await locator.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  };
  await onScreen(page.getByRole("button", { name: "Delete run Phone" }));
  await onScreen(page.getByRole("button", { name: "Edit run Phone" }));
  await page.getByRole("link", { name: "Phone" }).click();
  const card = page.getByTestId("orders-table").locator("tbody tr").first();
  const outcome = card.locator("td[data-label='Outcome']");
  await expect(outcome).toContainText("Target hit");
  await onScreen(outcome);
  for (const path of ["/runs", `/runs/${run.id}`, "/chart?symbol=RELIANCE&date=2025-01-03", "/shortlist", "/coverage", "/companies"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${path} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
  }
  await page.goto(`/runs/${run.id}`);
  await expect(page.getByTestId("orders-table")).toBeVisible();
  await screenshots(page, "run-phone");
});
