import type { Schemas, StreamEvent } from "@mdc/client";
import { useMemo, useState } from "preact/hooks";
import { api } from "../../api";
import { formErrors } from "../../formerrors";
import { useAsync } from "../../hooks";
import { useWatch } from "../../live";
import type { Route } from "../../route";
import { updateRoute } from "../../router";
import { IST_ZONE, istDate, istWallClock } from "../../time";
import { runStats, valueOrders } from "../../runstats";

export type ShortlistRoute = Extract<Route, { page: "shortlist" }>;
export type Entry = Schemas["DashboardShortlistEntry"] & { rank: number };

const FIELDS = ["datetime", "type", "scope", "takeProfitPercentage", "stopLossPercentage"];

function entryPrice(e: Entry): number | undefined {
  return e.price || e.quote?.quoteData?.payload?.last_price || undefined;
}

/**
 * What the shortlist page shows of its route: the list's dates and the chosen day's snapshot times, the
 * snapshot shown (the chosen one, else the day's latest) with its entries and totals, and, live, new
 * snapshots followed as they are written (and a new day as it starts).
 */
export function useShortlist(route: ShortlistRoute) {
  const list = { type: route.type, scope: route.scope };
  const [liveEpoch, setLiveEpoch] = useState(0);
  // The dates and times of this list only (type and scope): no time is offered that it does not have.
  const dates = useAsync(
    async () => (await api().call("GET", "/v1/dashboard/available-datetimes", { params: { query: list } })).dates ?? [],
    [route.type, route.scope, liveEpoch],
  );
  const date = route.date ?? dates.data?.at(-1)?.date;
  const times = useAsync(async () => {
    if (!date) return [];
    const answer = await api().call("GET", "/v1/dashboard/available-datetimes", { params: { query: { date, ...list } } });
    return (answer.dates?.find((d) => d.date === date)?.timestamps ?? []).map((t) => new Date(t));
  }, [date, route.type, route.scope, liveEpoch]);
  // Without a chosen snapshot: the day's latest.
  const at = route.at ?? (times.data?.length ? istWallClock(times.data.at(-1)!) : undefined);
  const index = times.data?.findIndex((t) => istWallClock(t) === at) ?? -1;

  const shortlist = useAsync(async () => {
    if (!at) return undefined;
    return api().call("GET", "/v1/dashboard/shortlists", {
      params: {
        query: {
          datetime: at, timezone: IST_ZONE, type: route.type, scope: route.scope,
          ...(route.tp !== undefined ? { takeProfitPercentage: route.tp } : {}),
          ...(route.sl !== undefined ? { stopLossPercentage: route.sl } : {}),
        },
      },
    });
  }, [at, route.type, route.scope, route.tp, route.sl]);

  // Live: a new snapshot of this list is shown as it is written (and a new day as it starts).
  const onSnapshot = (event: StreamEvent) => {
    const snapshot = event.shortlist;
    if (!snapshot?.timestamp || snapshot.shortlistType !== route.type) return;
    // Following the latest: no chosen snapshot, and the day it belongs to.
    const day = istDate(snapshot.timestamp);
    if (route.at || (route.date && route.date !== day)) updateRoute(route, { date: undefined, at: undefined });
    setLiveEpoch((n) => n + 1);
  };
  const liveState = useWatch(
    route.live ? () => api().watchShortlists(route.type, { scope: route.scope }) : undefined,
    onSnapshot, [route.type, route.scope], () => setLiveEpoch((n) => n + 1));

  const errors = shortlist.state === "error" ? formErrors(shortlist.error, FIELDS) : { fields: {} as Record<string, string>, message: undefined };
  const entries = useMemo<Entry[]>(() => (shortlist.data?.entries ?? []).map((e, i) => ({ ...e, rank: i + 1 })), [shortlist.data]);
  // Counts and the hit rate; open entries are not valued here.
  const totals = useMemo(() => runStats(valueOrders(entries.map((e) => ({ entryPrice: entryPrice(e), outcome: e.outcome })), () => undefined)), [entries]);

  return { dates, date, times: times.data ?? [], at, index, shortlist, liveState, errors, entries, totals };
}
