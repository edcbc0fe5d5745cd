/** Sorting the dashboard's tables; the order is part of the URL (route.ts). */

export type SortValue = string | number | boolean | undefined | null;

export interface SortSpec {
  key: string;
  desc: boolean;
}

/** "-time" is time descending, "time" ascending; "" or undefined is no sort. */
export function parseSort(text: string | null | undefined): SortSpec | undefined {
  if (!text) return undefined;
  const desc = text.startsWith("-");
  const key = desc ? text.slice(1) : text;
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(key) ? { key, desc } : undefined;
}

export function formatSort(sort: SortSpec | undefined): string | undefined {
  return sort ? (sort.desc ? "-" : "") + sort.key : undefined;
}

/** The sort after a click on column `key`: ascending first, then descending. */
export function nextSort(current: SortSpec | undefined, key: string): SortSpec {
  return current?.key === key ? { key, desc: !current.desc } : { key, desc: false };
}

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

/**
 * rows sorted by value(row), ascending or descending; rows whose value is
 * absent (undefined, null, NaN) go last either way; equal values keep their
 * order (a stable sort), so the server's order breaks ties.
 */
export function sortRows<T>(rows: readonly T[], value: (row: T) => SortValue, desc: boolean): T[] {
  const absent = (v: SortValue) => v === undefined || v === null || (typeof v === "number" && Number.isNaN(v));
  const keyed = rows.map((row, index) => ({ row, index, v: value(row) }));
  keyed.sort((x, y) => {
    const ax = absent(x.v);
    const ay = absent(y.v);
    if (ax || ay) return ax === ay ? x.index - y.index : ax ? 1 : -1;
    const c = compare(x.v, y.v);
    return c !== 0 ? (desc ? -c : c) : x.index - y.index;
  });
  return keyed.map((k) => k.row);
}
