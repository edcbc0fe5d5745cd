// EventStream (src/streams.ts) on its own: scripted stream answers (NDJSON bodies), no server. What it
// yields, where its cursor stands and when it gives up; streams.test.ts covers the real streams.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EventStream, MdcError, resumable, type MarketEvent } from "../src/index.js";

type Line = { result: { events: MarketEvent[]; cursor: string } };

/** One stream line: events (NIFTY quotes) with those cursors, or none (a watch's first message, a heartbeat). */
function message(cursor: string, ...eventCursors: string[]): Line {
  return { result: { events: eventCursors.map((c) => ({ cursor: c, nifty: { timestamp: "2025-01-02T04:45:00Z" } })), cursor } };
}

/** A body that sends its lines and then nothing, without ending (a connection gone silent). */
class SilentAfter {
  constructor(readonly lines: Line[]) {}
}

/** An opener whose n-th call answers the n-th body; `cursors` records the cursor of each call. */
function script(...bodies: (Line[] | SilentAfter)[]) {
  const cursors: (string | undefined)[] = [];
  const open = async (cursor: string | undefined) => {
    cursors.push(cursor);
    const body = bodies[cursors.length - 1];
    assert.ok(body, `opened ${cursors.length} times, scripted ${bodies.length}`);
    const lines = body instanceof SilentAfter ? body.lines : body;
    const bytes = new TextEncoder().encode(lines.map((line) => JSON.stringify(line) + "\n").join(""));
    return new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        if (!(body instanceof SilentAfter)) controller.close();
      },
    });
  };
  return { open, cursors };
}

const watchOptions = (retries: number, idleTimeoutMs?: number) => ({ ends: false, retries, delayMs: () => 0, idleTimeoutMs, convert: (e: MarketEvent) => e });

async function rejection(promise: Promise<unknown>): Promise<MdcError> {
  const error = await promise.then(() => assert.fail("expected an MdcError"), (e: unknown) => e);
  assert.ok(error instanceof MdcError, String(error));
  return error;
}

describe("EventStream", () => {
  it("moves the cursor on messages without events and yields nothing for them", async () => {
    const { open } = script([message("7.1"), message("7.2"), message("8.1", "8.1"), message("9.4")]);
    const stream = await EventStream.open(open, watchOptions(0));
    assert.equal(stream.cursor, "7.1", "the first message: live");
    const next = await stream.next(); // the heartbeat 7.2 is read, not yielded
    assert.equal(next.done, false);
    assert.equal(next.value?.cursor, "8.1");
    assert.ok(next.value?.nifty);
    assert.equal(stream.cursor, "8.1");
    const error = await rejection(stream.next()); // the heartbeat 9.4, then the body ends: cut
    assert.equal(error.code, "UNAVAILABLE");
    assert.equal(stream.cursor, "9.4");
  });

  it("resumes a silent connection like a cut one; without resuming, the silence is the error", async () => {
    const { open, cursors } = script(new SilentAfter([message("7.1"), message("7.2")]), [message("7.2"), message("8.1", "8.1")]);
    const stream = await EventStream.open(open, watchOptions(1, 50));
    assert.equal((await stream.next()).value?.cursor, "8.1");
    assert.deepEqual(cursors, [undefined, "7.2"]);

    const fragile = await EventStream.open(script(new SilentAfter([message("7.1")])).open, watchOptions(0, 50));
    const error = await rejection(fragile.next());
    assert.deepEqual([error.code, error.httpStatus], ["UNAVAILABLE", undefined]);
    assert.match(error.message, /no message for 50 ms/);
    const refused = await rejection(EventStream.open(script(new SilentAfter([])).open, watchOptions(0, 50)));
    assert.deepEqual([refused.code, refused.httpStatus], ["UNAVAILABLE", undefined], "before the first message, the call's error");
  });

  it("resumes a watch cut after a heartbeat from the heartbeat's cursor", async () => {
    const { open, cursors } = script([message("7.1"), message("7.2")], [message("7.2"), message("8.1", "8.1")]);
    const stream = await EventStream.open(open, watchOptions(1));
    assert.equal((await stream.next()).value?.cursor, "8.1");
    assert.deepEqual(cursors, [undefined, "7.2"]);
  });

  it("counts a connection that carried a heartbeat as progress, one that only opened as a break", async () => {
    // Each connection: its first message, a heartbeat (the cursor stays), then cut.
    const lived = [message("5.0"), message("5.0")];
    let { open, cursors } = script(lived, lived, lived, lived, [message("5.0"), message("6.0", "6.0")]);
    let stream = await EventStream.open(open, watchOptions(1));
    assert.equal((await stream.next()).value?.cursor, "6.0");
    assert.deepEqual(cursors, [undefined, "5.0", "5.0", "5.0", "5.0"]);

    ({ open, cursors } = script(lived, [message("5.0")], [message("5.0"), message("6.0", "6.0")]));
    stream = await EventStream.open(open, watchOptions(1));
    assert.equal((await rejection(stream.next())).code, "UNAVAILABLE");
    assert.deepEqual(cursors, [undefined, "5.0"]);
  });
});

describe("resumable", () => {
  it("is true for what opening the stream again from its cursor repairs, and only that", () => {
    const error = (code: string, httpStatus: number | undefined, reason?: string) => new MdcError("x", { code, httpStatus, reason });
    assert.equal(resumable(error("UNAVAILABLE", 503)), true, "a server shutting down, a database outage");
    assert.equal(resumable(error("UNAVAILABLE", undefined)), true, "a connection cut, or silent past the idle timeout");
    assert.equal(resumable(error("DEADLINE_EXCEEDED", undefined)), true, "no answer at all in time: as good as lost");
    assert.equal(resumable(error("RESOURCE_EXHAUSTED", 429, "WATCHER_FELL_BEHIND")), true);
    assert.equal(resumable(error("DEADLINE_EXCEEDED", 504)), false, "the server answered: its deadline passed");
    assert.equal(resumable(error("RESOURCE_EXHAUSTED", 429, "RATE_LIMITED")), false);
    assert.equal(resumable(error("INVALID_ARGUMENT", 400)), false);
  });
});
