// Builds the dashboard into $MDC_WEB_OUT (web/build.sh points it into the
// build folder; default dist/). The entry (index.html) holds the shell, the
// router and the light pages; the chart page with lightweight-charts, the
// coverage page and the admin pages are separate chunks loaded when first
// opened.
// @mdc/client is a plain dependency: its main entry needs no alias.
import { defineConfig } from "vitest/config";

export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // `npx vite`: the pages with live reload, the API from a running gateway.
  server: { proxy: { "/v1": process.env.MDC_URL || "http://127.0.0.1:8080" } },
  build: {
    outDir: process.env.MDC_WEB_OUT || "dist",
    emptyOutDir: true,
    target: "es2022",
    manifest: true,
    // Chromium, Firefox and Safari preload modules natively.
    modulePreload: { polyfill: false },
    // The budget check (scripts/finish-build.mjs) is the size limit that counts.
    chunkSizeWarningLimit: 1000,
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});
