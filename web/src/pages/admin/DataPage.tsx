import type { Schemas } from "@mdc/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { api } from "../../api";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { type Column, DataTable } from "../../components/DataTable";
import { Empty, ErrorNote, Loading } from "../../components/Status";
import { formatCount } from "../../format";
import { useAsync } from "../../hooks";
import type { SortSpec } from "../../sort";
import { confirmPhrase } from "./confirm";
import { ImportForm } from "./ImportForm";
import { plural } from "../../words";

type DataDate = Schemas["DataDate"];

/** Trading days holding market data; delete whole days after typing what is deleted, or import a file an
 * export wrote. */
export function DataPage(): VNode {
  const dates = useAsync(async () => (await api().call("GET", "/v1/admin/data/available-dates")).dates ?? [], []);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<Schemas["DeleteDataDatesResponse"] | undefined>();
  const [sort, setSort] = useState<SortSpec | undefined>({ key: "date", desc: true });
  const toggle = (date: string, on: boolean) => setSelected(on ? [...selected, date].sort() : selected.filter((d) => d !== date));

  const columns: Column<DataDate>[] = [
    {
      key: "pick", label: <span class="visually-hidden">Select</span>,
      render: (d) => (
        <input type="checkbox" aria-label={`Select ${d.date}`} checked={selected.includes(d.date ?? "")} onChange={(e) => toggle(d.date ?? "", e.currentTarget.checked)} />
      ),
    },
    { key: "date", label: "Date", value: (d) => d.date },
    { key: "shortlists", label: "Shortlists", value: (d) => d.shortlistCount, render: (d) => formatCount(d.shortlistCount), numeric: true },
    { key: "quotes", label: "Quotes", value: (d) => d.quoteCount, render: (d) => formatCount(d.quoteCount), numeric: true },
    { key: "nifty", label: "NIFTY quotes", value: (d) => d.niftyCount, render: (d) => formatCount(d.niftyCount), numeric: true },
  ];
  return (
    <section>
      <h1>Data by date</h1>
      <ImportForm onImported={() => dates.reload()} />
      {result && (
        <p class="note" role="status" data-testid="delete-result">
          Deleted {plural(Number(result.shortlists ?? 0), "shortlist")}, {plural(Number(result.quotes ?? 0), "quote")} and {plural(Number(result.niftyQuotes ?? 0), "NIFTY quote")}.
        </p>
      )}
      <div class="toolbar">
        <button type="button" class="danger" disabled={selected.length === 0} onClick={() => setConfirming(true)}>
          Delete {selected.length ? `${plural(selected.length, "selected day")}` : "selected days"}
        </button>
        {selected.length > 0 && <button type="button" onClick={() => setSelected([])}>Clear selection</button>}
      </div>
      {dates.state === "error" && <ErrorNote error={dates.error} retry={dates.reload} />}
      {dates.state === "loading" && !dates.data && <Loading what="dates with data" />}
      {dates.data?.length === 0 && <Empty>No market data is stored.</Empty>}
      {dates.data && dates.data.length > 0 && (
        <DataTable caption={`${plural(dates.data.length, "trading day")} with data`} columns={columns} rows={dates.data} rowKey={(d) => d.date ?? ""} sort={sort} onSort={setSort} testId="data-table" />
      )}
      {confirming && (
        <ConfirmDialog
          title="Delete market data?"
          confirmLabel="Delete data"
          typed={confirmPhrase(selected)}
          onConfirm={async () => {
            setResult(await api().call("DELETE", "/v1/admin/data/dates", { body: { dates: selected } }));
            setSelected([]);
            dates.reload();
          }}
          onClose={() => setConfirming(false)}
        >
          <p>Every shortlist, quote and NIFTY quote of {selected.join(", ")} is deleted in one transaction. Holidays, developers, runs and orders stay. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
