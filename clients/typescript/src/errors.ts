/** Every failure of a call to mdc: the gateway's google.rpc.Status, or no answer. */
import { parseRetryAfter } from "./retry.js";

export interface FieldViolation {
  field: string;
  description: string;
}

const BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest";
const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";

const CODE_NAMES: Record<number, string> = {
  0: "OK", 1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED",
  5: "NOT_FOUND", 6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED",
  9: "FAILED_PRECONDITION", 10: "ABORTED", 11: "OUT_OF_RANGE", 12: "UNIMPLEMENTED",
  13: "INTERNAL", 14: "UNAVAILABLE", 15: "DATA_LOSS", 16: "UNAUTHENTICATED",
};

const HTTP_CODES: Record<number, string> = {
  400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
  409: "ALREADY_EXISTS", 412: "FAILED_PRECONDITION", 413: "RESOURCE_EXHAUSTED",
  429: "RESOURCE_EXHAUSTED", 499: "CANCELLED", 501: "UNIMPLEMENTED", 503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

export class MdcError extends Error {
  /** The HTTP status of the answer; undefined when no answer came. */
  readonly httpStatus: number | undefined;
  /** The gRPC status name: INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE, DEADLINE_EXCEEDED, ... */
  readonly code: string;
  /** Each bad field of the google.rpc.BadRequest detail, in the server's order. */
  readonly fieldViolations: FieldViolation[];
  /** The google.rpc.ErrorInfo reason (FUTURE_READ, USERNAME_TAKEN, RATE_LIMITED, ...), when sent. */
  readonly reason: string | undefined;
  /** Seconds the answer's Retry-After asks to wait before sending the call again (the rate limit's 429), when sent. */
  readonly retryAfter: number | undefined;
  /** How many times the call was sent, retries included. */
  readonly attempts: number;

  constructor(
    message: string,
    opts: {
      httpStatus?: number | undefined;
      code: string;
      fieldViolations?: FieldViolation[];
      reason?: string | undefined;
      retryAfter?: number | undefined;
      attempts?: number;
      cause?: unknown;
    },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "MdcError";
    this.httpStatus = opts.httpStatus;
    this.code = opts.code;
    this.fieldViolations = opts.fieldViolations ?? [];
    this.reason = opts.reason;
    this.retryAfter = opts.retryAfter;
    this.attempts = opts.attempts ?? 1;
  }

  /** The field violations as {field: description}. */
  get fields(): Record<string, string> {
    return Object.fromEntries(this.fieldViolations.map((v) => [v.field, v.description]));
  }

  override toString(): string {
    const status = this.httpStatus === undefined ? "" : `${this.httpStatus} `;
    const tries = this.attempts > 1 ? ` (after ${this.attempts} attempts)` : "";
    return `${this.name}: ${status}${this.code}: ${this.message}${tries}`;
  }
}

/** Reads an error answer: the gateway's google.rpc.Status JSON, or whatever a
 * proxy in between answered (then only the HTTP status is known). */
export function errorFromResponse(response: Response, body: unknown, attempts = 1): MdcError {
  const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
  return errorFromStatus(body, response.status, response.statusText || `HTTP ${response.status}`, retryAfter, attempts);
}

/** The HTTP status the gateway answers for each code (docs/api.md section 1). */
const HTTP_STATUS_OF_CODE: Record<string, number> = {
  CANCELLED: 499, UNKNOWN: 500, INVALID_ARGUMENT: 400, DEADLINE_EXCEEDED: 504, NOT_FOUND: 404,
  ALREADY_EXISTS: 409, PERMISSION_DENIED: 403, RESOURCE_EXHAUSTED: 429, FAILED_PRECONDITION: 412,
  ABORTED: 409, OUT_OF_RANGE: 400, UNIMPLEMENTED: 501, INTERNAL: 500, UNAVAILABLE: 503, DATA_LOSS: 500,
  UNAUTHENTICATED: 401,
};

/** The error that ended a stream after it started: its {"error": google.rpc.Status} line (docs/api.md
 * "Streams over HTTP"). httpStatus is the status its code stands for (what the gateway answers the same
 * error before a stream starts: 503 for UNAVAILABLE, 429 for RESOURCE_EXHAUSTED, ...). */
export function errorFromStream(status: unknown): MdcError {
  const number = isObject(status) ? status["code"] : undefined;
  const code = (typeof number === "number" ? CODE_NAMES[number] : undefined) ?? "UNKNOWN";
  return errorFromStatus(status, HTTP_STATUS_OF_CODE[code] ?? 500, code);
}

function errorFromStatus(body: unknown, httpStatus: number, fallbackMessage: string, retryAfter?: number, attempts = 1): MdcError {
  const status = isObject(body) ? body : {};
  const number = status["code"];
  const code = (typeof number === "number" ? CODE_NAMES[number] : undefined) ?? HTTP_CODES[httpStatus] ?? "UNKNOWN";
  let message = status["message"];
  if (typeof message !== "string" || !message) {
    message = fallbackMessage;
  }
  const fieldViolations: FieldViolation[] = [];
  let reason: string | undefined;
  const details = status["details"];
  for (const detail of Array.isArray(details) ? details : []) {
    if (!isObject(detail)) continue;
    if (detail["@type"] === BAD_REQUEST) {
      const list = detail["fieldViolations"] ?? detail["field_violations"];
      for (const v of Array.isArray(list) ? list : []) {
        if (!isObject(v)) continue;
        fieldViolations.push({ field: String(v["field"] ?? ""), description: String(v["description"] ?? "") });
      }
    } else if (detail["@type"] === ERROR_INFO && typeof detail["reason"] === "string" && detail["reason"]) {
      reason = detail["reason"];
    }
  }
  return new MdcError(message as string, { httpStatus, code, fieldViolations, reason, retryAfter, attempts });
}

/**
 * A call that got no HTTP answer (connection refused, reset, timeout, a browser's CORS refusal), to `url` when
 * known. The message says what happened and what to check: Node's fetch names the cause (ECONNREFUSED, ...),
 * which is added; a browser's fetch says only "Failed to fetch", also when its CORS check refused the answer,
 * so from a page of another origin than the gateway's the message names that origin and MDC_CORS_ORIGINS.
 */
export function errorFromNetwork(cause: unknown, timedOut: boolean, attempts = 1, url?: string): MdcError {
  const what = timedOut ? "timed out" : "failed";
  const to = url ? ` to ${url}` : "";
  let message = `the request${to} ${what} without an answer: ${describeCause(cause)}`;
  if (!timedOut) message += networkHint(url);
  return new MdcError(message, {
    code: timedOut ? "DEADLINE_EXCEEDED" : "UNAVAILABLE",
    attempts,
    cause,
  });
}

/** The error and the causes under it (Node: TypeError "fetch failed" caused by ECONNREFUSED ...). */
function describeCause(cause: unknown): string {
  const parts: string[] = [];
  let current: unknown = cause;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof AggregateError && current.errors.length) {
      parts.push(current.errors.map((e) => describeOne(e)).join(", "));
      break;
    }
    parts.push(describeOne(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(" <- ");
}

function describeOne(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}: ${error.message}${typeof code === "string" && !error.message.includes(code) ? ` (${code})` : ""}`;
  }
  if (isObject(error) && typeof error["code"] === "string") return String(error["code"]);
  return String(error);
}

/** What to check after a failed fetch of `url`. */
function networkHint(url: string | undefined): string {
  const page = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  let target: string | undefined;
  try {
    target = url ? new URL(url).origin : undefined;
  } catch {
    target = undefined;
  }
  if (typeof page === "string" && page !== "null" && target !== undefined && page !== target) {
    return `. From this page (origin ${page}) a browser fails a call the same way when its CORS check refuses it: ` +
      `the gateway at ${target} answers pages of only the origins in its MDC_CORS_ORIGINS (comma-separated), so ` +
      `start mdc-gateway with MDC_CORS_ORIGINS=${page} (the browser's console names the cause); ` +
      `otherwise the gateway is not running or not reachable from here`;
  }
  return target ? `. Is mdc-gateway running and reachable at ${target}?` : "";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
