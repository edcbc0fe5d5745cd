// The browser tests (e2e/): Debian's chromium, headless, one worker (the
// tests share one mdc stack and build on each other's data). No browser is
// downloaded: MDC_CHROMIUM (default /usr/bin/chromium) is launched directly.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  reporter: [["list"]],
  outputDir: process.env.MDC_WEB_RESULTS || "test-results",
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 900 },
    // An Indian locale (dates as dd/mm/yyyy in date inputs), and a browser
    // zone that is not IST: the pages must show IST whatever the browser's zone.
    locale: "en-IN",
    timezoneId: "America/New_York",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.MDC_CHROMIUM || "/usr/bin/chromium",
      // --no-sandbox: CI runs as root. The others keep chromium off the
      // network (this machine reaches nothing but the test stack).
      args: [
        "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
      ],
    },
  },
});
