/// <reference types="node" />
/**
 * A collector's spool under Node (`@mdc/client/node/spool`): the writes mdc has not acknowledged yet, kept
 * on disk, as the Python client's `mdc.Spool` and the Go client's `mdcclient.Spool` keep them.
 *
 * An observation not written is lost for good (a quote of 10:31 cannot be collected again at 10:45), so a
 * collector should not drop a write because mdc answered 503 or could not be reached (a database failover,
 * a restart, a network cut). Each `save*` first stores the write in a file of the spool's folder (written
 * whole, synced, then renamed into place), then delivers what the folder holds, oldest first, until one
 * cannot be delivered now (UNAVAILABLE, a timeout, a rate limit: it stays, with those after it, for the next
 * `save*` or `flush`). A write leaves the folder once mdc answered 200; a spool opened on a folder a
 * previous process left delivers what it holds. Writes are idempotent upserts, so one delivered twice
 * stores the same thing.
 *
 * Bounded: `maxWrites` (100,000) and `maxBytes` (256 MiB) at most; a `save*` beyond them rejects with
 * MdcError RESOURCE_EXHAUSTED and spools nothing. A write mdc refuses for good (INVALID_ARGUMENT,
 * FAILED_PRECONDITION, ...) would block the ones after it forever: it is moved to the folder's `rejected/`
 * with its error and counted in `state().rejected`. A refused token keeps the writes.
 *
 * One process per folder; calls on one Spool are run one after the other.
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

import type { MdcClient } from "../src/client.js";
import { MdcError } from "../src/errors.js";
import type { QuoteData, Scope, ShortlistEntry, ShortlistType } from "../src/types.js";

/** What a spool holds. */
export interface SpoolState {
  /** Writes not acknowledged yet. */
  writes: number;
  /** Their size on disk. */
  bytes: number;
  /** When the oldest of them was spooled; undefined when none. */
  oldest?: Date;
  /** Writes mdc refused for good, kept in `rejected/`. */
  rejected: number;
  /** The error of the last failed delivery; undefined once one succeeded. */
  lastError?: string;
}

export interface SpoolOptions {
  maxWrites?: number;
  maxBytes?: number;
}

/** A spooled write: the client method and its arguments (instants as ISO strings). */
type SpooledWrite =
  | { method: "saveQuotes"; at: string; quotes: Record<string, QuoteData> }
  | { method: "saveNifty"; at: string; quote: QuoteData; dayChangePerc: number }
  | { method: "saveShortlist"; at: string; shortlistType: ShortlistType; entries: ShortlistEntry[]; scope?: Scope };

const SUFFIX = ".write";
/** Codes after which a write is delivered later, in its turn. */
const LATER = new Set([
  "UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "ABORTED", "INTERNAL", "UNKNOWN",
  "UNAUTHENTICATED", "PERMISSION_DENIED",
]);

export class Spool {
  readonly #client: MdcClient;
  readonly #dir: string;
  readonly #maxWrites: number;
  readonly #maxBytes: number;
  #next = 1;
  #lastError: string | undefined;
  /** The calls in order: each waits for the one before. */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(client: MdcClient, dir: string, opts: SpoolOptions) {
    this.#client = client;
    this.#dir = dir;
    this.#maxWrites = opts.maxWrites ?? 100_000;
    this.#maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  }

  /** Opens (and creates) the spool folder `dir` for writes through `client`. */
  static async open(client: MdcClient, dir: string, opts: SpoolOptions = {}): Promise<Spool> {
    const spool = new Spool(client, dir, opts);
    await mkdir(join(dir, "rejected"), { recursive: true });
    for (const name of await readdir(dir)) {
      if (name.endsWith(".tmp")) await rm(join(dir, name), { force: true }); // a write cut before its rename
    }
    const held = await spool.#held();
    const last = held.at(-1);
    if (last !== undefined) spool.#next = Number(last.slice(0, -SUFFIX.length)) + 1;
    return spool;
  }

  /** `MdcClient.saveQuotes`, spooled. Rejects only when the spool is full or the disk fails. */
  saveQuotes(at: Date, quotes: Record<string, QuoteData>): Promise<void> {
    return this.#save({ method: "saveQuotes", at: at.toISOString(), quotes });
  }

  /** `MdcClient.saveNifty`, spooled. */
  saveNifty(at: Date, quote: QuoteData, dayChangePerc: number): Promise<void> {
    return this.#save({ method: "saveNifty", at: at.toISOString(), quote, dayChangePerc });
  }

  /** `MdcClient.saveShortlist`, spooled. */
  saveShortlist(at: Date, shortlistType: ShortlistType, entries: ShortlistEntry[], opts: { scope?: Scope } = {}): Promise<void> {
    return this.#save({ method: "saveShortlist", at: at.toISOString(), shortlistType, entries, ...opts });
  }

  /** Delivers the writes held, oldest first, until one cannot be delivered now; resolves to how many were. */
  flush(): Promise<number> {
    return this.#serial(() => this.#flush());
  }

  /** What the spool holds now. */
  state(): Promise<SpoolState> {
    return this.#serial(async () => {
      let bytes = 0;
      let oldest: Date | undefined;
      const held = await this.#held();
      for (const name of held) {
        const info = await stat(join(this.#dir, name));
        bytes += info.size;
        if (oldest === undefined || info.mtime < oldest) oldest = info.mtime;
      }
      const rejected = (await readdir(join(this.#dir, "rejected"))).filter((n) => n.endsWith(SUFFIX)).length;
      return {
        writes: held.length,
        bytes,
        rejected,
        ...(oldest ? { oldest } : {}),
        ...(this.#lastError ? { lastError: this.#lastError } : {}),
      };
    });
  }

  #save(write: SpooledWrite): Promise<void> {
    return this.#serial(async () => {
      const record = Buffer.from(JSON.stringify(write));
      const held = await this.#held();
      let size = 0;
      for (const name of held) size += (await stat(join(this.#dir, name))).size;
      if (held.length + 1 > this.#maxWrites || size + record.length > this.#maxBytes) {
        throw new MdcError(
          `the spool is full (${held.length} writes, ${size} bytes; at most ${this.#maxWrites} writes and ` +
            `${this.#maxBytes} bytes): mdc has been unavailable for long; nothing was spooled`,
          { code: "RESOURCE_EXHAUSTED", attempts: 0 },
        );
      }
      const name = String(this.#next++).padStart(20, "0");
      const tmp = join(this.#dir, `${name}.tmp`);
      const file = await open(tmp, "w", 0o600);
      try {
        await file.writeFile(record);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(tmp, join(this.#dir, name + SUFFIX));
      const dir = await open(this.#dir, "r");
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
      await this.#flush();
    });
  }

  async #flush(): Promise<number> {
    let delivered = 0;
    for (const name of await this.#held()) {
      const path = join(this.#dir, name);
      const write = JSON.parse(await readFile(path, "utf8")) as SpooledWrite;
      try {
        await this.#deliver(write);
      } catch (error) {
        const code = error instanceof MdcError ? error.code : "UNKNOWN";
        this.#lastError = error instanceof Error ? `${code}: ${error.message}` : String(error);
        if (LATER.has(code)) break;
        await rename(path, join(this.#dir, "rejected", name));
        await writeFile(join(this.#dir, "rejected", name.slice(0, -SUFFIX.length) + ".error"), this.#lastError + "\n");
        continue;
      }
      await rm(path);
      delivered++;
      this.#lastError = undefined;
    }
    return delivered;
  }

  #deliver(w: SpooledWrite): Promise<void> {
    const at = new Date(w.at);
    switch (w.method) {
      case "saveQuotes":
        return this.#client.saveQuotes(at, w.quotes);
      case "saveNifty":
        return this.#client.saveNifty(at, w.quote, w.dayChangePerc);
      case "saveShortlist":
        return this.#client.saveShortlist(at, w.shortlistType, w.entries, w.scope ? { scope: w.scope } : {});
    }
  }

  async #held(): Promise<string[]> {
    return (await readdir(this.#dir)).filter((n) => n.endsWith(SUFFIX)).sort();
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}
