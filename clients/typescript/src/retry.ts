/**
 * When a failed attempt may be sent again: the same rule as the Python client
 * (clients/python/src/mdc/transport.py and methods.py).
 *
 * - An answer of 503: the gateway or the server said nothing was done (server
 *   down, draining, PostgreSQL unreachable or too slow), so any call may be
 *   sent again.
 * - An answer of 429 with `Retry-After`: the developer's rate limit refused the
 *   call before doing anything (reason RATE_LIMITED), so any call may be sent
 *   again, no sooner than Retry-After says. A 429 without it (failed
 *   sign-ins) is final.
 * - An answer whose Retry-After asks for more than MAX_RETRY_AFTER_SECONDS is
 *   final: the client does not block its caller for minutes on its own
 *   (MdcError.retryAfter tells how long to wait).
 * - No answer, and the request cannot have left: the connection was refused
 *   or could not be opened (ECONNREFUSED, DNS failure, unreachable host,
 *   connect timeout). Any call may be sent again.
 * - No answer after the request may have left (reset, closed socket, our
 *   timeout): only an idempotent call may be sent again. A create (run, order,
 *   developer) whose answer was lost may have landed; sending it again could
 *   make a duplicate, so the error goes to the caller.
 * - Any other answer (a 4xx above all) is final.
 *
 * Idempotent: GET, HEAD, PUT and DELETE, and the collector writes
 * (`POST /v1/developer/collector/*`), which replace the record of their
 * natural key (docs/api.md section 2). PATCH is not (refresh-key makes a new
 * key each time), nor is any other POST.
 */

/** Error codes (of the error or its cause) of a connection that was never made. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE"]);
const IDEMPOTENT_POST_PREFIX = "/v1/developer/collector/";

/** The longest Retry-After (seconds) the client waits out by itself. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** The seconds of a Retry-After header (delay-seconds; mdc never sends the date form), or undefined. */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  const text = value?.trim() ?? "";
  return /^[0-9]+$/.test(text) ? Number(text) : undefined;
}

/** One failed attempt: either an HTTP answer (`status`) or none (`error`). */
export interface FailedAttempt {
  /** The HTTP method, e.g. "POST". */
  method: string;
  /** The URL (absolute) or path of the request. */
  url: string;
  /** The status of the answer; undefined when no answer came. */
  status?: number | undefined;
  /** The answer's Retry-After in seconds (parseRetryAfter), when it had one. */
  retryAfterSeconds?: number | undefined;
  /** Why no answer came (fetch's error, or the abort of a timeout). */
  error?: unknown;
}

/** Whether sending this request twice has the effect of sending it once. */
export function isIdempotent(method: string, url: string): boolean {
  const verb = method.toUpperCase();
  if (IDEMPOTENT_METHODS.has(verb)) return true;
  // includes, not startsWith: the base URL may carry a path prefix.
  return verb === "POST" && pathOf(url).includes(IDEMPOTENT_POST_PREFIX);
}

/** Whether the error proves the request never reached the server. */
export function neverSent(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
    // An AggregateError (happy eyeballs: every address refused) counts when all were refused.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0 && errors.every((x) => neverSent(x))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether a failed attempt may be sent again (how many retries are left aside). */
export function shouldRetry(attempt: FailedAttempt): boolean {
  if (attempt.status !== undefined) {
    const wait = attempt.retryAfterSeconds;
    if (wait !== undefined && wait > MAX_RETRY_AFTER_SECONDS) return false;
    return attempt.status === 503 || (attempt.status === 429 && wait !== undefined);
  }
  return neverSent(attempt.error) || isIdempotent(attempt.method, attempt.url);
}

function pathOf(url: string): string {
  try {
    return new URL(url, "http://x").pathname;
  } catch {
    return url;
  }
}
