export { MdcClient, wallClock, withDates, WIRE_TIMEZONE } from "./client.js";
export type { CandleInterval, Dated, ListType, MdcClientOptions, Schemas, ShortlistEntry, ShortlistType, Scope, QuoteData } from "./client.js";
export { MdcError } from "./errors.js";
export type { FieldViolation } from "./errors.js";
export type { components, paths, operations } from "./generated/openapi.js";
export { isIdempotent, neverSent, shouldRetry } from "./retry.js";
export type { FailedAttempt } from "./retry.js";
