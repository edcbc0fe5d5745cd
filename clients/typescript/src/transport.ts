/**
 * Transport: how every call of the client, and of the dashboard (web/) through
 * it, reaches the gateway. openapi-fetch builds each request from the types
 * generated from the OpenAPI document; underneath it, one fetch gives each
 * attempt a timeout (AbortController) and sends a failed attempt again, with
 * exponential backoff and jitter, when shouldRetry (retry.ts) allows it. Every
 * error answer or lost call becomes an MdcError.
 *
 * Works in Node 20+ and in browsers alike: it needs fetch, AbortController and
 * streams, nothing of Node's.
 */
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import type { PathsWithMethod, RequiredKeysOf } from "openapi-typescript-helpers";
import type { paths } from "./generated/openapi.js";
import { MdcError, errorFromNetwork, errorFromResponse } from "./errors.js";
import { backoff, parseRetryAfter, shouldRetry } from "./retry.js";

export interface TransportOptions {
  /** The gateway, e.g. "http://127.0.0.1:8080". */
  baseUrl: string;
  /** A developer or admin token (Authorization: Bearer). */
  token?: string | undefined;
  /** Milliseconds each attempt may take, answer body included (default 10000); for a stream, its headers. */
  timeoutMs?: number;
  /** How many times a call is sent again when shouldRetry allows it (default 3). */
  retries?: number;
  /** Milliseconds before the first retry, doubled each time with jitter (default 250). */
  backoffMs?: number;
  /** Cap of the wait between retries (default 5000). */
  maxBackoffMs?: number;
  /** The fetch to send with (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** Told of every MdcError a call, or the opening of a stream, ends with (before it is thrown): e.g. the
   * dashboard ends its session on a 401. */
  onError?: (error: MdcError) => void;
}

/** The HTTP verbs of the API's routes. */
export type Verb = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** The routes ("/v1/dashboard/runs/{runId}") that take `verb`. */
export type RouteOf<V extends Verb> = PathsWithMethod<paths, Lowercase<V>>;
/** The options of one call of route P: `params` (`path`, `query`), `body`, `headers`. */
export type CallInit<V extends Verb, P extends RouteOf<V>> = MaybeOptionalInit<paths[P], Lowercase<V>>;
/** The options as a rest parameter: required when the route has required parameters or a body. */
export type InitArg<I> = RequiredKeysOf<I> extends never ? [init?: I] : [init: I];
type Operation<V extends Verb, P extends RouteOf<V>> = paths[P][Lowercase<V> & keyof paths[P]] & Record<string | number, unknown>;
/** What a 2xx answer of route P holds, as the OpenAPI document types it (instants as RFC 3339 strings). */
export type CallData<V extends Verb, P extends RouteOf<V>, I> = NonNullable<FetchResponse<Operation<V, P>, I, "application/json">["data"]>;

type Answer<D> = { data?: D; error?: unknown; response: Response };

export class Transport {
  /** The openapi-fetch client underneath (retries, timeout and token included): answers as openapi-fetch
   * gives them ({ data, error, response }), nothing thrown for an error answer. */
  readonly api: Client<paths>;
  /** The same for streams: the timeout covers the answer's headers, not its body. */
  private readonly streamApi: Client<paths>;
  /** How many times a failed call is sent again; also how many breaks in a row a stream resumes. */
  readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly onError: ((error: MdcError) => void) | undefined;
  /** How many attempts the answer took (for MdcError.attempts). */
  private readonly attemptsOf = new WeakMap<Response, number>();
  /** For upload: the fetch, the gateway and the token's header. */
  private readonly send: typeof fetch;
  private readonly baseUrl: string;
  private readonly authorization: Record<string, string>;

  constructor(options: TransportOptions) {
    this.retries = options.retries ?? 3;
    this.backoffMs = options.backoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.onError = options.onError;
    const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const timeoutMs = options.timeoutMs ?? 10_000;
    const clientOptions = {
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: (options.token ? { Authorization: `Bearer ${options.token}` } : {}) as Record<string, string>,
    };
    this.send = send;
    this.baseUrl = clientOptions.baseUrl;
    this.authorization = clientOptions.headers;
    this.api = createClient<paths>({ ...clientOptions, fetch: this.retrying(send, timeoutMs, false) });
    this.streamApi = createClient<paths>({ ...clientOptions, fetch: this.retrying(send, timeoutMs, true) });
  }

  /** Sends one call and returns its answer's data; throws MdcError for an error answer or no answer. */
  async call<V extends Verb, P extends RouteOf<V>, I extends CallInit<V, P>>(
    verb: V,
    path: P,
    ...init: InitArg<I>
  ): Promise<CallData<V, P, I>> {
    const request = this.api.request as (verb: string, path: string, init: unknown) => Promise<Answer<CallData<V, P, I>>>;
    return this.unwrap(request(verb.toLowerCase(), path, init[0]));
  }

  /** Opens a stream route: the 200 answer's body, unread. Throws MdcError as call does. */
  async openStream<P extends RouteOf<"GET">>(path: P, init: CallInit<"GET", P>): Promise<ReadableStream<Uint8Array> | null> {
    const get = this.streamApi.GET as (path: string, init: unknown) => Promise<Answer<ReadableStream<Uint8Array>>>;
    const data = await this.unwrap(get(path, { ...init, parseAs: "stream" }));
    return data ?? null;
  }

  /** POSTs `body`, a file (a Blob: fetch streams it, a file-backed one from disk), to `path` with `query`
   * and returns the answer's JSON. Sent once and without a timeout: an import answers once its file is
   * committed, which takes as long as the file. Throws MdcError as call does. */
  async upload(path: string, query: Record<string, string>, body: Blob, headers: Record<string, string> = {}): Promise<unknown> {
    const url = `${this.baseUrl}${path}?${new URLSearchParams(query)}`;
    let response: Response;
    let text: string;
    try {
      response = await this.send(url, {
        method: "POST",
        headers: { ...this.authorization, ...headers, "Content-Type": "application/octet-stream" },
        body,
      });
      text = await response.text();
    } catch (error) {
      throw this.failed(errorFromNetwork(error, false, 1, url));
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = undefined;
    }
    if (!response.ok) throw this.failed(errorFromResponse(response, json));
    return json;
  }

  /** Milliseconds to wait before retry n (0-based). */
  delayMs(n: number): number {
    return backoff(n + 1, this.backoffMs, this.maxBackoffMs);
  }

  /** The data of an openapi-fetch answer (of `api`), or MdcError for an error answer. */
  async unwrap<D>(pending: Promise<Answer<D>>): Promise<D> {
    let answer: Answer<D>;
    try {
      answer = await pending;
    } catch (error) {
      throw this.failed(error instanceof MdcError ? error : errorFromNetwork(error, false));
    }
    const { data, error, response } = answer;
    if (!response.ok) throw this.failed(errorFromResponse(response, error, this.attemptsOf.get(response) ?? 1));
    return data as D;
  }

  private failed(error: MdcError): MdcError {
    this.onError?.(error);
    return error;
  }

  /** The fetch under openapi-fetch: a timeout per attempt and the retries of shouldRetry. A 503 is sent
   * again always, a 429 with Retry-After after waiting it out, no answer when the request cannot have
   * left or the call is idempotent. A stream's 200 is returned as soon as its headers are in, body unread. */
  private retrying(send: typeof fetch, timeoutMs: number, stream: boolean) {
    return async (input: Request): Promise<Response> => {
      const body = input.method === "GET" || input.method === "HEAD" ? undefined : await input.arrayBuffer();
      for (let attempt = 1; ; attempt++) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), timeoutMs);
        let response: Response;
        try {
          const answer = await send(input.url, {
            method: input.method,
            headers: input.headers,
            body,
            redirect: "follow",
            signal: controller.signal,
          });
          if (stream && answer.ok) {
            this.attemptsOf.set(answer, attempt);
            return answer;
          }
          // Read the whole body inside the timeout.
          const bytes = await answer.arrayBuffer();
          response = new Response(answer.status === 204 ? null : bytes, {
            status: answer.status,
            statusText: answer.statusText,
            headers: answer.headers,
          });
        } catch (error) {
          if (attempt <= this.retries && shouldRetry({ method: input.method, url: input.url, error })) {
            await sleep(backoff(attempt, this.backoffMs, this.maxBackoffMs));
            continue;
          }
          throw errorFromNetwork(error, controller.signal.aborted, attempt, input.url);
        } finally {
          clearTimeout(timer);
        }
        const retryAfterSeconds = parseRetryAfter(response.headers.get("Retry-After"));
        if (attempt <= this.retries && shouldRetry({ method: input.method, url: input.url, status: response.status, retryAfterSeconds })) {
          // No sooner than the answer's Retry-After (the rate limit's 429).
          await sleep(Math.max(backoff(attempt, this.backoffMs, this.maxBackoffMs), (retryAfterSeconds ?? 0) * 1000));
          continue;
        }
        this.attemptsOf.set(response, attempt);
        return response;
      }
    };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
