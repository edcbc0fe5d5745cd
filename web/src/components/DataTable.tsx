import type { ComponentChildren, VNode } from "preact";
import { useMemo } from "preact/hooks";
import { type CsvValue, csvFileName, downloadCsv, toCsv } from "../csv";
import { type SortSpec, type SortValue, nextSort, sortRows } from "../sort";

export interface Column<T> {
  key: string;
  /** The header; a string, or `text` gives the words for cards and CSV. */
  label: ComponentChildren;
  /** The label as text, where `label` is not a string (cards, CSV header). */
  text?: string;
  /** The value the column sorts by; without one the column does not sort. */
  value?: (row: T) => SortValue;
  /** What the cell shows (default: value). */
  render?: (row: T) => ComponentChildren;
  /** The CSV value (default: value); columns with neither (actions) are left out of the CSV. */
  csv?: (row: T) => CsvValue;
  numeric?: boolean;
}

function labelText<T>(c: Column<T>): string {
  return c.text ?? (typeof c.label === "string" ? c.label : c.key);
}

/**
 * A table whose column headers sort it (a button each; aria-sort tells the
 * order). The sort comes from and goes to the URL through sort/onSort. With
 * `csv`, a button downloads the rows as shown (sorted) as a CSV file. On
 * narrow screens each row is a card of label-value lines (styles.css), so
 * no column is off-screen.
 */
export function DataTable<T>(props: {
  caption: ComponentChildren;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  sort?: SortSpec | undefined;
  onSort?: (sort: SortSpec) => void;
  footer?: ComponentChildren;
  testId?: string;
  /** Scroll inside a frame of limited height (header kept in view) rather than lengthen the page. */
  scroll?: boolean;
  /** The CSV file's name parts: a download button when given. */
  csv?: (string | number | undefined)[];
}): VNode {
  const { columns, rows, sort, onSort } = props;
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const column = columns.find((c) => c.key === sort.key);
    return column?.value ? sortRows(rows, column.value, sort.desc) : rows;
  }, [rows, sort?.key, sort?.desc, columns]);
  const download = () => {
    const exported = columns.filter((c) => c.csv || c.value).map((c) => ({
      header: labelText(c),
      value: (row: T): CsvValue => (c.csv ? c.csv(row) : (c.value?.(row) as CsvValue)),
    }));
    downloadCsv(csvFileName(...(props.csv ?? [])), toCsv(exported, sorted));
  };
  const captionText = typeof props.caption === "string" ? props.caption : undefined;
  return (
    <div class="table-block">
      {props.csv && (
        <div class="table-tools">
          <button type="button" class="small" onClick={download} data-testid={props.testId ? `${props.testId}-csv` : undefined}
            aria-label={`Download ${captionText ?? "the table"} as CSV`}>
            Download CSV
          </button>
        </div>
      )}
      <div class={props.scroll ? "table-frame scroll" : "table-frame"} tabIndex={0} role="region" aria-label={captionText}>
        <table data-testid={props.testId} class="cards">
          <caption>{props.caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => {
                const active = sort !== undefined && sort.key === c.key;
                const ariaSort = active ? (sort.desc ? "descending" : "ascending") : undefined;
                return (
                  <th key={c.key} scope="col" class={c.numeric ? "num" : undefined} aria-sort={ariaSort}>
                    {c.value && onSort ? (
                      <button type="button" class="sort" onClick={() => onSort(nextSort(sort, c.key))}>
                        {c.label}
                        <span class="sort-mark" aria-hidden="true">{active ? (sort.desc ? " ▼" : " ▲") : ""}</span>
                      </button>
                    ) : (
                      c.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              <tr key={props.rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.key} class={c.numeric ? "num" : undefined} data-label={labelText(c)}>
                    {c.render ? c.render(row) : String(c.value?.(row) ?? "—")}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {props.footer && <tfoot>{props.footer}</tfoot>}
        </table>
      </div>
    </div>
  );
}
