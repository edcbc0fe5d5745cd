/**
 * The dashboard's view state lives in the URL (path + query), so a reload or
 * a shared link shows the same view: parseRoute reads a URL into a Route,
 * formatRoute writes one back. Defaults are left out of the URL; values that
 * do not parse fall back to the defaults rather than failing the page.
 */
import { type SortSpec, formatSort, parseSort } from "./sort";
import { isDate } from "./time";

export const INTERVALS = [
  "1minute", "2minute", "3minute", "5minute", "10minute", "15minute", "30minute", "1hour",
] as const;
export type Interval = (typeof INTERVALS)[number];
export const DEFAULT_INTERVAL: Interval = "5minute";

export const SHORTLIST_TYPES = ["TOP_GAINERS", "VOLUME_SHOCKERS"] as const;
export type ShortlistTypeName = (typeof SHORTLIST_TYPES)[number];
export const SCOPES = ["TOP_5", "FULL"] as const;
export type ScopeName = (typeof SCOPES)[number];

export type Route =
  | { page: "sign-in"; next?: string | undefined }
  | { page: "runs"; tag?: string | undefined; sort?: SortSpec | undefined }
  | { page: "run"; runId: string; gain?: number | undefined; sort?: SortSpec | undefined }
  | { page: "compare"; runIds: string[] }
  | {
      page: "chart"; symbol?: string | undefined; date?: string | undefined; interval: Interval; runId?: string | undefined;
      /** Draw NIFTY 50 over the candles on a percent scale. */
      nifty?: boolean | undefined;
      /** The order whose entry, target and stop are drawn as lines. */
      orderId?: string | undefined;
      live?: boolean | undefined;
    }
  | {
      page: "shortlist"; type: ShortlistTypeName; scope: ScopeName; date?: string | undefined;
      at?: string | undefined; tp?: number | undefined; sl?: number | undefined; sort?: SortSpec | undefined;
      live?: boolean | undefined;
    }
  | { page: "coverage"; date?: string | undefined; gaps?: boolean | undefined }
  | { page: "companies"; date?: string | undefined; type?: ShortlistTypeName | undefined; scope: ScopeName; min?: number | undefined }
  | { page: "admin-developers" }
  | { page: "admin-holidays"; year?: number | undefined }
  | { page: "admin-data" }
  | { page: "admin-scripts" }
  | { page: "not-found"; path: string };

export type PageName = Route["page"];

const ADMIN_PAGES: Record<string, PageName> = {
  developers: "admin-developers", holidays: "admin-holidays", data: "admin-data", scripts: "admin-scripts",
};

function oneOf<T extends string>(list: readonly T[], value: string | null, fallback: T): T;
function oneOf<T extends string>(list: readonly T[], value: string | null): T | undefined;
function oneOf<T extends string>(list: readonly T[], value: string | null, fallback?: T): T | undefined {
  return list.includes(value as T) ? (value as T) : fallback;
}

function num(value: string | null, min = -Infinity, max = Infinity): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= min && n <= max ? n : undefined;
}

function date(value: string | null): string | undefined {
  return value && isDate(value) ? value : undefined;
}

export const SYMBOL = /^[A-Za-z0-9&._-]{1,32}$/;
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const DIGITS = /^\d{1,18}$/;
const flag = (value: string | null): boolean | undefined => (value === "1" ? true : undefined);

/**
 * Whether `next` (where sign-in returns to) is a path of this site: it
 * starts with one "/", holds no backslash (browsers read "/\\host" as
 * "//host") and no control character, and resolves to this origin.
 */
export function isSamePath(next: string): boolean {
  if (!next.startsWith("/") || next.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(next)) return false;
  try {
    return new URL(next, "http://dashboard.invalid").origin === "http://dashboard.invalid";
  } catch {
    return false;
  }
}

/** The route of a path and query ("/runs/12?gain=2"). */
export function parseRoute(pathAndQuery: string): Route {
  const url = new URL(pathAndQuery, "http://dashboard.invalid");
  const q = url.searchParams;
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const [first, second] = parts;
  if (parts.length === 0) return { page: "runs", tag: q.get("tag") || undefined, sort: parseSort(q.get("sort")) };
  switch (first) {
    case "sign-in": {
      const next = q.get("next");
      // Only a path of this site: never an outside address.
      return { page: "sign-in", next: next && isSamePath(next) ? next : undefined };
    }
    case "runs":
      if (parts.length === 1) return { page: "runs", tag: q.get("tag") || undefined, sort: parseSort(q.get("sort")) };
      if (parts.length === 2 && second === "compare") {
        const ids = (q.get("ids") ?? "").split(",").filter((id) => DIGITS.test(id));
        return { page: "compare", runIds: [...new Set(ids)].slice(0, 6) };
      }
      if (parts.length === 2 && second && DIGITS.test(second)) {
        return { page: "run", runId: second, gain: num(q.get("gain"), 0), sort: parseSort(q.get("sort")) };
      }
      break;
    case "chart":
      if (parts.length === 1) {
        const symbol = q.get("symbol");
        const run = q.get("run");
        const order = q.get("order");
        return {
          page: "chart",
          symbol: symbol && SYMBOL.test(symbol) ? symbol : undefined,
          date: date(q.get("date")),
          interval: oneOf(INTERVALS, q.get("interval"), DEFAULT_INTERVAL),
          runId: run && DIGITS.test(run) ? run : undefined,
          nifty: flag(q.get("nifty")),
          orderId: order && DIGITS.test(order) ? order : undefined,
          live: flag(q.get("live")),
        };
      }
      break;
    case "shortlist":
      if (parts.length === 1) {
        const at = q.get("at");
        const validAt = at && WALL_CLOCK.test(at) && isDate(at.slice(0, 10)) ? at : undefined;
        return {
          page: "shortlist",
          type: oneOf(SHORTLIST_TYPES, q.get("type"), "TOP_GAINERS"),
          scope: oneOf(SCOPES, q.get("scope"), "TOP_5"),
          date: validAt ? validAt.slice(0, 10) : date(q.get("date")),
          at: validAt,
          tp: num(q.get("tp"), 0),
          sl: num(q.get("sl"), 0, 100),
          sort: parseSort(q.get("sort")),
          live: flag(q.get("live")),
        };
      }
      break;
    case "companies":
      if (parts.length === 1) {
        return {
          page: "companies",
          date: date(q.get("date")),
          type: oneOf(SHORTLIST_TYPES, q.get("type")),
          scope: oneOf(SCOPES, q.get("scope"), "TOP_5"),
          min: num(q.get("min"), 0, 100),
        };
      }
      break;
    case "coverage":
      if (parts.length === 1) return { page: "coverage", date: date(q.get("date")), gaps: flag(q.get("gaps")) };
      break;
    case "admin": {
      const page = second ? ADMIN_PAGES[second] : undefined;
      if (parts.length === 2 && page === "admin-holidays") {
        const year = num(q.get("year"), 1900, 2200);
        return { page, year: year !== undefined && Number.isInteger(year) ? year : undefined };
      }
      if (parts.length === 2 && page) return { page } as Route;
      if (parts.length === 1) return { page: "admin-developers" };
      break;
    }
  }
  return { page: "not-found", path: url.pathname };
}

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== "") q.set(k, String(v));
  }
  const text = q.toString();
  return text ? `${path}?${text}` : path;
}

/** The path and query of a route; parseRoute(formatRoute(r)) gives r back. */
export function formatRoute(route: Route): string {
  switch (route.page) {
    case "sign-in":
      return withQuery("/sign-in", { next: route.next });
    case "runs":
      return withQuery("/runs", { tag: route.tag, sort: formatSort(route.sort) });
    case "run":
      return withQuery(`/runs/${encodeURIComponent(route.runId)}`, { gain: route.gain, sort: formatSort(route.sort) });
    case "compare":
      return withQuery("/runs/compare", { ids: route.runIds.join(",") });
    case "chart":
      return withQuery("/chart", {
        symbol: route.symbol, date: route.date,
        interval: route.interval === DEFAULT_INTERVAL ? undefined : route.interval, run: route.runId,
        order: route.orderId, nifty: route.nifty ? 1 : undefined, live: route.live ? 1 : undefined,
      });
    case "shortlist":
      return withQuery("/shortlist", {
        type: route.type === "TOP_GAINERS" ? undefined : route.type,
        scope: route.scope === "TOP_5" ? undefined : route.scope,
        // `at` names its date; `date` alone is a date whose time is not chosen yet.
        date: route.at ? undefined : route.date,
        at: route.at, tp: route.tp, sl: route.sl, sort: formatSort(route.sort), live: route.live ? 1 : undefined,
      });
    case "coverage":
      return withQuery("/coverage", { date: route.date, gaps: route.gaps ? 1 : undefined });
    case "companies":
      return withQuery("/companies", {
        date: route.date, type: route.type, scope: route.scope === "TOP_5" ? undefined : route.scope, min: route.min,
      });
    case "admin-developers":
      return "/admin/developers";
    case "admin-holidays":
      return withQuery("/admin/holidays", { year: route.year });
    case "admin-data":
      return "/admin/data";
    case "admin-scripts":
      return "/admin/scripts";
    case "not-found":
      return route.path;
  }
}

/** Pages only an admin may open. */
export function isAdminPage(page: PageName): boolean {
  return page.startsWith("admin-");
}
