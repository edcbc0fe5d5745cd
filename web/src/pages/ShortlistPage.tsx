import type { VNode } from "preact";
import { DataTable } from "../components/DataTable";
import { FormMessage } from "../components/Field";
import { InvalidParams } from "../components/InvalidParams";
import { Empty, ErrorNote, Loading } from "../components/Status";
import { updateRoute } from "../router";
import { checkDate, checkWallClock, formatIST, istWallClock } from "../time";
import { plural } from "../words";
import { shortlistColumns } from "./shortlist/columns";
import { LIST_NAMES, ShortlistToolbar } from "./shortlist/ShortlistToolbar";
import { ShortlistTotals } from "./shortlist/ShortlistTotals";
import { SnapshotNav } from "./shortlist/SnapshotNav";
import { type ShortlistRoute, useShortlist } from "./shortlist/useShortlist";

/** Why a parameter of a shortlist link was not used. */
function explainParam(name: string, text: string): string {
  switch (name) {
    case "at": {
      const checked = checkWallClock(text);
      return `The snapshot time “${text}”: ${checked.ok ? "write it as YYYY-MM-DDTHH:MM:SS (IST)." : checked.error} The day's latest snapshot is shown instead.`;
    }
    case "date": {
      const checked = checkDate(text);
      return `The date “${text}”: ${checked.ok ? "not a date." : checked.error} The latest day is shown instead.`;
    }
    case "tp": return `Take profit “${text}”: it must be a percentage of 0 or more. No outcomes are computed without it.`;
    case "sl": return `Stop loss “${text}”: it must be a percentage from 0 to 100. No outcomes are computed without it.`;
    default: return `${name} “${text}”.`;
  }
}

/** The shortlist at a chosen snapshot, each entry with the outcome of buying it then; live, it follows new snapshots. */
export function ShortlistPage({ route }: { route: ShortlistRoute }): VNode {
  const { dates, date, times, at, index, shortlist, liveState, errors, entries, totals } = useShortlist(route);
  const withOutcome = route.tp !== undefined && route.sl !== undefined;
  const showSnapshot = (t: Date | undefined) => t && updateRoute(route, { date, at: istWallClock(t), live: undefined });

  return (
    <section>
      <h1>Shortlist</h1>
      <ShortlistToolbar route={route} date={date} dates={dates.data} datesLoading={dates.state === "loading"}
        fieldErrors={errors.fields} liveState={liveState} />
      {times.length > 0 && <SnapshotNav times={times} index={index} at={at} show={showSnapshot} />}
      <InvalidParams invalid={route.invalid} explain={explainParam} />
      {dates.state === "error" && <ErrorNote error={dates.error} retry={dates.reload} />}
      {dates.state === "ready" && dates.data.length === 0 && <Empty>No {LIST_NAMES[route.type]} snapshot ({route.scope === "TOP_5" ? "top 5" : "full"}) has been stored yet.</Empty>}
      {shortlist.state === "error" && <FormMessage message={errors.message ?? errors.fields["datetime"]} />}
      {shortlist.state === "loading" && at && !shortlist.data && <Loading what="the shortlist" />}
      {shortlist.data && (
        <>
          <p class="note" data-testid="snapshot-note">
            Snapshot of {formatIST(shortlist.data.timestamp)}
            {withOutcome ? `: buying each entry at its price, target +${route.tp}%, stop -${route.sl}%.` : ". Enter take profit and stop loss percentages to see each entry's outcome."}
          </p>
          {withOutcome && entries.length > 0 && <ShortlistTotals totals={totals} />}
          {entries.length === 0 ? (
            <Empty>This snapshot is empty.</Empty>
          ) : (
            <DataTable
              caption={`${plural(entries.length, "entry", "entries")} of ${LIST_NAMES[route.type]}`}
              columns={shortlistColumns(date, withOutcome)}
              rows={entries}
              rowKey={(e) => `${e.rank}`}
              sort={route.sort}
              onSort={(sort) => updateRoute(route, { sort })}
              testId="shortlist-table"
              csv={["shortlist", route.type, route.scope, at?.replace(":", "").replace(":", "")]}
            />
          )}
        </>
      )}
    </section>
  );
}
