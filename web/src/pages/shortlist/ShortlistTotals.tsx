import type { VNode } from "preact";
import type { runStats } from "../../runstats";

/** The counts of the entries' outcomes and the hit rate. */
export function ShortlistTotals({ totals }: { totals: ReturnType<typeof runStats> }): VNode {
  return (
    <dl class="totals" data-testid="shortlist-totals">
      <div><dt>Entries</dt><dd>{totals.orders}</dd></div>
      <div><dt>Target hit</dt><dd>{totals.target}</dd></div>
      <div><dt>Stop hit</dt><dd>{totals.stop}</dd></div>
      <div><dt>Open</dt><dd>{totals.open}</dd></div>
      <div><dt>No data</dt><dd>{totals.noData}</dd></div>
      <div title="Of the entries that reached their target or their stop, the share that reached the target first."><dt>Hit rate</dt><dd>{totals.hitRate === undefined ? "—" : `${totals.hitRate.toFixed(1)}%`}</dd></div>
    </dl>
  );
}
