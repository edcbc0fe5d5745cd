export { MdcClient, wallClock, withDates, WIRE_TIMEZONE } from "./client.js";
export type { CandleInterval, Dated, ListType, MdcClientOptions, ReplayKind, Schemas, ShortlistEntry, ShortlistType, Scope, QuoteData, StreamEvent, StreamOptions } from "./client.js";
export { EventStream, IDLE_TIMEOUT_MS, resumable } from "./streams.js";
export type { MarketEvent, StreamLine } from "./streams.js";
export { MdcError, errorFromResponse, errorFromStream } from "./errors.js";
export type { FieldViolation } from "./errors.js";
export type { components, paths, operations } from "./generated/openapi.js";
export { isIdempotent, MAX_RETRY_AFTER_SECONDS, neverSent, parseRetryAfter, shouldRetry } from "./retry.js";
export type { FailedAttempt } from "./retry.js";
