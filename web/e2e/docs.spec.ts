/**
 * Swagger UI at /docs renders in a real browser under the policy the
 * gateway sends with it (docs.go): its inline scripts are allowed by hash,
 * nothing else inline runs, and the page may not be framed. Any policy
 * violation is a console error, which fails the test.
 */
import { expect, test } from "./fixtures";

test("Swagger UI renders under its Content-Security-Policy", async ({ page }) => {
  const violations: string[] = [];
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { reportViolation: (t: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const answer = await page.goto("/docs");
  expect(answer?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(page.locator(".opblock").first()).toBeVisible();
  await expect(page.getByText("/v1/developer/quote", { exact: true }).first()).toBeVisible();
  expect(violations).toEqual([]);
});
