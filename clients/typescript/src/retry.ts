/**
 * When a failed attempt may be sent again: the same rule as the Python client
 * (clients/python/src/mdc/transport.py).
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
 * Idempotent: what the RPC behind the route says in the protos (its
 * idempotency_level), which reaches this client through the OpenAPI
 * document's x-mdc-idempotent as the generated IDEMPOTENT_OPERATIONS. A route
 * the table does not know is not idempotent.
 */
import { IDEMPOTENT_OPERATIONS } from "./generated/idempotent.js";

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

/** A route of IDEMPOTENT_OPERATIONS ("GET /v1/dashboard/runs/{runId}/orders") as a pattern of its paths. */
interface RoutePattern {
  key: string;
  method: string;
  pattern: RegExp;
  params: number;
  length: number;
}

/** The table's routes, most specific first: literal ones before those with parameters (so /runs/tags is not
 * /runs/{runId}), longer before shorter (so /v1/health is not /health). Patterns match the end of a path: the
 * base URL may carry a path prefix. */
const ROUTES: RoutePattern[] = Object.keys(IDEMPOTENT_OPERATIONS)
  .map((key) => {
    const [method, template] = key.split(" ") as [string, string];
    const parts = template.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return { key, method, pattern: new RegExp(`${parts.join("[^/]+")}$`), params: parts.length - 1, length: template.length };
  })
  .sort((a, b) => a.params - b.params || b.length - a.length);

/** The operation ("METHOD /path/{param}") of a request, or undefined when it is no route of the API. */
export function operationOf(method: string, url: string): string | undefined {
  const verb = method.toUpperCase();
  const path = pathOf(url);
  return ROUTES.find((r) => r.method === verb && r.pattern.test(path))?.key;
}

/** Whether sending this request twice has the effect of sending it once (its RPC's idempotency_level). */
export function isIdempotent(method: string, url: string): boolean {
  const operation = operationOf(method, url);
  return operation !== undefined && IDEMPOTENT_OPERATIONS[operation] === true;
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

/** Milliseconds before retry `attempt` (1-based): initialMs doubled each time, at most maxMs, with "equal
 * jitter" (between half and all of it), so that many clients cut off together do not return together. */
export function backoff(attempt: number, initialMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
