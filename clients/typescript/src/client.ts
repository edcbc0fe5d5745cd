/**
 * MdcClient: the everyday tasks of collectors, strategy code and dashboards, a
 * small facade over the generated types (src/generated/openapi.ts) and the
 * transport (transport.ts). The methods are those of the Python client
 * (clients/python/src/mdc/client.py), in camelCase. One argument style
 * throughout: what a call needs is positional, everything optional is in one
 * options object last; times go in as Date (trading days too: tradingDay) and
 * instants in answers come back as Date.
 */
import type { Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import { checkKeys, invalidArgument } from "./checks.js";
import { EventStream } from "./streams.js";
import { type Dated, WIRE_TIMEZONE, instantParam, rangeParams, tradingDay, wallClock, withDates } from "./times.js";
import { type CallData, type CallInit, type InitArg, type RouteOf, Transport, type TransportOptions, type Verb } from "./transport.js";
import type {
  Adjustment, CorporateActionEntry, CorporateActionEntryResult, FileImportResult, InstrumentFile, InstrumentLookup,
  CandleInterval, CandleRow, CandlesOfSymbols, ExportKind, ExportOptions, ImportKind, ImportOptions, ImportResult, ListScope, ListType, QuoteData, ReplayKind, Role, Schemas, Scope,
  ShortlistEntry, ShortlistType, StreamEvent, StreamOptions, WatchListType, WatchScope,
} from "./types.js";

export interface MdcClientOptions extends TransportOptions {
  /** Sent as X-Run-Id on every call (logged by the server). */
  runId?: string;
}

type Items<A> = A extends readonly (infer U)[] | null | undefined ? U : never;
/** The options of a paged list route: its query takes the pageToken of the page to read. */
type PageInit = { params?: { query?: { pageToken?: string } } };

export class MdcClient {
  /** How calls reach the gateway (shared by the clients backtestClock makes). */
  readonly transport: Transport;
  /** The typed openapi-fetch client underneath (token, timeout and retries included), for any route:
   * answers as { data, error, response }, without this client's run id or backtest clock. */
  readonly api: Client<paths>;
  /** The headers of every call: X-Run-Id, the backtest clock. */
  readonly #headers: Readonly<Record<string, string>>;

  /** A client of the gateway at `options.baseUrl`, or one more client over an existing transport (`headers`:
   * sent on every call; backtestClock passes the clock's). */
  constructor(options: MdcClientOptions | Transport, headers: Readonly<Record<string, string>> = {}) {
    this.transport = options instanceof Transport ? options : new Transport(options);
    this.api = this.transport.api;
    const runId = options instanceof Transport ? undefined : options.runId;
    this.#headers = { ...(runId ? { "X-Run-Id": runId } : {}), ...headers };
  }

  // Any route ------------------------------------------------------------------------

  /**
   * Calls any route of the API and returns its answer's data, typed from the OpenAPI document as it is on
   * the wire (instants as RFC 3339 strings; `withDates` turns them into Date); MdcError for any failure.
   * `client.call("GET", "/v1/dashboard/runs/tags")`, `client.call("DELETE", "/v1/dashboard/runs/{runId}",
   * { params: { path: { runId } } })`. The run id and backtest clock of this client are sent.
   */
  call<V extends Verb, P extends RouteOf<V>, I extends CallInit<V, P>>(verb: V, path: P, ...init: InitArg<I>): Promise<CallData<V, P, I>> {
    const options = (init[0] ?? {}) as { headers?: Record<string, string> };
    const sent = { ...options, headers: { ...this.#headers, ...options.headers } } as unknown as I;
    return this.transport.call<V, P, I>(verb, path, ...([sent] as InitArg<I>));
  }

  /**
   * Every item of a paged list route, following nextPageToken as the iterator is consumed: `items` names
   * the answer's list, e.g. `client.paginate("/v1/admin/developers", { params: { query: { pageSize: 100 } } },
   * "developers")`. Items as `call` gives them.
   */
  paginate<P extends RouteOf<"GET">, I extends CallInit<"GET", P> & PageInit, K extends keyof CallData<"GET", P, I>>(
    path: P,
    init: I,
    items: K,
  ): AsyncIterableIterator<Items<CallData<"GET", P, I>[K]>> {
    const call = (pageToken: string | undefined) => {
      const query = { ...init.params?.query, ...(pageToken ? { pageToken } : {}) };
      const page = { ...init, params: { ...init.params, query } } as I;
      return this.call<"GET", P, I>("GET", path, ...([page] as InitArg<I>));
    };
    return (async function* () {
      const seen = new Set<string>();
      let token: string | undefined;
      for (;;) {
        const page = await call(token);
        yield* (page[items] ?? []) as Items<CallData<"GET", P, I>[K]>[];
        const next = (page as { nextPageToken?: string }).nextPageToken;
        if (!next) return;
        if (seen.has(next)) throw new Error(`${path}: the server repeated page token ${next}`);
        seen.add(next);
        token = next;
      }
    })();
  }

  // Backtest clock ----------------------------------------------------------------------

  /**
   * A client whose every call is made with "now" set to `now` (X-Current-Timestamp / X-Current-Timezone):
   * reads see nothing stamped at or after it, and asking for a later instant is a 403 with reason
   * FUTURE_READ. It shares this client's transport; `runId` replaces its run id.
   * `const past = client.backtestClock(at); await past.shortlist("TOP_GAINERS")`.
   */
  backtestClock(now: Date, opts: { runId?: string } = {}): MdcClient {
    return new MdcClient(this.transport, {
      ...this.#headers,
      "X-Current-Timestamp": wallClock(now, "X-Current-Timestamp"),
      "X-Current-Timezone": WIRE_TIMEZONE,
      ...(opts.runId ? { "X-Run-Id": opts.runId } : {}),
    });
  }

  // Collector writes (idempotent: the same key again replaces) ---------------------------

  // Each write checks its input before sending: a key that is no field of the contract (a misspelled
  // `lastPrice` from JSON a collector parsed) is MdcError INVALID_ARGUMENT naming it by the server's path
  // (`data.quotes[0].quoteData.payload.lastPrice`) and the key it probably meant, since the server ignores
  // unknown fields and would store the quote without it.

  /** Stores a shortlist snapshot taken at `at`; entries in rank order (an empty list is an observation too).
   * `scope`: TOP_5 (the default) or FULL. */
  async saveShortlist(at: Date, shortlistType: ShortlistType, entries: ShortlistEntry[], opts: { scope?: Scope } = {}): Promise<void> {
    const data = { timestamp: wallClock(at, "data.timestamp"), timezone: WIRE_TIMEZONE, shortlistType, entries, ...(opts.scope ? { scope: opts.scope } : {}) };
    if (!Array.isArray(entries)) throw invalidArgument("data.entries", "expected an array of entries");
    checkKeys({ data }, "SaveShortlistRequest", "");
    await this.call("POST", "/v1/developer/collector/shortlists", { body: { data } });
  }

  /** Stores the NIFTY 50 quote taken at `at`. */
  async saveNifty(at: Date, quote: QuoteData, dayChangePerc: number): Promise<void> {
    const data = { timestamp: wallClock(at, "data.timestamp"), timezone: WIRE_TIMEZONE, quoteData: quote, dayChangePerc };
    checkKeys({ data }, "SaveNiftyRequest", "");
    await this.call("POST", "/v1/developer/collector/nifty", { body: { data } });
  }

  /** Stores the quotes of several stocks taken at `at` (symbol → QuoteData), all or none; `data.quotes[i]` in
   * errors is the i-th symbol of `quotes` in its order. */
  async saveQuotes(at: Date, quotes: Record<string, QuoteData>): Promise<void> {
    if (quotes === null || typeof quotes !== "object" || Array.isArray(quotes)) {
      throw invalidArgument("data.quotes", "expected an object of symbol to quote");
    }
    const items = Object.entries(quotes).map(([nseSymbol, quoteData]) => ({ nseSymbol, quoteData }));
    const data = { timestamp: wallClock(at, "data.timestamp"), timezone: WIRE_TIMEZONE, quotes: items };
    checkKeys({ data }, "SaveQuotesRequest", "");
    await this.call("POST", "/v1/developer/collector/quotes", { body: { data } });
  }

  /** Whether the trading day `day` names (tradingDay) is a holiday, and whether the exchange trades. */
  async checkHoliday(day: Date): Promise<Schemas["CheckHolidayResponse"]> {
    return this.call("GET", "/v1/developer/collector/check-holiday", { params: { query: { date: tradingDay(day, "date") } } });
  }

  // Developer reads -----------------------------------------------------------------------

  /** The shortlist snapshot as of `asOf` (now, or the backtest clock, when absent); MdcError NOT_FOUND when
   * that trading day has none at or before it. */
  async shortlist(type: ListType, opts: { asOf?: Date; scope?: ListScope } = {}): Promise<Dated<Schemas["Shortlist"]>> {
    const query = { type, ...instantParam("datetime", opts.asOf), ...(opts.scope ? { scope: opts.scope } : {}) };
    return withDates(await this.call("GET", "/v1/developer/lists", { params: { query } }));
  }

  /** The stock's quote as of `asOf` (the latest stored when absent). */
  async quote(symbol: string, opts: { asOf?: Date } = {}): Promise<Dated<Schemas["StockQuote"]>> {
    return withDates(await this.call("GET", "/v1/developer/quote", { params: { query: { symbol, ...instantParam("datetime", opts.asOf) } } }));
  }

  /** The NIFTY 50 quote as of `asOf` (the latest stored when absent). */
  async nifty(opts: { asOf?: Date } = {}): Promise<Dated<Schemas["NiftyQuote"]>> {
    return withDates(await this.call("GET", "/v1/developer/nifty", { params: { query: instantParam("datetime", opts.asOf) } }));
  }

  /** The cross-section: the latest quote of each of `symbols` (up to 1000; "NIFTY" is the index) at or before
   * `asOf` (now, or the backtest clock, when absent) within its trading day, in one call: `quotes` in the
   * order asked, the symbols without one in `missing`. Without `symbols`: every symbol quoted that day, by
   * symbol, all pages read into one answer. `adjustment` ("split" or "all"; needs `symbols`) adjusts prices and
   * quantities for corporate actions (docs/api.md section 13.4). */
  async quotes(symbols: string[] | undefined, opts: { asOf?: Date; adjustment?: Adjustment } = {}): Promise<Dated<Schemas["QuoteCrossSection"]>> {
    const query = { ...(symbols?.length ? { symbols } : {}), ...instantParam("datetime", opts.asOf), ...adjusted(opts) };
    const first = await this.call("GET", "/v1/developer/quotes", { params: { query } });
    if (symbols?.length) return withDates(first);
    const quotes = [...(first.quotes ?? [])];
    for (let token = first.nextPageToken; token; ) {
      const page = await this.call("GET", "/v1/developer/quotes", { params: { query: { ...query, pageToken: token } } });
      quotes.push(...(page.quotes ?? []));
      token = page.nextPageToken;
    }
    return withDates({ ...first, quotes, nextPageToken: "" });
  }

  /** Every stored quote of the symbol in [start, end), ascending, fetched page by page as the iterator is
   * consumed. `end` defaults to now (or the backtest clock), `start` to 09:15 IST of end's trading day.
   * `adjustment` ("split" or "all") adjusts each quote for the corporate actions after its day that are known
   * today, or at the backtest clock (docs/api.md section 13.4). */
  quoteTimeline(
    symbol: string,
    opts: { start?: Date; end?: Date; pageSize?: number; adjustment?: Adjustment } = {},
  ): AsyncIterableIterator<Dated<Schemas["StockQuote"]>> {
    const query = { symbol, ...rangeParams(opts), ...pageSize(opts), ...adjusted(opts) };
    return dated(this.paginate("/v1/developer/quote-timeline", { params: { query } }, "quotes"));
  }

  /** Every stored NIFTY 50 quote in [start, end), ascending, page by page, as quoteTimeline. */
  niftyTimeline(opts: { start?: Date; end?: Date; pageSize?: number } = {}): AsyncIterableIterator<Dated<Schemas["NiftyQuote"]>> {
    const query = { ...rangeParams(opts), ...pageSize(opts) };
    return dated(this.paginate("/v1/developer/nifty-timeline", { params: { query } }, "quotes"));
  }

  /** OHLCV candles of the symbol ("NIFTY" for the index) built from the quotes stamped in [start, end);
   * `adjustment` ("split" or "all") as quoteTimeline's, the answer's `adjustment` saying which. */
  async candles(
    symbol: string,
    interval: CandleInterval,
    opts: { start?: Date; end?: Date; adjustment?: Adjustment } = {},
  ): Promise<Dated<Schemas["CandleSeries"]>> {
    const query = { symbol, interval, ...rangeParams(opts), ...adjusted(opts) };
    return withDates(await this.call("GET", "/v1/developer/historical-candles", { params: { query } }));
  }

  /**
   * OHLCV candles of each of `symbols` (1-100; "NIFTY" is the index) in [start, end) in one call, each series
   * exactly as `candles` builds it: `series` in the order asked, the symbols without a candle in `missing`, and
   * `rows`, the long table of all of them (alpaca's multi-symbol bars): one row per candle, keyed by
   * (symbol, time), in the order asked, `volume` null where no quote of the bucket reported one. `adjustment` as
   * candles'.
   */
  async candlesOfSymbols(
    symbols: string[],
    interval: CandleInterval,
    opts: { start?: Date; end?: Date; adjustment?: Adjustment } = {},
  ): Promise<CandlesOfSymbols> {
    if (!Array.isArray(symbols) || symbols.length === 0) throw invalidArgument("symbols", "is required: name 1-100 symbols");
    const query = { symbols, interval, ...rangeParams(opts), ...adjusted(opts) };
    const answer = withDates(await this.call("GET", "/v1/developer/candles", { params: { query } }));
    const rows: CandleRow[] = (answer.series ?? []).flatMap((s) =>
      (s.candles ?? []).map((c) => ({
        symbol: s.symbol ?? "", time: c.time!, open: c.open ?? 0, high: c.high ?? 0, low: c.low ?? 0, close: c.close ?? 0,
        volume: c.volume ?? null,
      })));
    return { ...answer, rows };
  }

  /** The instruments of the security master found by exactly one of `symbol` (current or former), `isin` or
   * `prefix` (of the company name), each with its symbol on `opts.asOf`'s trading day (today, or the backtest
   * clock's day) and its whole symbol history (docs/api.md section 13.1). */
  async instruments(by: InstrumentLookup, opts: { asOf?: Date } = {}): Promise<Schemas["InstrumentInfo"][]> {
    const given = ["symbol", "isin", "prefix"].filter((key) => (by as Record<string, unknown>)[key] !== undefined);
    if (given.length !== 1) throw invalidArgument(given[1] ?? "symbol", "give exactly one of symbol, isin and prefix");
    const query = { ...by, ...(opts.asOf !== undefined ? { date: tradingDay(opts.asOf, "date") } : {}) };
    return (await this.call("GET", "/v1/developer/instruments", { params: { query } })).instruments ?? [];
  }

  /** The corporate actions of the instrument `symbol` names (by any of its symbols) with ex-date in the trading
   * days [start, end], ascending, each with the price and volume factors adjusted reads use (section 13.3). */
  async corporateActions(symbol: string, opts: { start?: Date; end?: Date } = {}): Promise<Schemas["CorporateActionInfo"][]> {
    const query = {
      symbol,
      ...(opts.start !== undefined ? { startDate: tradingDay(opts.start, "start_date") } : {}),
      ...(opts.end !== undefined ? { endDate: tradingDay(opts.end, "end_date") } : {}),
    };
    return (await this.call("GET", "/v1/developer/corporate-actions", { params: { query } })).actions ?? [];
  }

  /** The exchange holidays of `year` (this year when absent), ascending. */
  async holidays(opts: { year?: number } = {}): Promise<Schemas["Holiday"][]> {
    const query = opts.year !== undefined ? { year: opts.year } : {};
    return (await this.call("GET", "/v1/developer/holidays", { params: { query } })).holidays ?? [];
  }

  // Streams (docs/api.md section 10) --------------------------------------------------------

  /**
   * The stock quotes of `symbols` as their writes commit: an async iterator of events (`event.quote`,
   * `event.cursor`) that never ends by itself. Resolves once the watch is live (its first message came), so
   * whatever commits afterwards reaches it; rejects with MdcError when it cannot open (bad symbol, token;
   * 412 under the backtest clock).
   */
  watchQuotes(symbols: string[], opts: StreamOptions = {}): Promise<EventStream<StreamEvent>> {
    return this.#stream("/v1/developer/watch/quotes", opts, false, (cursor) => ({ symbols, ...cursor }));
  }

  /** NIFTY 50 quotes as their writes commit (`event.nifty`); as watchQuotes. */
  watchNifty(opts: StreamOptions = {}): Promise<EventStream<StreamEvent>> {
    return this.#stream("/v1/developer/watch/nifty", opts, false, (cursor) => ({ ...cursor }));
  }

  /** Shortlist snapshots of one type and scope (TOP_5 by default) as their writes commit
   * (`event.shortlist`); as watchQuotes. */
  watchShortlists(type: WatchListType, opts: StreamOptions & { scope?: WatchScope } = {}): Promise<EventStream<StreamEvent>> {
    const scope = opts.scope ? { scope: opts.scope } : {};
    return this.#stream("/v1/developer/watch/shortlists", opts, false, (cursor) => ({ type, ...scope, ...cursor }));
  }

  /**
   * Every stored record of the trading day `day` names (tradingDay) in time order (NIFTY before stock quotes
   * before shortlists at one instant): an async iterator that ends after the last one. `symbols` filters the
   * stock quotes (empty: all), `kinds` picks the record kinds (empty: all). Under a backtest clock, only
   * records stamped before it.
   */
  replayDay(day: Date, opts: StreamOptions & { symbols?: string[]; kinds?: ReplayKind[] } = {}): Promise<EventStream<StreamEvent>> {
    const query = {
      date: tradingDay(day, "date"),
      ...(opts.symbols?.length ? { symbols: opts.symbols } : {}),
      ...(opts.kinds?.length ? { kinds: opts.kinds } : {}),
    };
    return this.#stream("/v1/developer/replay", opts, true, (cursor) => ({ ...query, ...cursor }));
  }

  // Dashboard: the caller's runs and orders -------------------------------------------------

  /** The caller's runs, newest first, page by page. */
  runs(opts: { tag?: string; pageSize?: number } = {}): AsyncIterableIterator<Dated<Schemas["Run"]>> {
    const query = { ...(opts.tag ? { tag: opts.tag } : {}), ...pageSize(opts) };
    return dated(this.paginate("/v1/dashboard/runs", { params: { query } }, "runs"));
  }

  /** Creates a run (a backtest or a live session) covering [start, end]. */
  async createRun(start: Date, end: Date, opts: { name?: string; tags?: string[] } = {}): Promise<Dated<Schemas["Run"]>> {
    const body = {
      startDatetime: wallClock(start, "start_datetime"),
      endDatetime: wallClock(end, "end_datetime"),
      timezone: WIRE_TIMEZONE,
      ...(opts.name ? { name: opts.name } : {}),
      ...(opts.tags ? { tags: opts.tags } : {}),
    };
    return withDates(await this.call("POST", "/v1/dashboard/runs", { body }));
  }

  /** Changes only the fields given (`name: ""` clears the name, `tags: []` the tags) and returns the run. */
  async updateRun(runId: string, change: { completed?: boolean; name?: string; tags?: string[] }): Promise<Dated<Schemas["Run"]>> {
    const body = {
      ...(change.completed !== undefined ? { completed: change.completed } : {}),
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.tags !== undefined ? { tags: change.tags } : {}),
    };
    return withDates(await this.call("PATCH", "/v1/dashboard/runs/{runId}", { params: { path: { runId } }, body }));
  }

  /** Deletes a run and its orders. */
  async deleteRun(runId: string): Promise<void> {
    await this.call("DELETE", "/v1/dashboard/runs/{runId}", { params: { path: { runId } } });
  }

  /** A run's orders ascending by time, each with its outcome, page by page. */
  orders(runId: string, opts: { targetGainPercentage?: number; pageSize?: number } = {}): AsyncIterableIterator<Dated<Schemas["Order"]>> {
    const target = opts.targetGainPercentage !== undefined ? { targetGainPercentage: opts.targetGainPercentage } : {};
    return dated(this.paginate("/v1/dashboard/runs/{runId}/orders", { params: { path: { runId }, query: { ...target, ...pageSize(opts) } } }, "orders"));
  }

  /** Adds an order of `symbol` placed at `at` to a run. */
  async createOrder(
    runId: string,
    symbol: string,
    at: Date,
    prices: { entryPrice: number; stopLossPrice: number; takeProfitPrice: number },
  ): Promise<Dated<Schemas["Order"]>> {
    const body = {
      nseSymbol: symbol,
      datetime: wallClock(at, "datetime"),
      timezone: WIRE_TIMEZONE,
      entryPrice: prices.entryPrice,
      stopLossPrice: prices.stopLossPrice,
      takeProfitPrice: prices.takeProfitPrice,
    };
    return withDates(await this.call("POST", "/v1/dashboard/runs/{runId}/orders", { params: { path: { runId } }, body }));
  }

  /** The instants of the shortlist snapshots of the trading day `day` names (tradingDay), ascending. */
  async snapshotTimes(day: Date): Promise<Date[]> {
    const wanted = tradingDay(day, "date");
    const answer = withDates(await this.call("GET", "/v1/dashboard/available-datetimes", { params: { query: { date: wanted } } }));
    return (answer.dates ?? []).filter((d) => d.date === wanted).flatMap((d) => d.timestamps ?? []);
  }

  /** Which session minutes of the trading day `opts.day` names (the latest day with data when absent) hold
   * records, per symbol, for NIFTY and per shortlist, and when each collector last wrote. */
  async coverage(opts: { day?: Date } = {}): Promise<Dated<Schemas["Coverage"]>> {
    const query = opts.day !== undefined ? { date: tradingDay(opts.day, "date") } : {};
    return withDates(await this.call("GET", "/v1/dashboard/coverage", { params: { query } }));
  }

  // Admin and health --------------------------------------------------------------------------

  /** Creates a developer (admin token needed); its token is in this answer only. */
  async createDeveloper(username: string, opts: { role?: Role } = {}): Promise<Dated<Schemas["Developer"]>> {
    return withDates(await this.call("POST", "/v1/admin/developers", { body: { username, role: opts.role ?? "developer" } }));
  }

  /** Imports NSE's equity list ("equity_list", EQUITY_L.csv) or symbol-change list ("symbol_changes"), the
   * file's text or a Blob (a browser's File), as it is published (admin token; docs/api.md section 13.2): rows
   * that cannot be read come back in `rejected` with line and reason, the others are imported; importing the
   * same file again changes nothing. */
  async importInstruments(kind: InstrumentFile, file: string | Blob): Promise<FileImportResult> {
    const csv = await csvText(file);
    return this.call("POST", "/v1/admin/instruments/import", { params: { query: { kind } }, body: csv, ...CSV_BODY });
  }

  /** Imports NSE's corporate-actions file (admin token): each PURPOSE read into typed actions, rows not
   * understood in `rejected`, rows without a price effect (an AGM) in `ignored` (docs/api.md section 13.3). */
  async importCorporateActions(file: string | Blob): Promise<FileImportResult> {
    const csv = await csvText(file);
    return this.call("POST", "/v1/admin/corporate-actions/import", { body: csv, ...CSV_BODY });
  }

  /** Enters one corporate action the files lack or got wrong (admin token; docs/api.md section 13.7).
   * Entering the same action again changes nothing (`created: false`); the same kind, day and description
   * with other numbers rejects with MdcError FAILED_PRECONDITION. */
  async createCorporateAction(action: CorporateActionEntry): Promise<CorporateActionEntryResult> {
    return this.call("POST", "/v1/admin/corporate-actions", { body: action });
  }

  /** The service's health (no token needed); a service that cannot reach its database answers 503, thrown
   * as MdcError after the retries. */
  async health(): Promise<components["schemas"]["HealthCheckResponse"]> {
    return this.call("GET", "/v1/health");
  }

  // Export (docs/api.md section 11) -------------------------------------------------------------

  /**
   * Every stored record of `kind` of the trading days `start` to `opts.end` (default: `start`; at most 31
   * days) as a file, streamed: the answer's body as it arrives, a ReadableStream of the file's bytes
   * (`await new Response(stream).blob()` for a Blob; in Node, `Readable.fromWeb(stream)` piped to a file).
   * Parquet unless `opts.format` says "csv" or "ndjson"; the columns are docs/api.md section 11's. Rejects
   * with MdcError when the export is refused (a bad parameter, more than 31 days, the token); a stream that
   * breaks off after it began errors instead of ending.
   */
  async export(kind: ExportKind, start: Date, opts: ExportOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const query = {
      startDate: tradingDay(start, "start_date"),
      ...(opts.end !== undefined ? { endDate: tradingDay(opts.end, "end_date") } : {}),
      ...(opts.symbols?.length ? { symbols: opts.symbols } : {}),
      ...(opts.interval ? { interval: opts.interval } : {}),
      ...(opts.type ? { type: opts.type } : {}),
      ...(opts.scope ? { scope: opts.scope } : {}),
      ...(opts.adjustment ? { adjustment: opts.adjustment } : {}),
      format: opts.format ?? "parquet",
    };
    const path = `/v1/developer/export/${kind}` as "/v1/developer/export/quotes";
    const body = await this.transport.openStream(path, { headers: this.#headers, params: { query } } as unknown as CallInit<"GET", typeof path>);
    return body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  }

  /**
   * Stores the records of `file`, a file an export of `kind` wrote (admin token; docs/api.md section 12),
   * in `opts.format` ("parquet" by default): the server has the file whole before it stores anything, and
   * stores it whole or not at all. Resolves once it is committed, to the records read, written and left
   * unchanged (importing a file again changes nothing). A bad file rejects with MdcError (code
   * INVALID_ARGUMENT) whose message begins with its line (CSV, NDJSON) or row (Parquet). In a browser,
   * `file` is the File of an `<input type="file">`; in Node, `importFile` of `@mdc/client/node` reads a path.
   */
  async import(kind: ImportKind, file: Blob, opts: ImportOptions = {}): Promise<ImportResult> {
    const answer = (await this.transport.upload(`/v1/admin/import/${kind}`, { format: opts.format ?? "parquet" }, file, {
      ...this.#headers,
    })) as Record<string, unknown>;
    // int64 counts are JSON strings.
    return { records: Number(answer["records"] ?? 0), written: Number(answer["written"] ?? 0), unchanged: Number(answer["unchanged"] ?? 0) };
  }

  // Plumbing ------------------------------------------------------------------------------------

  /** Opens a stream route with this client's headers: `ends` for a replay, not for a watch. Every wait for
   * the answer's next bytes (heartbeats included) may take up to opts.idleTimeoutMs; past that the stream
   * reconnects from its cursor. */
  async #stream<P extends RouteOf<"GET">>(
    path: P,
    opts: StreamOptions,
    ends: boolean,
    query: (cursor: { cursor?: string }) => object,
  ): Promise<EventStream<StreamEvent>> {
    if (opts.idleTimeoutMs !== undefined && !(opts.idleTimeoutMs >= 0)) {
      throw invalidArgument("idleTimeoutMs", `must be >= 0 (0: no idle timeout), not ${opts.idleTimeoutMs}`);
    }
    const headers = this.#headers;
    return EventStream.open(
      (cursor) => this.transport.openStream(path, { headers, params: { query: query(cursor ? { cursor } : {}) } } as unknown as CallInit<"GET", P>),
      {
        cursor: opts.cursor,
        ends,
        retries: opts.resume === false ? 0 : this.transport.retries,
        delayMs: (n) => this.transport.delayMs(n),
        idleTimeoutMs: opts.idleTimeoutMs,
        convert: (event) => withDates(event),
      },
    );
  }
}

/** The file routes take NSE's CSV as the body, as it is (docs/api.md section 13.2). */
const CSV_BODY = { headers: { "Content-Type": "text/csv" }, bodySerializer: (body: string) => body };

async function csvText(file: string | Blob): Promise<string> {
  if (typeof file === "string") return file;
  if (typeof Blob !== "undefined" && file instanceof Blob) return file.text();
  throw invalidArgument("file", "expected the file's text or a Blob");
}

function adjusted(opts: { adjustment?: Adjustment | undefined }): { adjustment?: Adjustment } {
  return opts.adjustment ? { adjustment: opts.adjustment } : {};
}

function pageSize(opts: { pageSize?: number | undefined }): { pageSize?: number } {
  return opts.pageSize ? { pageSize: opts.pageSize } : {};
}

async function* dated<T>(items: AsyncIterable<T>): AsyncIterableIterator<Dated<T>> {
  for await (const item of items) yield withDates(item as T);
}
