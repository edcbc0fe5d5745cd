/**
 * The streams of docs/api.md section 10 as async iterators. A watch or a day
 * replay is one HTTP request whose answer grows by one line of
 * newline-delimited JSON per message: {"result": MarketEvents}, or, last,
 * {"error": google.rpc.Status} when the stream fails after it started. The
 * line type is the generated OpenAPI type of the routes' 200 answer, so no
 * payload type is written by hand here.
 *
 * EventStream reads those lines as they come, yields the events one by one
 * and remembers the cursor of the last message read. When the stream breaks in
 * a way that resuming repairs (a server shutting down or a database outage,
 * UNAVAILABLE; a watcher that fell behind, RESOURCE_EXHAUSTED with reason
 * WATCHER_FELL_BEHIND; a lost connection) it opens the stream again from that
 * cursor, so the caller misses nothing and sees nothing twice; any other
 * failure is thrown as MdcError.
 *
 * A connection can also die silently (a network black hole: no reset, no
 * error, nothing), which would block a read for ever. The server sends an idle
 * watch a message without events (a heartbeat, carrying the current cursor) at
 * least every MDC_WATCH_HEARTBEAT seconds (default 15), and a replay sends
 * continuously; so a stream on which nothing arrives for its idle timeout
 * (default IDLE_TIMEOUT_MS, three heartbeats) is taken for a lost connection:
 * closed, and opened again from the cursor like any other. Messages without
 * events move the cursor but yield nothing.
 */
import type { components, paths } from "./generated/openapi.js";
import { MdcError, errorFromNetwork, errorFromStream } from "./errors.js";

/** One line of a stream answer (the same for every stream route). */
export type StreamLine = NonNullable<paths["/v1/developer/replay"]["get"]["responses"][200]["content"]["application/x-ndjson"]>;
export type MarketEvent = components["schemas"]["MarketEvent"];

/** Milliseconds without any message after which a stream's connection is taken for lost: three of
 * the server's default heartbeat intervals (15 s). */
export const IDLE_TIMEOUT_MS = 45_000;

/** Opens the stream from a cursor (undefined: from the start) and returns the 200 answer's body. */
export type StreamOpener = (cursor: string | undefined) => Promise<ReadableStream<Uint8Array> | null>;

export interface EventStreamOptions<T> {
  /** Where to resume (a cursor of an earlier stream), or undefined. */
  cursor?: string | undefined;
  /** A replay ends after its last record; a watch that ends was cut off. */
  ends: boolean;
  /** Breaks in a row (without progress: the cursor moving, or a connection that carried more than its
   * first message) that are resumed; 0: none. */
  retries: number;
  /** Milliseconds to wait before resuming after break n (0-based). */
  delayMs: (n: number) => number;
  /** Longest wait for the next bytes of the answer, heartbeats included, before the connection is
   * taken for lost (default IDLE_TIMEOUT_MS; 0: none). */
  idleTimeoutMs?: number | undefined;
  /** Turns each event into what the iterator yields. */
  convert: (event: MarketEvent) => T;
}

/** Whether opening the stream again from its last cursor repairs the error: nothing was lost, only the
 * connection (cut, or silent: no answer at all within the timeout) or the server's queue. */
export function resumable(error: MdcError): boolean {
  return (
    error.code === "UNAVAILABLE" ||
    (error.code === "DEADLINE_EXCEEDED" && error.httpStatus === undefined) ||
    (error.code === "RESOURCE_EXHAUSTED" && error.reason === "WATCHER_FELL_BEHIND")
  );
}

/**
 * The events of one watch or replay, read as they arrive. `cursor` is the
 * resume point after the last message read (for a watch, set by its first
 * message, before any event): pass it as `cursor` to a later call to continue
 * from there. A replay's iterator ends after the day's last record; a watch's
 * never ends by itself: `close()` it (or `break` out of `for await`) to hang up.
 */
export class EventStream<T> implements AsyncIterableIterator<T> {
  cursor: string | undefined;
  private pending: MarketEvent[] = [];
  private lines: LineReader | undefined;
  private done = false;
  private breaks = 0;
  private readOnConnection = 0;

  private constructor(
    private readonly openStream: StreamOpener,
    private readonly options: EventStreamOptions<T>,
  ) {
    this.cursor = options.cursor;
  }

  /** Opens the stream; a watch also reads its first message (it is live then). Throws MdcError when it cannot open. */
  static async open<T>(openStream: StreamOpener, options: EventStreamOptions<T>): Promise<EventStream<T>> {
    const stream = new EventStream(openStream, options);
    await stream.connect();
    if (!options.ends) {
      try {
        const first = await stream.lines!.next();
        if (first === undefined) {
          throw new MdcError("the watch ended before its first message", { httpStatus: 200, code: "UNAVAILABLE" });
        }
        stream.take(first);
      } catch (error) {
        await stream.close();
        throw error instanceof MdcError ? error : errorFromNetwork(error, false);
      }
    }
    return stream;
  }

  [Symbol.asyncIterator](): EventStream<T> {
    return this;
  }

  async next(): Promise<IteratorResult<T, undefined>> {
    while (this.pending.length === 0) {
      if (this.done) return { done: true, value: undefined };
      await this.readMessage();
    }
    return { done: false, value: this.options.convert(this.pending.shift()!) };
  }

  /** Called by `break` in a `for await` loop: hangs up. */
  async return(): Promise<IteratorResult<T, undefined>> {
    await this.close();
    return { done: true, value: undefined };
  }

  /** Hangs up (the server ends the watch); the iterator ends. */
  async close(): Promise<void> {
    this.done = true;
    this.pending = [];
    await this.hangUp();
  }

  private async connect(): Promise<void> {
    const body = await this.openStream(this.cursor);
    const idleTimeoutMs = this.options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    this.lines = new LineReader(body, idleTimeoutMs > 0 ? idleTimeoutMs : undefined);
    this.readOnConnection = 0;
  }

  private async hangUp(): Promise<void> {
    const lines = this.lines;
    this.lines = undefined;
    await lines?.cancel();
  }

  /** Reads the next message, reconnecting when that is what it takes. */
  private async readMessage(): Promise<void> {
    try {
      if (!this.lines) await this.connect();
      const line = await this.lines!.next();
      if (line === undefined) {
        if (this.options.ends) {
          this.done = true;
          await this.hangUp();
          return;
        }
        throw new MdcError("the watch ended without an error: the connection was cut", { code: "UNAVAILABLE" });
      }
      this.take(line);
    } catch (error) {
      await this.broke(error instanceof MdcError ? error : errorFromNetwork(error, false));
    }
  }

  private take(text: string): void {
    let line: StreamLine;
    try {
      line = JSON.parse(text) as StreamLine;
    } catch (cause) {
      throw new MdcError(`not a line of a stream: ${text.slice(0, 200)}`, { httpStatus: 200, code: "UNKNOWN", cause });
    }
    if (line === null || typeof line !== "object") {
      throw new MdcError(`not a line of a stream: ${text.slice(0, 200)}`, { httpStatus: 200, code: "UNKNOWN" });
    }
    if (line.error !== undefined) throw errorFromStream(line.error);
    const message = line.result;
    this.readOnConnection++;
    // Progress resets the budget of breaks: the cursor moved, or this connection carried a message after
    // its first (a heartbeat: it worked for a while before it broke).
    if (message?.cursor && message.cursor !== this.cursor) {
      this.cursor = message.cursor;
      this.breaks = 0;
    } else if (this.readOnConnection > 1) {
      this.breaks = 0;
    }
    // A message without events (a watch's first, a heartbeat) only moves the cursor.
    this.pending.push(...(message?.events ?? []));
  }

  /** Resumes from the cursor after a wait, or throws the error (and ends). */
  private async broke(error: MdcError): Promise<void> {
    await this.hangUp();
    this.breaks++;
    if (!resumable(error) || this.breaks > this.options.retries) {
      this.done = true;
      throw error;
    }
    const waitMs = Math.max(this.options.delayMs(this.breaks - 1), (error.retryAfter ?? 0) * 1000);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** The lines of a body, decoded as UTF-8, as they arrive. */
class LineReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly decoder = new TextDecoder();
  private buffered = "";
  private ended: boolean;

  constructor(body: ReadableStream<Uint8Array> | null, private readonly timeoutMs: number | undefined) {
    this.reader = body?.getReader();
    this.ended = this.reader === undefined;
  }

  /** The next non-empty line, or undefined at the end of the body. */
  async next(): Promise<string | undefined> {
    for (;;) {
      const newline = this.buffered.indexOf("\n");
      if (newline >= 0) {
        const line = this.buffered.slice(0, newline).trim();
        this.buffered = this.buffered.slice(newline + 1);
        if (line) return line;
        continue;
      }
      if (this.ended) {
        const rest = this.buffered.trim();
        this.buffered = "";
        return rest || undefined;
      }
      const { done, value } = await this.read();
      if (done) {
        this.ended = true;
        this.buffered += this.decoder.decode();
      } else {
        this.buffered += this.decoder.decode(value, { stream: true });
      }
    }
  }

  async cancel(): Promise<void> {
    this.ended = true;
    await this.reader?.cancel().catch(() => undefined);
  }

  private async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    if (this.timeoutMs === undefined) return this.reader!.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Nothing, not even a heartbeat: a connection that died silently, resumed like one that was cut.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new MdcError(`no message for ${this.timeoutMs} ms: the connection is taken for lost`, { code: "UNAVAILABLE" })),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([this.reader!.read(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
