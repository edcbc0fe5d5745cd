import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { type Column, DataTable } from "../../components/DataTable";
import { ExportDay } from "../../components/ExportDay";
import { Empty } from "../../components/Status";
import { formatCount, formatPercent, formatPrice } from "../../format";
import type { Interval } from "../../route";
import type { SortSpec } from "../../sort";
import { IST_LABEL, formatIST } from "../../time";
import { plural } from "../../words";

export type DayQuote = Schemas["StockQuote"];

export const INTERVAL_MINUTES: Record<Interval, number> = {
  "1minute": 1, "2minute": 2, "3minute": 3, "5minute": 5, "10minute": 10, "15minute": 15, "30minute": 30, "1hour": 60,
  "1day": 1440, "1week": 10080,
};

/** "5 min", "1 hour". */
export function intervalLabel(interval: Interval): string {
  return interval === "1hour" ? "1 hour" : interval === "1day" ? "1 day" : interval === "1week" ? "1 week" : `${INTERVAL_MINUTES[interval]} min`;
}

/** The rows with `row` in its place by time: a quote written again replaces the one of its instant. */
export function withRow(rows: readonly DayQuote[], row: DayQuote): DayQuote[] {
  const at = new Date(row.timestamp ?? 0).getTime();
  const kept = rows.filter((r) => new Date(r.timestamp ?? 0).getTime() !== at);
  const i = kept.findIndex((r) => new Date(r.timestamp ?? 0).getTime() > at);
  return i < 0 ? [...kept, row] : [...kept.slice(0, i), row, ...kept.slice(i)];
}

const price = (q: DayQuote) => q.quoteData?.payload?.last_price;

/** The day's stored quotes of a symbol (NIFTY 50's when `nifty`), with a CSV download of the table and the
 * day's export (every column) as CSV or Parquet. */
export function QuotesTable({ symbol, date, rows, nifty }: { symbol: string; date: string; rows: DayQuote[]; nifty: boolean }): VNode {
  const [sort, setSort] = useState<SortSpec | undefined>(undefined);
  const columns: Column<DayQuote>[] = [
    {
      key: "time", label: `Time (${IST_LABEL})`, value: (q) => q.timestamp,
      render: (q) => formatIST(q.timestamp, { zone: false }), csv: (q) => formatIST(q.timestamp, { zone: false }),
    },
    { key: "last", label: "Last price", value: price, render: (q) => formatPrice(price(q)), numeric: true },
    {
      key: "change", label: "Day change %", value: (q) => q.quoteData?.payload?.day_change_perc,
      render: (q) => formatPercent(q.quoteData?.payload?.day_change_perc), numeric: true,
    },
    {
      key: "volume", label: "Volume (day so far)", value: (q) => q.quoteData?.payload?.volume,
      render: (q) => formatCount(q.quoteData?.payload?.volume), numeric: true,
    },
    { key: "status", label: "Status", value: (q) => (q.quoteData?.status === "FAILURE" ? "Failed" : "OK") },
  ];
  return (
    <>
      <h2>Quotes of the day</h2>
      {rows.length === 0 ? (
        <Empty>No quotes of {symbol} are stored for {date}.</Empty>
      ) : (
        <DataTable caption={`${plural(rows.length, "quote")} of ${symbol} on ${date}`} columns={columns} rows={rows}
          rowKey={(q) => q.timestamp ?? ""} sort={sort} onSort={setSort} testId="timeline-table" scroll
          csv={["quotes", symbol, date]} />
      )}
      {rows.length > 0 && (
        <ExportDay kind={nifty ? "nifty" : "quotes"} date={date} symbols={nifty ? undefined : [symbol]} testId="export-day" />
      )}
    </>
  );
}
