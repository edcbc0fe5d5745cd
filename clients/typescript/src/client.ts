/**
 * MdcClient: the everyday tasks of collectors and strategy code, a thin facade
 * over openapi-fetch with the types generated from the gateway's OpenAPI
 * document (src/generated/openapi.ts, written by `npm run generate`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import { MdcError, errorFromNetwork, errorFromResponse } from "./errors.js";
import { parseRetryAfter, shouldRetry } from "./retry.js";
import { EventStream, type MarketEvent } from "./streams.js";

export type Schemas = components["schemas"];
/** The shortlist types a write takes (the schema's enum also names SHORTLIST_TYPE_UNSPECIFIED, which answers mean). */
export type ShortlistType = Exclude<Schemas["ShortlistType"], "SHORTLIST_TYPE_UNSPECIFIED">;
export type Scope = Schemas["Scope"];
export type ShortlistEntry = Schemas["ShortlistEntry"];
export type QuoteData = Schemas["QuoteData"];
type Query<P extends keyof paths, M extends "get"> = NonNullable<NonNullable<paths[P][M]>["parameters"]["query"]>;
/** The list types a shortlist read accepts. */
export type ListType = NonNullable<Query<"/v1/developer/lists", "get">["type"]>;
/** The candle intervals ("1minute" ... "1month"). */
export type CandleInterval = NonNullable<Query<"/v1/developer/historical-candles", "get">["interval"]>;
/** The record kinds a day replay takes ("quotes", "nifty", "shortlists"). */
export type ReplayKind = NonNullable<Query<"/v1/developer/replay", "get">["kinds"]>[number];
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

/** Keys of answers that hold an RFC 3339 instant; the facade turns them into Date. */
const DATE_KEYS = new Set([
  "timestamp", "time", "createdTime", "lastSeenTime", "updatedTime", "expiresAt",
  "startTime", "endTime", "stopLossTime", "targetTime",
]);
type DateKey =
  | "timestamp" | "time" | "createdTime" | "lastSeenTime" | "updatedTime" | "expiresAt"
  | "startTime" | "endTime" | "stopLossTime" | "targetTime";

/** An answer type with its instants (RFC 3339 strings on the wire) as Date. */
export type Dated<T> = T extends (infer U)[]
  ? Dated<U>[]
  : T extends object
    ? { [K in keyof T]: K extends DateKey ? (T[K] extends string | undefined ? Date | Extract<T[K], undefined> : Dated<T[K]>) : Dated<T[K]> }
    : T;

export interface MdcClientOptions {
  /** The gateway, e.g. "http://127.0.0.1:8080". */
  baseUrl: string;
  /** A developer or admin token (Authorization: Bearer). */
  token?: string | undefined;
  /** Milliseconds each attempt may take, answer body included (default 10000). */
  timeoutMs?: number;
  /** How many times a call is sent again when shouldRetry allows it (default 3): after a 503, a 429
   * with Retry-After (the rate limit; waited out, up to 60 s), or no answer to an idempotent call or
   * to one that could not connect. */
  retries?: number;
  /** Milliseconds before the first retry, doubled each time with jitter (default 250). */
  backoffMs?: number;
  /** Cap of the wait between retries (default 5000). */
  maxBackoffMs?: number;
  /** Sent as X-Run-Id on every call. */
  runId?: string;
  /** The fetch to send with (default: globalThis.fetch). */
  fetch?: typeof fetch;
}

/** The wire form of an instant: its UTC wall clock, sent with timezone "UTC". */
export function wallClock(at: Date): string {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new TypeError(`not a valid Date: ${String(at)}`);
  }
  return at.toISOString().slice(0, 19);
}

export const WIRE_TIMEZONE = "UTC";

/** Answers' RFC 3339 instants (see DATE_KEYS) as Date, everything else as is. */
export function withDates<T>(value: T): Dated<T> {
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    }
    if (typeof v === "string" && key !== undefined && DATE_KEYS.has(key)) {
      const d = new Date(v);
      return Number.isNaN(d.getTime()) ? v : d;
    }
    return v;
  };
  return walk(value) as Dated<T>;
}

const attemptsOf = new WeakMap<Response, number>();

export class MdcClient {
  /** The openapi-fetch client underneath (retries, timeout and token included), for any route. */
  readonly api: Client<paths>;
  /** The same for the stream routes: the timeout covers the answer's headers, not its body. */
  private readonly streamApi: Client<paths>;
  private readonly clock = new AsyncLocalStorage<Record<string, string>>();
  private readonly runId: string | undefined;
  private readonly retries: number;
  private readonly delayMs: (n: number) => number;

  constructor(options: MdcClientOptions) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const retries = options.retries ?? 3;
    const backoffMs = options.backoffMs ?? 250;
    const maxBackoffMs = options.maxBackoffMs ?? 5_000;
    const send = options.fetch ?? globalThis.fetch;
    this.runId = options.runId;
    this.retries = retries;
    this.delayMs = (n) => backoff(n + 1, backoffMs, maxBackoffMs);

    // Every call goes through this fetch: a timeout per attempt (AbortController)
    // and retries with exponential backoff and jitter when shouldRetry (src/retry.ts)
    // says so: a 503 always, a 429 with Retry-After (waited out); no answer only when the request cannot have left,
    // or the call is idempotent (reads, collector writes; not the creates). A stream
    // (`stream`) is returned as soon as its 200 answer's headers are in, body unread.
    const retryingFetch = (stream: boolean) => async (input: Request): Promise<Response> => {
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
            clearTimeout(timer);
            attemptsOf.set(answer, attempt);
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
          if (attempt <= retries && shouldRetry({ method: input.method, url: input.url, error })) {
            await sleep(backoff(attempt, backoffMs, maxBackoffMs));
            continue;
          }
          throw errorFromNetwork(error, controller.signal.aborted, attempt);
        } finally {
          clearTimeout(timer);
        }
        const retryAfterSeconds = parseRetryAfter(response.headers.get("Retry-After"));
        if (attempt <= retries && shouldRetry({ method: input.method, url: input.url, status: response.status, retryAfterSeconds })) {
          // No sooner than the answer's Retry-After (the rate limit's 429).
          await sleep(Math.max(backoff(attempt, backoffMs, maxBackoffMs), (retryAfterSeconds ?? 0) * 1000));
          continue;
        }
        attemptsOf.set(response, attempt);
        return response;
      }
    };

    const clientOptions = {
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
    };
    this.api = createClient<paths>({ ...clientOptions, fetch: retryingFetch(false) });
    this.streamApi = createClient<paths>({ ...clientOptions, fetch: retryingFetch(true) });
  }

  // Backtest clock ---------------------------------------------------------------

  /**
   * Runs fn with "now" set to `now` for every call made inside it (also across
   * awaits): X-Current-Timestamp / X-Current-Timezone. Reads then see nothing
   * stamped at or after `now`; asking for a later instant is a 403 with reason
   * FUTURE_READ. Calls nest; the innermost clock wins.
   */
  withBacktestClock<T>(now: Date, fn: () => T): T {
    return this.clock.run(
      { "X-Current-Timestamp": wallClock(now), "X-Current-Timezone": WIRE_TIMEZONE },
      fn,
    );
  }

  // Collector writes (idempotent: the same key again replaces) --------------------

  /** Stores a shortlist snapshot taken at `at`; entries in rank order. */
  async saveShortlist(at: Date, shortlistType: ShortlistType, entries: ShortlistEntry[], scope?: Scope): Promise<void> {
    await this.call(this.api.POST("/v1/developer/collector/shortlists", {
      headers: this.headers(),
      body: { data: { timestamp: wallClock(at), timezone: WIRE_TIMEZONE, shortlistType, entries, ...(scope ? { scope } : {}) } },
    }));
  }

  /** Stores the NIFTY 50 quote taken at `at`. */
  async saveNifty(at: Date, quoteData: QuoteData, dayChangePerc: number): Promise<void> {
    await this.call(this.api.POST("/v1/developer/collector/nifty", {
      headers: this.headers(),
      body: { data: { timestamp: wallClock(at), timezone: WIRE_TIMEZONE, quoteData, dayChangePerc } },
    }));
  }

  /** Stores the quotes of several stocks taken at `at` (symbol → QuoteData), all or none. */
  async saveQuotes(at: Date, quotes: Record<string, QuoteData>): Promise<void> {
    await this.call(this.api.POST("/v1/developer/collector/quotes", {
      headers: this.headers(),
      body: {
        data: {
          timestamp: wallClock(at),
          timezone: WIRE_TIMEZONE,
          quotes: Object.entries(quotes).map(([nseSymbol, quoteData]) => ({ nseSymbol, quoteData })),
        },
      },
    }));
  }

  // Developer reads -----------------------------------------------------------------

  /** The shortlist snapshot as of `asOf` (now, or the backtest clock, when absent). */
  async shortlist(type: ListType, opts: { asOf?: Date; scope?: Query<"/v1/developer/lists", "get">["scope"] } = {}): Promise<Dated<Schemas["Shortlist"]>> {
    return withDates(await this.call(this.api.GET("/v1/developer/lists", {
      headers: this.headers(),
      params: { query: { type, ...instant("datetime", opts.asOf), ...(opts.scope ? { scope: opts.scope } : {}) } },
    })));
  }

  /** The stock's quote as of `asOf` (the latest stored when absent). */
  async quote(symbol: string, opts: { asOf?: Date } = {}): Promise<Dated<Schemas["StockQuote"]>> {
    return withDates(await this.call(this.api.GET("/v1/developer/quote", {
      headers: this.headers(),
      params: { query: { symbol, ...instant("datetime", opts.asOf) } },
    })));
  }

  /** The NIFTY 50 quote as of `asOf`. */
  async nifty(opts: { asOf?: Date } = {}): Promise<Dated<Schemas["NiftyQuote"]>> {
    return withDates(await this.call(this.api.GET("/v1/developer/nifty", {
      headers: this.headers(),
      params: { query: { ...instant("datetime", opts.asOf) } },
    })));
  }

  /**
   * Every stored quote of the symbol in [start, end), ascending, fetched page
   * by page (following nextPageToken) as the iterator is consumed. The backtest
   * clock in force when quoteTimeline is called applies to every page.
   */
  quoteTimeline(
    symbol: string,
    opts: { start?: Date; end?: Date; pageSize?: number } = {},
  ): AsyncIterableIterator<Dated<Schemas["StockQuote"]>> {
    const headers = this.headers();
    const query = { symbol, ...range(opts), ...(opts.pageSize ? { pageSize: opts.pageSize } : {}) };
    return this.pages(async (pageToken) => {
      const page = await this.call(this.api.GET("/v1/developer/quote-timeline", {
        headers,
        params: { query: { ...query, ...(pageToken ? { pageToken } : {}) } },
      }));
      return { items: page.quotes ?? [], next: page.nextPageToken };
    });
  }

  /**
   * Every stored NIFTY 50 quote in [start, end), ascending, page by page, as
   * quoteTimeline (the clock in force when niftyTimeline is called applies).
   */
  niftyTimeline(opts: { start?: Date; end?: Date; pageSize?: number } = {}): AsyncIterableIterator<Dated<Schemas["NiftyQuote"]>> {
    const headers = this.headers();
    const query = { ...range(opts), ...(opts.pageSize ? { pageSize: opts.pageSize } : {}) };
    return this.pages(async (pageToken) => {
      const page = await this.call(this.api.GET("/v1/developer/nifty-timeline", {
        headers,
        params: { query: { ...query, ...(pageToken ? { pageToken } : {}) } },
      }));
      return { items: page.quotes ?? [], next: page.nextPageToken };
    });
  }

  /** OHLCV candles of the symbol built from stored quotes in [start, end). */
  async candles(
    symbol: string,
    opts: { interval: CandleInterval; start?: Date; end?: Date },
  ): Promise<Dated<Schemas["CandleSeries"]>> {
    return withDates(await this.call(this.api.GET("/v1/developer/historical-candles", {
      headers: this.headers(),
      params: {
        query: {
          symbol,
          interval: opts.interval,
          ...range(opts),
        },
      },
    })));
  }

  // Streams (docs/api.md section 10) ---------------------------------------------------

  /**
   * The stock quotes of `symbols` as their writes commit: an async iterator of events
   * (`event.quote`, `event.cursor`) that never ends by itself. Resolves once the watch is live
   * (its first message came), so whatever commits afterwards reaches it; rejects with MdcError
   * when it cannot open (bad symbol, token; 412 under the backtest clock).
   */
  async watchQuotes(symbols: string[], opts: StreamOptions = {}): Promise<EventStream<StreamEvent>> {
    const headers = this.headers();
    return this.stream(opts, false, (cursor) => this.streamApi.GET("/v1/developer/watch/quotes", {
      headers, parseAs: "stream", params: { query: { symbols, ...(cursor ? { cursor } : {}) } },
    }));
  }

  /** NIFTY 50 quotes as their writes commit (`event.nifty`); as watchQuotes. */
  async watchNifty(opts: StreamOptions = {}): Promise<EventStream<StreamEvent>> {
    const headers = this.headers();
    return this.stream(opts, false, (cursor) => this.streamApi.GET("/v1/developer/watch/nifty", {
      headers, parseAs: "stream", params: { query: { ...(cursor ? { cursor } : {}) } },
    }));
  }

  /** Shortlist snapshots of one type and scope (TOP_5 by default) as their writes commit (`event.shortlist`); as watchQuotes. */
  async watchShortlists(
    type: Query<"/v1/developer/watch/shortlists", "get">["type"],
    opts: StreamOptions & { scope?: Query<"/v1/developer/watch/shortlists", "get">["scope"] } = {},
  ): Promise<EventStream<StreamEvent>> {
    const headers = this.headers();
    return this.stream(opts, false, (cursor) => this.streamApi.GET("/v1/developer/watch/shortlists", {
      headers, parseAs: "stream",
      params: { query: { type, ...(opts.scope ? { scope: opts.scope } : {}), ...(cursor ? { cursor } : {}) } },
    }));
  }

  /**
   * Every stored record of a trading day (`date`: YYYY-MM-DD, Asia/Kolkata) in time order (NIFTY
   * before stock quotes before shortlists at one instant): an async iterator that ends after the
   * last one. `symbols` filters the stock quotes (empty: all), `kinds` picks the record kinds (empty:
   * all). Under the backtest clock in force when it is called, only records stamped before it.
   */
  async replayDay(
    date: string,
    opts: StreamOptions & { symbols?: string[]; kinds?: ReplayKind[] } = {},
  ): Promise<EventStream<StreamEvent>> {
    const headers = this.headers();
    const query = {
      date,
      ...(opts.symbols?.length ? { symbols: opts.symbols } : {}),
      ...(opts.kinds?.length ? { kinds: opts.kinds } : {}),
    };
    return this.stream(opts, true, (cursor) => this.streamApi.GET("/v1/developer/replay", {
      headers, parseAs: "stream", params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
    }));
  }

  // Dashboard: runs and orders -----------------------------------------------------

  /** The caller's runs, newest first, page by page. */
  runs(opts: { tag?: string; pageSize?: number } = {}): AsyncIterableIterator<Dated<Schemas["Run"]>> {
    const headers = this.headers();
    return this.pages(async (pageToken) => {
      const page = await this.call(this.api.GET("/v1/dashboard/runs", {
        headers,
        params: { query: { ...(opts.tag ? { tag: opts.tag } : {}), ...(opts.pageSize ? { pageSize: opts.pageSize } : {}), ...(pageToken ? { pageToken } : {}) } },
      }));
      return { items: page.runs ?? [], next: page.nextPageToken };
    });
  }

  /** Creates a run (a backtest or a live session) over [start, end]. */
  async createRun(name: string, start: Date, end: Date, opts: { tags?: string[] } = {}): Promise<Dated<Schemas["Run"]>> {
    return withDates(await this.call(this.api.POST("/v1/dashboard/runs", {
      headers: this.headers(),
      body: {
        name,
        ...(opts.tags ? { tags: opts.tags } : {}),
        timezone: WIRE_TIMEZONE,
        startDatetime: wallClock(start),
        endDatetime: wallClock(end),
      },
    })));
  }

  /** A run's orders ascending by time, each with its outcome, page by page. */
  orders(runId: string, opts: { targetGainPercentage?: number; pageSize?: number } = {}): AsyncIterableIterator<Dated<Schemas["Order"]>> {
    const headers = this.headers();
    return this.pages(async (pageToken) => {
      const page = await this.call(this.api.GET("/v1/dashboard/runs/{runId}/orders", {
        headers,
        params: {
          path: { runId },
          query: {
            ...(opts.targetGainPercentage !== undefined ? { targetGainPercentage: opts.targetGainPercentage } : {}),
            ...(opts.pageSize ? { pageSize: opts.pageSize } : {}),
            ...(pageToken ? { pageToken } : {}),
          },
        },
      }));
      return { items: page.orders ?? [], next: page.nextPageToken };
    });
  }

  /** Adds an order placed at `at` to a run. */
  async createOrder(
    runId: string,
    order: { symbol: string; at: Date; entryPrice: number; stopLossPrice: number; takeProfitPrice: number },
  ): Promise<Dated<Schemas["Order"]>> {
    return withDates(await this.call(this.api.POST("/v1/dashboard/runs/{runId}/orders", {
      headers: this.headers(),
      params: { path: { runId } },
      body: {
        nseSymbol: order.symbol,
        datetime: wallClock(order.at),
        timezone: WIRE_TIMEZONE,
        entryPrice: order.entryPrice,
        stopLossPrice: order.stopLossPrice,
        takeProfitPrice: order.takeProfitPrice,
      },
    })));
  }

  // Admin -----------------------------------------------------------------------------

  /** Creates a developer (admin token needed); its token is in this answer only. */
  async createDeveloper(username: string, role: "developer" | "admin" = "developer"): Promise<Dated<Schemas["Developer"]>> {
    return withDates(await this.call(this.api.POST("/v1/admin/developers", {
      headers: this.headers(),
      body: { username, role },
    })));
  }

  // Plumbing ----------------------------------------------------------------------------

  private headers(): Record<string, string> {
    return { ...(this.runId ? { "X-Run-Id": this.runId } : {}), ...(this.clock.getStore() ?? {}) };
  }

  /** Opens a stream: `ends` for a replay, not for a watch. Every wait for the answer's next bytes
   * (heartbeats included) may take up to opts.idleTimeoutMs; past that the stream reconnects. */
  private stream(
    opts: StreamOptions,
    ends: boolean,
    get: (cursor: string | undefined) => Promise<{ data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response }>,
  ): Promise<EventStream<StreamEvent>> {
    if (opts.idleTimeoutMs !== undefined && !(opts.idleTimeoutMs >= 0)) {
      throw new RangeError(`idleTimeoutMs must be >= 0 (0: no idle timeout), not ${opts.idleTimeoutMs}`);
    }
    return EventStream.open(
      async (cursor) => {
        const { data, error, response } = await get(cursor);
        if (!response.ok) throw errorFromResponse(response, error, attemptsOf.get(response) ?? 1);
        return data ?? null;
      },
      {
        cursor: opts.cursor,
        ends,
        retries: opts.resume === false ? 0 : this.retries,
        delayMs: this.delayMs,
        idleTimeoutMs: opts.idleTimeoutMs,
        convert: (event) => withDates(event),
      },
    );
  }

  /** The answer's data, or MdcError for any error answer. */
  private async call<D>(pending: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
    const { data, error, response } = await pending;
    if (!response.ok) {
      throw errorFromResponse(response, error, attemptsOf.get(response) ?? 1);
    }
    return data as D;
  }

  private pages<T>(fetchPage: (token: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>): AsyncIterableIterator<Dated<T>> {
    return (async function* () {
      const seen = new Set<string>();
      let token: string | undefined;
      for (;;) {
        const { items, next } = await fetchPage(token);
        for (const item of items) yield withDates(item);
        if (!next) return;
        if (seen.has(next)) throw new Error(`the server repeated page token ${next}`);
        seen.add(next);
        token = next;
      }
    })();
  }
}

function instant<K extends string>(field: K, at: Date | undefined): Partial<Record<K | "timezone", string>> {
  if (!at) return {};
  return { [field]: wallClock(at), timezone: WIRE_TIMEZONE } as Partial<Record<K | "timezone", string>>;
}

/** The [start, end) window of a range read, in the wire form. */
function range(opts: { start?: Date | undefined; end?: Date | undefined }): { timezone?: string; startDatetime?: string; endDatetime?: string } {
  return {
    ...(opts.start || opts.end ? { timezone: WIRE_TIMEZONE } : {}),
    ...(opts.start ? { startDatetime: wallClock(opts.start) } : {}),
    ...(opts.end ? { endDatetime: wallClock(opts.end) } : {}),
  };
}

function backoff(attempt: number, initialMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2); // "equal jitter"
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export { MdcError };
