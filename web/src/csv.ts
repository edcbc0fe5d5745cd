/**
 * CSV of a table the page holds (RFC 4180): a header row, then one row per
 * table row in the order shown, fields separated by commas, lines ended by
 * CRLF. A field holding a comma, a quote, a line break or surrounding
 * spaces is quoted, its quotes doubled. Text that a spreadsheet would run as
 * a formula (starting with = + - @) is prefixed with an apostrophe; numbers
 * are written plainly (1240.5, not 1,240.50), times in IST with the zone in
 * the column's name.
 */

export type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

function field(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const lines = [columns.map((c) => field(c.header)).join(",")];
  for (const row of rows) lines.push(columns.map((c) => field(c.value(row))).join(","));
  return lines.join("\r\n") + "\r\n";
}

/** The rows of a CSV text, fields unquoted (what toCsv writes, read back). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        cell += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || (ch === "\r" && text[i + 1] === "\n")) {
      if (ch === "\r") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else {
      cell += ch;
    }
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** A file name from its parts joined by `separator`, then `.extension`: safe on every system. */
export function safeFileName(parts: readonly (string | number | undefined)[], extension: string, separator = "-"): string {
  const base = parts.filter((p) => p !== undefined && p !== "").join(separator).replace(/[^A-Za-z0-9._&-]+/g, "-");
  return `${base || "table"}.${extension}`;
}

/** A file name from its parts: "orders-run-12-2025-01-02.csv", safe on every system. */
export function csvFileName(...parts: (string | number | undefined)[]): string {
  return safeFileName(parts, "csv");
}

/** Saves text as a CSV file through the browser's download (a UTF-8 byte order mark first, for spreadsheets). */
export function downloadCsv(fileName: string, text: string): void {
  saveFile(fileName, new Blob(["\uFEFF", text], { type: "text/csv;charset=utf-8" }));
}

/** Saves a Blob as a file through the browser's download. */
export function saveFile(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
