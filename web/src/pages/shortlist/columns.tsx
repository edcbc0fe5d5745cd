import { type Column } from "../../components/DataTable";
import { Link } from "../../components/Link";
import { formatCount, formatPrice } from "../../format";
import { formatRoute } from "../../route";
import { OUTCOME_LABELS, outcomeKind } from "../../totals";
import { OutcomeBadge } from "../OrdersTable";
import type { Entry } from "./useShortlist";

/** The shortlist table's columns: each symbol links to its chart of `date`; the outcome columns only `withOutcome`. */
export function shortlistColumns(date: string | undefined, withOutcome: boolean): Column<Entry>[] {
  const columns: Column<Entry>[] = [
    { key: "rank", label: "Rank", value: (e) => e.rank, numeric: true },
    {
      key: "symbol", label: "Symbol", value: (e) => e.nseSymbol,
      render: (e) => <Link to={formatRoute({ page: "chart", symbol: e.nseSymbol, date, interval: "5minute" })}>{e.nseSymbol}</Link>,
    },
    { key: "name", label: "Name", value: (e) => e.name },
    { key: "price", label: "Price", value: (e) => e.price, render: (e) => formatPrice(e.price), numeric: true },
    { key: "last", label: "Last price", value: (e) => e.quote?.quoteData?.payload?.last_price, render: (e) => formatPrice(e.quote?.quoteData?.payload?.last_price), numeric: true },
  ];
  if (withOutcome) {
    columns.push(
      { key: "target", label: "Target", value: (e) => e.outcome?.targetPrice, render: (e) => formatPrice(e.outcome?.targetPrice), numeric: true },
      { key: "stop", label: "Stop", value: (e) => e.outcome?.stopLossPrice, render: (e) => formatPrice(e.outcome?.stopLossPrice), numeric: true },
      {
        key: "outcome", label: "Outcome", value: (e) => outcomeKind(e.outcome), render: (e) => <OutcomeBadge kind={outcomeKind(e.outcome)} />,
        csv: (e) => OUTCOME_LABELS[outcomeKind(e.outcome)],
      },
      { key: "toTarget", label: "Min to target", value: (e) => e.outcome?.minutesToTarget, render: (e) => formatCount(e.outcome?.minutesToTarget), numeric: true },
      { key: "toStop", label: "Min to stop", value: (e) => e.outcome?.minutesToStopLoss, render: (e) => formatCount(e.outcome?.minutesToStopLoss), numeric: true },
    );
  }
  return columns;
}
