import type { VNode } from "preact";
import { useMemo } from "preact/hooks";
import { type Column, DataTable } from "../components/DataTable";
import { Link } from "../components/Link";
import { formatCount, formatPercent, formatPrice, formatSignedPrice } from "../format";
import { formatRoute } from "../route";
import type { Order } from "../runs";
import type { SortSpec } from "../sort";
import { formatIST, istDate } from "../time";
import { OUTCOME_LABELS, orderTotals, outcomeKind, returnPercent } from "../totals";

export function OutcomeBadge({ kind }: { kind: ReturnType<typeof outcomeKind> }): VNode {
  return <span class={`badge outcome-${kind}`}>{OUTCOME_LABELS[kind]}</span>;
}

/** A run's orders with their outcomes, and their totals in the footer. */
export function OrdersTable(props: {
  runId: string;
  orders: Order[];
  sort: SortSpec | undefined;
  onSort: (sort: SortSpec) => void;
}): VNode {
  const { runId, orders } = props;
  const columns = useMemo<Column<Order>[]>(() => [
    { key: "time", label: "Time (IST)", value: (o) => o.time, render: (o) => formatIST(o.time, { zone: false }) },
    {
      key: "symbol", label: "Symbol", value: (o) => o.nseSymbol,
      render: (o) => (
        <Link to={formatRoute({ page: "chart", symbol: o.nseSymbol, date: o.time ? istDate(new Date(o.time)) : undefined, interval: "5minute", runId })}>
          {o.nseSymbol}
        </Link>
      ),
    },
    { key: "entry", label: "Entry", value: (o) => o.entryPrice, render: (o) => formatPrice(o.entryPrice), numeric: true },
    { key: "target", label: "Target", value: (o) => o.outcome?.targetPrice ?? o.takeProfitPrice, render: (o) => formatPrice(o.outcome?.targetPrice ?? o.takeProfitPrice), numeric: true },
    { key: "stop", label: "Stop", value: (o) => o.outcome?.stopLossPrice ?? o.stopLossPrice, render: (o) => formatPrice(o.outcome?.stopLossPrice ?? o.stopLossPrice), numeric: true },
    { key: "outcome", label: "Outcome", value: (o) => outcomeKind(o.outcome), render: (o) => <OutcomeBadge kind={outcomeKind(o.outcome)} /> },
    { key: "toTarget", label: "Min to target", value: (o) => o.outcome?.minutesToTarget, render: (o) => formatCount(o.outcome?.minutesToTarget), numeric: true },
    { key: "toStop", label: "Min to stop", value: (o) => o.outcome?.minutesToStopLoss, render: (o) => formatCount(o.outcome?.minutesToStopLoss), numeric: true },
    { key: "maxGain", label: "Max gain", value: (o) => o.outcome?.maxGainPercentage, render: (o) => formatPercent(o.outcome?.maxGainPercentage), numeric: true },
    { key: "return", label: "Return", value: (o) => returnPercent(o), render: (o) => formatPercent(returnPercent(o)), numeric: true },
  ], [runId]);
  const totals = useMemo(() => orderTotals(orders), [orders]);
  return (
    <>
      <dl class="totals" data-testid="order-totals">
        <div><dt>Orders</dt><dd>{formatCount(totals.orders)}</dd></div>
        <div><dt>Target hit</dt><dd>{formatCount(totals.target)}</dd></div>
        <div><dt>Stop hit</dt><dd>{formatCount(totals.stop)}</dd></div>
        <div><dt>Open</dt><dd>{formatCount(totals.open)}</dd></div>
        <div><dt>No data</dt><dd>{formatCount(totals.noData)}</dd></div>
        <div><dt>Hit rate</dt><dd>{totals.hitRate === undefined ? "—" : `${totals.hitRate.toFixed(1)}%`}</dd></div>
        <div><dt>Avg min to target</dt><dd>{totals.avgMinutesToTarget === undefined ? "—" : totals.avgMinutesToTarget.toFixed(1)}</dd></div>
        <div><dt>P&amp;L per share</dt><dd>{formatSignedPrice(totals.pnlPerShare)}</dd></div>
        <div><dt>Avg return</dt><dd>{formatPercent(totals.avgReturnPercent)}</dd></div>
      </dl>
      <DataTable
        caption={`${orders.length} order${orders.length === 1 ? "" : "s"} with their outcomes`}
        columns={columns}
        rows={orders}
        rowKey={(o) => o.id ?? ""}
        sort={props.sort}
        onSort={props.onSort}
        testId="orders-table"
      />
    </>
  );
}
