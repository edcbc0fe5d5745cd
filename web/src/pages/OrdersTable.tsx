import type { VNode } from "preact";
import { useMemo } from "preact/hooks";
import { type Column, DataTable } from "../components/DataTable";
import { Link } from "../components/Link";
import { formatCount, formatPercent, formatPrice, formatSignedPrice } from "../format";
import { formatRoute } from "../route";
import type { Order } from "../runs";
import { HIT_RATE_DEFINITION, PNL_DEFINITION, type RunStats, type ValuedOrder } from "../runstats";
import type { SortSpec } from "../sort";
import { IST_LABEL, formatIST, istDate } from "../time";
import { OUTCOME_LABELS, type OutcomeKind } from "../totals";
import { plural } from "../words";

export function OutcomeBadge({ kind, atClose }: { kind: OutcomeKind; atClose?: boolean }): VNode {
  return <span class={`badge outcome-${kind}`}>{OUTCOME_LABELS[kind]}{atClose ? " (at close)" : ""}</span>;
}

const round2 = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) ? Math.round(n * 100) / 100 : undefined);

/** The totals of a run's orders, each figure with its definition a hover or a tap away. */
export function RunTotals({ stats, testId = "order-totals" }: { stats: RunStats; testId?: string }): VNode {
  return (
    <>
      <dl class="totals" data-testid={testId}>
        <div><dt>Orders</dt><dd>{formatCount(stats.orders)}</dd></div>
        <div><dt>Target hit</dt><dd>{formatCount(stats.target)}</dd></div>
        <div><dt>Stop hit</dt><dd>{formatCount(stats.stop)}</dd></div>
        <div><dt>Open</dt><dd>{formatCount(stats.open)}</dd></div>
        <div><dt>No data</dt><dd>{formatCount(stats.noData)}</dd></div>
        <div title={HIT_RATE_DEFINITION}><dt>Hit rate</dt><dd>{stats.hitRate === undefined ? "—" : `${stats.hitRate.toFixed(1)}%`}</dd></div>
        <div title={PNL_DEFINITION}><dt>P&amp;L per share</dt><dd>{formatSignedPrice(stats.pnlPerShare)}</dd></div>
        <div title={PNL_DEFINITION}><dt>Avg return</dt><dd>{formatPercent(stats.avgReturnPercent)}</dd></div>
      </dl>
      <details class="definitions">
        <summary>How these are counted</summary>
        <p>{HIT_RATE_DEFINITION}</p>
        <p>{PNL_DEFINITION}{stats.openAtClose > 0 ? ` Here ${plural(stats.openAtClose, "open order is", "open orders are")} valued at the close.` : ""}</p>
      </details>
    </>
  );
}

/** A run's orders with their outcomes (open ones valued at the session close), sortable, with a CSV download. */
export function OrdersTable(props: {
  runId: string;
  valued: ValuedOrder<Order>[];
  sort: SortSpec | undefined;
  onSort: (sort: SortSpec) => void;
}): VNode {
  const { runId, valued } = props;
  const columns = useMemo<Column<ValuedOrder<Order>>[]>(() => [
    {
      key: "time", label: `Time (${IST_LABEL})`, value: (v) => v.order.time,
      render: (v) => formatIST(v.order.time, { zone: false }), csv: (v) => formatIST(v.order.time, { zone: false }),
    },
    {
      key: "symbol", label: "Symbol", value: (v) => v.order.nseSymbol,
      render: ({ order: o }) => (
        <Link to={formatRoute({ page: "chart", symbol: o.nseSymbol, date: o.time ? istDate(new Date(o.time)) : undefined, interval: "5minute", runId, orderId: o.id })}>
          {o.nseSymbol}
        </Link>
      ),
    },
    { key: "entry", label: "Entry", value: (v) => v.order.entryPrice, render: (v) => formatPrice(v.order.entryPrice), numeric: true },
    {
      key: "target", label: "Target", value: (v) => v.order.outcome?.targetPrice ?? v.order.takeProfitPrice,
      render: (v) => formatPrice(v.order.outcome?.targetPrice ?? v.order.takeProfitPrice), numeric: true,
    },
    {
      key: "stop", label: "Stop", value: (v) => v.order.outcome?.stopLossPrice ?? v.order.stopLossPrice,
      render: (v) => formatPrice(v.order.outcome?.stopLossPrice ?? v.order.stopLossPrice), numeric: true,
    },
    {
      key: "outcome", label: "Outcome", value: (v) => v.kind, render: (v) => <OutcomeBadge kind={v.kind} />,
      csv: (v) => OUTCOME_LABELS[v.kind],
    },
    { key: "toTarget", label: "Min to target", value: (v) => v.order.outcome?.minutesToTarget, render: (v) => formatCount(v.order.outcome?.minutesToTarget), numeric: true },
    { key: "toStop", label: "Min to stop", value: (v) => v.order.outcome?.minutesToStopLoss, render: (v) => formatCount(v.order.outcome?.minutesToStopLoss), numeric: true },
    {
      key: "maxGain", label: "Max gain %", value: (v) => v.order.outcome?.maxGainPercentage,
      render: (v) => formatPercent(v.order.outcome?.maxGainPercentage), numeric: true,
    },
    {
      key: "exit", label: "Exit", text: "Exit", value: (v) => v.exit, csv: (v) => round2(v.exit),
      render: (v) => (v.exit === undefined ? "—" : <span>{formatPrice(v.exit)}{v.atClose && <span class="note-inline" title="Open: valued at the session's close"> (close)</span>}</span>),
      numeric: true,
    },
    { key: "pnl", label: "P&L", value: (v) => v.pnl, render: (v) => formatSignedPrice(v.pnl), csv: (v) => round2(v.pnl), numeric: true },
    {
      key: "return", label: "Return %", value: (v) => v.returnPercent, render: (v) => formatPercent(v.returnPercent),
      csv: (v) => round2(v.returnPercent), numeric: true,
    },
  ], [runId]);
  return (
    <DataTable
      caption={`${plural(valued.length, "order")} with their outcomes`}
      columns={columns}
      rows={valued}
      rowKey={(v) => v.order.id ?? ""}
      sort={props.sort}
      onSort={props.onSort}
      testId="orders-table"
      csv={["orders", "run", runId]}
    />
  );
}
