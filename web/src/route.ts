/**
 * The dashboard's view state lives in the URL (path + query), so a reload or
 * a shared link shows the same view: parseRoute reads a URL into a Route,
 * formatRoute writes one back. Defaults are left out of the URL; values that
 * do not parse fall back to the defaults rather than failing the page.
 */
import { type SortSpec, formatSort, parseSort } from "./sort";
import { isDate } from "./time";

export const INTERVALS = [
  "1minute", "2minute", "3minute", "5minute", "10minute", "15minute", "30minute", "1hour", "1day", "1week",
] as const;
export type Interval = (typeof INTERVALS)[number];
export const DEFAULT_INTERVAL: Interval = "5minute";

/** How far back the chart reaches from its date: that day alone (default), or days and months up to it. */
export const RANGES = ["1d", "5d", "1m", "3m", "6m", "1y"] as const;
export type ChartRange = (typeof RANGES)[number];

/** The chart's indicators (indicators.ts): VWAP, moving averages of 20 bars, Bollinger bands (20, 2), RSI (14). */
export const INDICATORS = ["vwap", "sma", "ema", "bb", "rsi"] as const;
export type IndicatorName = (typeof INDICATORS)[number];

/** The adjustment of the chart's candles over a range (docs/api.md section 13.4): as stored (raw, the
 * default), for splits and bonuses, or also for dividends. */
export const ADJUSTMENTS = ["raw", "split", "all"] as const;
export type AdjustmentName = (typeof ADJUSTMENTS)[number];

/** How often a page reads its data again by itself, in seconds (0: never), as Grafana's refresh picker. */
export const REFRESH_SECONDS = [0, 5, 10, 30, 60] as const;

/**
 * Query parameters a URL gave that do not parse, by name, with the text
 * given: the page says why each was not used rather than dropping it silently.
 */
export type Invalid = Record<string, string>;

export const SHORTLIST_TYPES = ["TOP_GAINERS", "VOLUME_SHOCKERS"] as const;
export type ShortlistTypeName = (typeof SHORTLIST_TYPES)[number];
export const SCOPES = ["TOP_5", "FULL"] as const;
export type ScopeName = (typeof SCOPES)[number];

export type Route =
  | { page: "sign-in"; next?: string | undefined }
  | { page: "runs"; tag?: string | undefined; sort?: SortSpec | undefined; refresh?: number | undefined }
  | { page: "run"; runId: string; gain?: number | undefined; sort?: SortSpec | undefined }
  | { page: "compare"; runIds: string[] }
  | {
      page: "chart"; symbol?: string | undefined; date?: string | undefined; interval: Interval; runId?: string | undefined;
      /** Draw NIFTY 50 over the candles on a percent scale. */
      nifty?: boolean | undefined;
      /** The order whose entry, target and stop are drawn as lines. */
      orderId?: string | undefined;
      live?: boolean | undefined;
      /** Days or months up to `date` (default: that day alone). */
      range?: ChartRange | undefined;
      /** Indicators drawn. */
      ind?: IndicatorName[] | undefined;
      /** Prices adjusted for corporate actions (over a range); absent: as stored. */
      adj?: Exclude<AdjustmentName, "raw"> | undefined;
      /** Mark the corporate actions of the range on the candles. */
      acts?: boolean | undefined;
      invalid?: Invalid | undefined;
    }
  | {
      page: "shortlist"; type: ShortlistTypeName; scope: ScopeName; date?: string | undefined;
      at?: string | undefined; tp?: number | undefined; sl?: number | undefined; sort?: SortSpec | undefined;
      live?: boolean | undefined;
      invalid?: Invalid | undefined;
    }
  | { page: "watchlist"; sort?: SortSpec | undefined }
  | {
      page: "coverage"; date?: string | undefined; gaps?: boolean | undefined;
      /** Read again every this many seconds. */
      refresh?: number | undefined;
      /** Minutes without a write after which a collector is silent (default 5). */
      silent?: number | undefined;
    }
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

function refresh(value: string | null): number | undefined {
  const n = num(value);
  return n !== undefined && n > 0 && (REFRESH_SECONDS as readonly number[]).includes(n) ? n : undefined;
}

/** The parameters of `q` named in `names` whose value is given but was not taken (`taken` undefined). */
function invalidOf(q: URLSearchParams, taken: Record<string, unknown>): Invalid | undefined {
  const out: Invalid = {};
  for (const [name, value] of Object.entries(taken)) {
    const text = q.get(name);
    if (text !== null && text.trim() !== "" && value === undefined) out[name] = text;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A wall clock "YYYY-MM-DDTHH:MM:SS" of a real date and time of day. */
function wallClock(value: string | null): string | undefined {
  if (!value || !WALL_CLOCK.test(value) || !isDate(value.slice(0, 10))) return undefined;
  const [h, m, s] = value.slice(11).split(":").map(Number) as [number, number, number];
  return h <= 23 && m <= 59 && s <= 59 ? value : undefined;
}

function adjustment(value: string | null): Exclude<AdjustmentName, "raw"> | undefined {
  const chosen = oneOf(ADJUSTMENTS, value);
  return chosen === "raw" ? undefined : chosen;
}

function indicators(value: string | null): IndicatorName[] | undefined {
  const list = (value ?? "").split(",").filter((v): v is IndicatorName => (INDICATORS as readonly string[]).includes(v));
  return list.length ? INDICATORS.filter((i) => list.includes(i)) : undefined;
}

/**
 * Whether `next` (where sign-in returns to) is a path of this site: it
 * starts with one "/", holds no backslash (browsers read "/\\host" as
 * "//host") and no control character, and resolves to this origin.
 */
export function isSamePath(next: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
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
  const runs = (): Route => ({ page: "runs", tag: q.get("tag") || undefined, sort: parseSort(q.get("sort")), refresh: refresh(q.get("refresh")) });
  if (parts.length === 0) return runs();
  switch (first) {
    case "sign-in": {
      const next = q.get("next");
      // Only a path of this site: never an outside address.
      return { page: "sign-in", next: next && isSamePath(next) ? next : undefined };
    }
    case "runs":
      if (parts.length === 1) return runs();
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
        const route: Extract<Route, { page: "chart" }> = {
          page: "chart",
          symbol: symbol && SYMBOL.test(symbol) ? symbol : undefined,
          date: date(q.get("date")),
          interval: oneOf(INTERVALS, q.get("interval"), DEFAULT_INTERVAL),
          runId: run && DIGITS.test(run) ? run : undefined,
          nifty: flag(q.get("nifty")),
          orderId: order && DIGITS.test(order) ? order : undefined,
          live: flag(q.get("live")),
          range: oneOf(RANGES, q.get("range")) === "1d" ? undefined : oneOf(RANGES, q.get("range")),
          ind: indicators(q.get("ind")),
          adj: adjustment(q.get("adj")),
          acts: flag(q.get("acts")),
        };
        const invalid = invalidOf(q, {
          date: route.date, symbol: route.symbol, range: oneOf(RANGES, q.get("range")), adj: oneOf(ADJUSTMENTS, q.get("adj")),
        });
        return invalid ? { ...route, invalid } : route;
      }
      break;
    case "shortlist":
      if (parts.length === 1) {
        const validAt = wallClock(q.get("at"));
        const route: Extract<Route, { page: "shortlist" }> = {
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
        const invalid = invalidOf(q, { at: route.at, date: validAt ? validAt : route.date, tp: route.tp, sl: route.sl });
        return invalid ? { ...route, invalid } : route;
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
      if (parts.length === 1) {
        return {
          page: "coverage", date: date(q.get("date")), gaps: flag(q.get("gaps")), refresh: refresh(q.get("refresh")),
          silent: num(q.get("silent"), 1, 24 * 60),
        };
      }
      break;
    case "watchlist":
      if (parts.length === 1) return { page: "watchlist", sort: parseSort(q.get("sort")) };
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
      return withQuery("/runs", { tag: route.tag, sort: formatSort(route.sort), refresh: route.refresh });
    case "run":
      return withQuery(`/runs/${encodeURIComponent(route.runId)}`, { gain: route.gain, sort: formatSort(route.sort) });
    case "compare":
      return withQuery("/runs/compare", { ids: route.runIds.join(",") });
    case "chart":
      return withQuery("/chart", {
        symbol: route.symbol, date: route.date,
        interval: route.interval === DEFAULT_INTERVAL ? undefined : route.interval, run: route.runId,
        order: route.orderId, nifty: route.nifty ? 1 : undefined, live: route.live ? 1 : undefined,
        range: route.range === "1d" ? undefined : route.range, ind: route.ind?.length ? route.ind.join(",") : undefined,
        adj: route.adj, acts: route.acts ? 1 : undefined,
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
      return withQuery("/coverage", { date: route.date, gaps: route.gaps ? 1 : undefined, refresh: route.refresh, silent: route.silent });
    case "watchlist":
      return withQuery("/watchlist", { sort: formatSort(route.sort) });
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
