import type { ComponentChildren, VNode } from "preact";
import { useMemo } from "preact/hooks";
import { type SortSpec, type SortValue, nextSort, sortRows } from "../sort";

export interface Column<T> {
  key: string;
  label: ComponentChildren;
  /** The value the column sorts by; without one the column does not sort. */
  value?: (row: T) => SortValue;
  /** What the cell shows (default: value). */
  render?: (row: T) => ComponentChildren;
  numeric?: boolean;
}

/**
 * A table whose column headers sort it (a button each; aria-sort tells the
 * order). The sort comes from and goes to the URL through sort/onSort. Wide
 * tables scroll sideways inside their frame on narrow screens.
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
}): VNode {
  const { columns, rows, sort, onSort } = props;
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const column = columns.find((c) => c.key === sort.key);
    return column?.value ? sortRows(rows, column.value, sort.desc) : rows;
  }, [rows, sort?.key, sort?.desc, columns]);
  return (
    <div class={props.scroll ? "table-frame scroll" : "table-frame"} tabIndex={0} role="region" aria-label={typeof props.caption === "string" ? props.caption : undefined}>
      <table data-testid={props.testId}>
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
                <td key={c.key} class={c.numeric ? "num" : undefined}>
                  {c.render ? c.render(row) : String(c.value?.(row) ?? "—")}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {props.footer && <tfoot>{props.footer}</tfoot>}
      </table>
    </div>
  );
}
