/**
 * The API's words made into a person's: field names become the labels the
 * forms show ("end_datetime" is "the end"), instants in UTC become IST, the
 * browser's and the transport's own messages ("TypeError: Failed to fetch")
 * become what happened and what to do, and counts get their plurals.
 * Every message the dashboard shows goes through here (formerrors.ts).
 */
import { formatCount } from "./format";
import { formatIST } from "./time";

/** A field of the API as the dashboard's forms name it: the label, and how a sentence refers to it. */
interface Field {
  label: string;
  phrase: string;
}

function field(label: string, phrase = `the ${label.toLowerCase()}`): Field {
  return { label, phrase };
}

/** By the field's name in either spelling, normalised (norm below). */
const FIELDS: Record<string, Field> = {
  startdatetime: field("Start"),
  enddatetime: field("End"),
  datetime: field("Time"),
  date: field("Date"),
  dates: field("Dates"),
  timezone: field("Time zone"),
  symbol: field("Symbol"),
  symbols: field("Symbols"),
  nsesymbol: field("Symbol"),
  entryprice: field("Entry price"),
  stoplossprice: field("Stop-loss price"),
  takeprofitprice: field("Take-profit price"),
  takeprofitpercentage: field("Take profit %", "the take-profit percentage"),
  stoplosspercentage: field("Stop loss %", "the stop-loss percentage"),
  targetgainpercentage: field("Target gain %", "the target gain percentage"),
  minpercentage: field("Persistent at %", "the persistence threshold"),
  interval: field("Interval"),
  type: field("List"),
  scope: field("Scope"),
  name: field("Name"),
  tags: field("Tags"),
  completed: field("Completed"),
  developertoken: field("Developer token"),
  username: field("Username"),
  role: field("Role"),
  year: field("Year"),
  script: field("Script"),
  sessionopen: field("Session opens", "the session's opening time"),
  sessionclose: field("Session closes", "the session's closing time"),
  pagesize: field("Page size"),
  pagetoken: field("Page"),
  runid: field("Run"),
};

/** snake_case and lowerCamelCase spellings of one name compare equal. */
export function norm(name: string): string {
  return name.replace(/_/g, "").toLowerCase();
}

/** The label of a field path of the API: "tags[2]" is "Tag 3", "args.before" is "Before", "end_datetime" is "End". */
export function fieldLabel(path: string): string {
  const last = path.split(".").pop() ?? path;
  const indexed = /^(.*)\[(\d+)\]$/.exec(last);
  const name = indexed ? indexed[1]! : last;
  const known = FIELDS[norm(name)];
  const label = known?.label ?? words(name);
  if (!indexed) return label;
  const singular = label.endsWith("s") ? label.slice(0, -1) : label;
  return `${singular} ${Number(indexed[2]) + 1}`;
}

/** "lastPrice" and "last_price" as "Last price". */
function words(name: string): string {
  if (name.includes("-")) return name; // a header (X-Current-Timestamp), as it is written
  const spaced = name.replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().trim();
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : name;
}

const INSTANT = /\b(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z\b/g;
const IDENTIFIER = /\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]+(?:[A-Z][a-z]*)+\b/g;
const NAMES: Record<string, string> = {
  TOP_GAINERS: "top gainers",
  VOLUME_SHOCKERS: "volume shockers",
  TOP_5: "top 5",
};

/**
 * A message of the API for people: RFC 3339 UTC instants in IST, field
 * names as the phrases of their labels, list names in words.
 */
export function humanize(text: string): string {
  return text
    .replace(INSTANT, (whole) => formatIST(whole))
    .replace(IDENTIFIER, (name) => FIELDS[norm(name)]?.phrase ?? name)
    .replace(/\b(TOP_GAINERS|VOLUME_SHOCKERS|TOP_5)\b/g, (name) => NAMES[name] ?? name);
}

/** A sentence: a capital first letter and a full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const first = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** "1 order", "4 orders", "1,20,000 quotes": the count and the noun it needs. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
