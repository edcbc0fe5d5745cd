/**
 * The chart views opened last (symbol, interval, range, indicators, overlay:
 * the URL without the date and live mode), kept in this browser so the chart
 * opened without a symbol offers them again.
 */
import { type Route, formatRoute } from "./route";

const KEY = "mdc.recent-charts";
const KEEP = 8;

type ChartRoute = Extract<Route, { page: "chart" }>;

export function recentCharts(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? "[]") as unknown;
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === "string" && s.startsWith("/chart?")).slice(0, KEEP) : [];
  } catch {
    return [];
  }
}

/** The view's link without its date and live mode (a recent view opens on the latest day). */
export function chartView(route: ChartRoute): string | undefined {
  if (!route.symbol) return undefined;
  return formatRoute({
    page: "chart", symbol: route.symbol, interval: route.interval, range: route.range, ind: route.ind, nifty: route.nifty,
  });
}

/** Puts a view first in the list (once). */
export function rememberChart(route: ChartRoute): void {
  const view = chartView(route);
  if (!view) return;
  try {
    localStorage.setItem(KEY, JSON.stringify([view, ...recentCharts().filter((v) => v !== view)].slice(0, KEEP)));
  } catch {
    // Storage refused: nothing is remembered.
  }
}
