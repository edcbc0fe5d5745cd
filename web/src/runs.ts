/** Runs through the API: the calls the runs pages share. */
import type { Schemas } from "@mdc/client";
import { api, collect } from "./api";
import { type EquityPoint, type RunStats, type ValuedOrder, closesNeeded, dayKey, equityCurve, runStats, valueOrders } from "./runstats";
import { IST_ZONE, todayIST } from "./time";

export type Run = Schemas["Run"];
export type Order = Schemas["Order"];

/** Tags as typed ("a, b c") to the list the API takes; the server trims, checks and sorts them. */
export function splitTags(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export function listRuns(tag?: string): Promise<Run[]> {
  return collect(api().paginate("/v1/dashboard/runs", { params: { query: { ...(tag ? { tag } : {}), pageSize: 1000 } } }, "runs"));
}

export async function getRun(runId: string): Promise<Run | undefined> {
  // There is no Get Run operation: the run is found in the caller's list.
  return (await listRuns()).find((r) => r.id === runId);
}

export async function listTags(): Promise<string[]> {
  return (await api().call("GET", "/v1/dashboard/runs/tags")).tags ?? [];
}

export async function createRun(run: { name: string; tags: string[]; start: string; end: string }): Promise<Run> {
  return api().call("POST", "/v1/dashboard/runs", {
    body: { name: run.name, tags: run.tags, startDatetime: run.start, endDatetime: run.end, timezone: IST_ZONE },
  });
}

export async function updateRun(runId: string, change: { name?: string; tags?: string[]; completed?: boolean }): Promise<Run> {
  return api().call("PATCH", "/v1/dashboard/runs/{runId}", { params: { path: { runId } }, body: change });
}

export async function deleteRun(runId: string): Promise<void> {
  await api().call("DELETE", "/v1/dashboard/runs/{runId}", { params: { path: { runId } } });
}

/** Every order of a run with its outcome, ascending by time (all pages). */
export function listOrders(runId: string, targetGainPercentage?: number): Promise<Order[]> {
  const query = { pageSize: 1000, ...(targetGainPercentage !== undefined ? { targetGainPercentage } : {}) };
  return collect(api().paginate("/v1/dashboard/runs/{runId}/orders", { params: { path: { runId }, query } }, "orders"));
}

export async function createOrder(runId: string, order: {
  nseSymbol: string; datetime: string; entryPrice: number; stopLossPrice: number; takeProfitPrice: number;
}): Promise<Order> {
  return api().call("POST", "/v1/dashboard/runs/{runId}/orders", {
    params: { path: { runId } },
    body: { ...order, timezone: IST_ZONE },
  });
}

const closes = new Map<string, Promise<number | undefined>>();

/** The close of a symbol's session on a day (its 1day candle's close), or undefined without quotes. Past days are cached. */
export function sessionClose(symbol: string, date: string): Promise<number | undefined> {
  const key = dayKey(symbol, date);
  let found = closes.get(key);
  if (!found) {
    found = api()
      .call("GET", "/v1/dashboard/candles", { params: { query: { symbol, date, interval: "1day" } } })
      .then((answer) => answer.candles?.at(-1)?.close ?? undefined);
    if (date < todayIST()) closes.set(key, found);
    found.catch(() => closes.delete(key));
  }
  return found;
}

/** A run's orders valued (runstats.ts): closed ones at their target or stop, open ones at their session's close. */
export interface RunAnalysis {
  orders: Order[];
  valued: ValuedOrder<Order>[];
  stats: RunStats;
  curve: EquityPoint[];
}

export async function analyseRun(runId: string, targetGainPercentage?: number): Promise<RunAnalysis> {
  const orders = await listOrders(runId, targetGainPercentage);
  const needed = closesNeeded(orders);
  const known = new Map<string, number | undefined>();
  await inTurns(needed.map(({ symbol, date }) => async () => known.set(dayKey(symbol, date), await sessionClose(symbol, date))), 4);
  const valued = valueOrders(orders, (symbol, date) => known.get(dayKey(symbol, date)));
  return { orders, valued, stats: runStats(valued), curve: equityCurve(valued) };
}

/** Runs the tasks, at most `width` at a time, and gives their results in order. */
export async function inTurns<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}
