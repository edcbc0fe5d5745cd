/** Names for the generated types the client's methods take and give (src/generated/openapi.ts). */
import type { components, paths } from "./generated/openapi.js";
import type { Dated } from "./times.js";
import type { MarketEvent } from "./streams.js";

export type Schemas = components["schemas"];
type Query<P extends keyof paths> = NonNullable<NonNullable<paths[P]["get"]>["parameters"]["query"]>;

/** The shortlist types a write takes (the schema's enum also names SHORTLIST_TYPE_UNSPECIFIED, which answers mean). */
export type ShortlistType = Exclude<Schemas["ShortlistType"], "SHORTLIST_TYPE_UNSPECIFIED">;
export type Scope = Schemas["Scope"];
export type ShortlistEntry = Schemas["ShortlistEntry"];
export type QuoteData = Schemas["QuoteData"];
/** The list types a shortlist read accepts. */
export type ListType = NonNullable<Query<"/v1/developer/lists">["type"]>;
/** The scopes a shortlist read accepts. */
export type ListScope = NonNullable<Query<"/v1/developer/lists">["scope"]>;
/** The shortlist types and scopes a shortlist watch accepts. */
export type WatchListType = Query<"/v1/developer/watch/shortlists">["type"];
export type WatchScope = NonNullable<Query<"/v1/developer/watch/shortlists">["scope"]>;
/** The candle intervals ("1minute" ... "1month"). */
export type CandleInterval = NonNullable<Query<"/v1/developer/historical-candles">["interval"]>;
/** What an adjusted read applies (docs/api.md section 13.4): "raw" (what was stored, the default), "split"
 * (splits, bonuses, consolidations) or "all" (also dividends and rights issues). */
export type Adjustment = Exclude<NonNullable<Query<"/v1/developer/historical-candles">["adjustment"]>, "">;
/** Which of NSE's instrument files an import reads: EQUITY_L.csv or the symbol-change list. */
export type InstrumentFile = "equity_list" | "symbol_changes";
/** How instruments are looked up: exactly one of a symbol (current or former), an ISIN, or the start of the
 * company's name. */
export type InstrumentLookup = { symbol: string } | { isin: string } | { prefix: string };
/** What an import of an NSE file did: rows imported, unchanged, rejected (line and reason) and, for corporate
 * actions, ignored (no price effect). */
export type FileImportResult = Schemas["ImportFileResponse"];
/** One corporate action an admin enters (docs/api.md section 13.7): `isin` or `symbol` (the instrument's on
 * the ex-date), `kind`, `exDate` (YYYY-MM-DD) and the numbers its kind uses. */
export type CorporateActionEntry = Schemas["CreateCorporateActionRequest"];
/** The action as stored, and whether the entry created it (false: the same action was stored already). */
export type CorporateActionEntryResult = Schemas["CreateCorporateActionResponse"];

/** The record kinds a day replay takes ("quotes", "nifty", "shortlists"). */
export type ReplayKind = NonNullable<Query<"/v1/developer/replay">["kinds"]>[number];
/** A developer's role. */
export type Role = "developer" | "admin";
/** What an export reads (docs/api.md section 11): the last segment of its route. */
export type ExportKind = "quotes" | "nifty" | "shortlists" | "candles";
/** The file format of an export. */
export type ExportFormat = NonNullable<Query<"/v1/developer/export/quotes">["format"]>;
/** The options of an export: the last day (default: the first; at most 31 days), and what narrows it. */
export interface ExportOptions {
  end?: Date;
  /** Quotes and candles ("NIFTY" for the index's candles): only these symbols. */
  symbols?: string[];
  /** Candles: their interval (required). */
  interval?: CandleInterval;
  /** Shortlists: one type, one scope. */
  type?: ListType;
  scope?: ListScope;
  /** "parquet" (default), "csv" or "ndjson". */
  format?: ExportFormat;
  /** Quotes and candles of listed `symbols`: "raw" (default), "split" or "all" (docs/api.md section 13.6).
   * An adjusted file says so: a last column `adjustment` (CSV, Parquet) or each NDJSON line's `adjustment`. */
  adjustment?: Adjustment;
}

/** What an import stores (docs/api.md section 12): the last segment of its route. */
export type ImportKind = "quotes" | "nifty" | "shortlists";
/** The options of an import. */
export interface ImportOptions {
  /** The file's format: "parquet" (default), "csv" or "ndjson". */
  format?: ExportFormat;
}
/** What an import stored, once committed. */
export interface ImportResult {
  /** Records the file held. */
  records: number;
  /** Keys written: new, or stored with another content. */
  written: number;
  /** Keys whose stored record was the same, left as they were. */
  unchanged: number;
}

/** One candle of the long table of candlesOfSymbols: keyed by (symbol, time); `volume` null when no quote of
 * the bucket reported a volume (no data, where 0 is no trades). */
export interface CandleRow {
  symbol: string;
  time: Date;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

/** The answer of candlesOfSymbols: the API's CandlesOfSymbols (series in the order asked, `missing`) and `rows`,
 * its long table. */
export type CandlesOfSymbols = Dated<Schemas["CandlesOfSymbols"]> & { rows: CandleRow[] };

/** A stream's event with its instants as Date. */
export type StreamEvent = Dated<MarketEvent>;

/** How a stream resumes: `cursor` is where to start (a cursor of an earlier stream); with `resume` (the default)
 * a stream that breaks in a way resuming repairs reopens by itself from its last cursor, within the retries.
 * A connection on which nothing arrives for `idleTimeoutMs` (default 45000; not even the heartbeat the server
 * sends an idle watch every MDC_WATCH_HEARTBEAT seconds) counts as lost; 0 waits for ever. */
export interface StreamOptions {
  cursor?: string;
  resume?: boolean;
  idleTimeoutMs?: number;
}
