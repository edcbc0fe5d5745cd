/** Runs through the API: the calls the runs pages share. */
import type { Schemas } from "@mdc/client";
import { api, collect } from "./api";
import { IST_ZONE } from "./time";

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
