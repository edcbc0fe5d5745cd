/**
 * What the client refuses before sending, as MdcError INVALID_ARGUMENT (httpStatus undefined, attempts 0) naming
 * the field exactly as the server's own 400 would: a key of a collector input that is no field of the contract
 * (`data.quotes[0].quoteData.payload.lastPrice`, with the known key it probably meant), a time argument that is
 * not a valid Date. The server ignores unknown JSON fields (docs/api.md section 1), so a misspelled key would
 * otherwise be a field stored empty.
 */
import { MdcError } from "./errors.js";
import { REQUEST_FIELDS } from "./generated/fields.js";

/** A refusal of the client: no request was sent. */
export function invalidArgument(field: string, description: string): MdcError {
  return new MdcError(`${field}: ${description}`, {
    code: "INVALID_ARGUMENT",
    fieldViolations: [{ field, description }],
    attempts: 0,
  });
}

/** The Date of a time argument (`field`: the request field or header it becomes), else MdcError naming it. */
export function checkedDate(at: unknown, field: string): Date {
  if (at instanceof Date && !Number.isNaN(at.getTime())) return at;
  const got = at instanceof Date ? "an invalid Date" : `${typeof at} ${describe(at)}`;
  throw invalidArgument(field, `expected a valid Date, got ${got}` + (typeof at === "string" ? `; pass new Date(${JSON.stringify(at)})` : ""));
}

/** Checks `value`, the JSON of the schema `schema` at `path`: every key of every object in it is a property of
 * its schema (REQUEST_FIELDS, generated from the OpenAPI document), every nested object an object. */
export function checkKeys(value: unknown, schema: string, path: string): void {
  const fields = REQUEST_FIELDS[schema];
  if (fields === undefined || value === null || value === undefined) return;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidArgument(path, `expected an object (${schema}), got ${Array.isArray(value) ? "an array" : `${typeof value} ${describe(value)}`}`);
  }
  for (const [key, item] of Object.entries(value)) {
    const where = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(fields, key)) {
      const guess = nearest(key, Object.keys(fields));
      const hint = guess ? `; did you mean '${guess}'?` : `; the keys are ${Object.keys(fields).join(", ")}`;
      throw invalidArgument(where, `unknown key '${key}' of ${schema}${hint}`);
    }
    const inner = fields[key];
    if (!inner || item === null || item === undefined) continue;
    if (inner.endsWith("[]")) {
      const items = inner.slice(0, -2);
      if (!Array.isArray(item)) throw invalidArgument(where, `expected an array of ${items}, got ${typeof item} ${describe(item)}`);
      item.forEach((element, i) => checkKeys(element, items, `${where}[${i}]`));
    } else {
      checkKeys(item, inner, where);
    }
  }
}

/** The known key `key` most probably meant: the same letters in another case or spelling (lastPrice for
 * last_price), an abbreviation (qty for quantity), else the closest by edit distance, if close enough. */
export function nearest(key: string, known: readonly string[]): string | undefined {
  const fold = (s: string) => s.toLowerCase().replace(/[_-]/g, "");
  const same = known.find((k) => fold(k) === fold(key));
  if (same) return same;
  // An abbreviation: the key's letters in order, from the first (qty, quantity).
  const short = fold(key);
  const abbreviated = known.find((k) => {
    const long = fold(k);
    if (short.length < 2 || short[0] !== long[0]) return false;
    let i = 0;
    for (const c of long) if (c === short[i]) i++;
    return i === short.length;
  });
  if (abbreviated) return abbreviated;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const k of known) {
    const d = distance(fold(key), fold(k));
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

function describe(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 60 ? text.slice(0, 57) + "..." : text;
  } catch {
    return String(value);
  }
}
