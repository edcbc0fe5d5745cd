// The package's main entry: runs in Node 20+ and in browsers alike (nothing here imports node:*; the
// suite's browser check loads it in chromium without a bundler). The Node-only test stack is
// "@mdc/client/testing".
export { MdcClient } from "./client.js";
export type { MdcClientOptions } from "./client.js";
export { Transport } from "./transport.js";
export type { CallData, CallInit, RouteOf, TransportOptions, Verb } from "./transport.js";
export { WIRE_TIMEZONE, tradingDay, wallClock, withDates } from "./times.js";
export type { Dated, QuoteFields } from "./times.js";
export { REQUEST_FIELDS } from "./generated/fields.js";
export type {
  Adjustment, CorporateActionEntry, CorporateActionEntryResult, FileImportResult, InstrumentFile, InstrumentLookup,
  CandleInterval, CandleRow, CandlesOfSymbols, ExportFormat, ExportKind, ExportOptions, ImportKind, ImportOptions, ImportResult, ListScope, ListType, QuoteData, ReplayKind, Role, Schemas,
  Scope, ShortlistEntry, ShortlistType, StreamEvent, StreamOptions, WatchListType, WatchScope,
} from "./types.js";
export { EventStream, IDLE_TIMEOUT_MS, resumable } from "./streams.js";
export type { MarketEvent, StreamLine } from "./streams.js";
export { MdcError, errorFromResponse, errorFromStream } from "./errors.js";
export type { FieldViolation } from "./errors.js";
export type { components, paths, operations } from "./generated/openapi.js";
export { IDEMPOTENT_OPERATIONS } from "./generated/idempotent.js";
export { MAX_RETRY_AFTER_SECONDS, isIdempotent, neverSent, operationOf, parseRetryAfter, shouldRetry } from "./retry.js";
export type { FailedAttempt } from "./retry.js";
