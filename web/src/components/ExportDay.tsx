import type { ExportFormat, ExportKind } from "@mdc/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { api } from "../api";
import { errorText } from "../formerrors";
import { safeFileName, saveFile } from "../csv";

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: "csv", label: "CSV" },
  { format: "parquet", label: "Parquet" },
];

/**
 * Buttons that download a day's records as the server exports them (`/v1/developer/export/<kind>`, every
 * column of docs/api.md section 11, instants in UTC with the trading day beside them), as CSV or as a
 * Parquet file for pandas, polars or DuckDB: the whole record, where the table's own CSV holds its columns.
 */
export function ExportDay({ kind, date, symbols, testId }: {
  kind: ExportKind;
  /** The trading day, YYYY-MM-DD. */
  date: string;
  symbols?: string[];
  testId: string;
}): VNode {
  const [busy, setBusy] = useState<ExportFormat | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    setError(undefined);
    try {
      const day = new Date(`${date}T00:00:00+05:30`);
      const stream = await api().export(kind, day, { format, ...(symbols?.length ? { symbols } : {}) });
      const blob = await new Response(stream).blob();
      saveFile(safeFileName([kind, ...(symbols ?? []), date], format, "_"), blob);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <div class="export-day">
      <span>Export the day:</span>
      {FORMATS.map(({ format, label }) => (
        <button key={format} type="button" class="small" disabled={busy !== undefined} onClick={() => void download(format)}
          data-testid={`${testId}-${format}`} aria-label={`Export the day's records as ${label}`}>
          {busy === format ? `${label}…` : label}
        </button>
      ))}
      {error !== undefined && <p class="form-error" role="alert">{errorText(error)}</p>}
    </div>
  );
}
