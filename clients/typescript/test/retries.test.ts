// Retries and error decoding against a tiny local node http server.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { MdcClient, MdcError } from "../src/index.js";
import { freeAddr } from "./stack.js";

/** A queued answer; "drop" closes the connection after reading the request (a lost answer). */
type Reply = { status: number; body: unknown } | "drop";

describe("retries", () => {
  let server: http.Server;
  let baseUrl: string;
  let replies: Reply[] = [];
  let hits = 0;
  let requests: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      hits++;
      requests.push(`${req.method} ${req.url}`);
      req.resume();
      req.on("end", () => {
        const reply = replies.shift() ?? { status: 500, body: { code: 13, message: "no reply queued" } };
        if (reply === "drop") {
          req.socket.destroy();
          return;
        }
        res.writeHead(reply.status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => new MdcClient({ baseUrl, token: "t", retries: 3, backoffMs: 5, timeoutMs: 2000 });

  it("retries a 503 and returns the 200", async () => {
    hits = 0;
    const unavailable = { status: 503, body: { code: 14, message: "down" } };
    replies = [unavailable, unavailable, { status: 200, body: { nseSymbol: "RELIANCE", timestamp: "2025-01-02T05:00:00Z" } }];
    const quote = await client().quote("RELIANCE");
    assert.equal(hits, 3);
    assert.equal(quote.nseSymbol, "RELIANCE");
    assert.ok(quote.timestamp instanceof Date);
  });

  it("retries a write (POST) on 503 too", async () => {
    hits = 0;
    replies = [{ status: 503, body: {} }, { status: 200, body: {} }];
    await client().saveShortlist(new Date("2025-01-02T05:00:00Z"), "TOP_GAINERS", []);
    assert.equal(hits, 2);
  });

  it("gives up after the retries with the last 503", async () => {
    hits = 0;
    replies = Array.from({ length: 4 }, () => ({ status: 503, body: { code: 14, message: "down" } }));
    const error = await client().quote("X").then(() => assert.fail("expected an error"), (e: unknown) => e);
    assert.ok(error instanceof MdcError);
    assert.equal(hits, 4);
    assert.equal(error.httpStatus, 503);
    assert.equal(error.code, "UNAVAILABLE");
    assert.equal(error.attempts, 4);
  });

  it("never retries a 400 and decodes its details", async () => {
    hits = 0;
    replies = [{
      status: 400,
      body: {
        code: 3,
        message: "bad price",
        details: [
          { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "data.entries[0].price", description: "must be >= 0" }] },
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "SOME_REASON", domain: "mdc.v1" },
        ],
      },
    }];
    const error = await client().quote("X").then(() => assert.fail("expected an error"), (e: unknown) => e);
    assert.equal(hits, 1);
    assert.ok(error instanceof MdcError);
    assert.equal(error.httpStatus, 400);
    assert.equal(error.code, "INVALID_ARGUMENT");
    assert.equal(error.message, "bad price");
    assert.deepEqual(error.fieldViolations, [{ field: "data.entries[0].price", description: "must be >= 0" }]);
    assert.equal(error.reason, "SOME_REASON");
  });

  it("retries a refused connection of any call, then reports UNAVAILABLE", async () => {
    const dead = new MdcClient({ baseUrl: `http://${await freeAddr()}`, retries: 2, backoffMs: 1 });
    for (const call of [() => dead.quote("X"), () => dead.createRun(new Date(0), new Date(1000))]) {
      const error = await call().then(() => assert.fail("expected an error"), (e: unknown) => e);
      assert.ok(error instanceof MdcError);
      assert.equal(error.httpStatus, undefined);
      assert.equal(error.code, "UNAVAILABLE");
      assert.equal(error.attempts, 3, "nothing was sent, so even a create is retried");
    }
  });

  it("does not resend a create whose answer was lost, but resends a collector write", async () => {
    const at = new Date("2025-01-02T05:00:00Z");
    const creates: [string, () => Promise<unknown>][] = [
      ["POST /v1/dashboard/runs", () => client().createRun(at, new Date(at.getTime() + 60_000))],
      ["POST /v1/dashboard/runs/run-1/orders", () =>
        client().createOrder("run-1", "INFY", at, { entryPrice: 1, stopLossPrice: 0.5, takeProfitPrice: 2 })],
      ["POST /v1/admin/developers", () => client().createDeveloper("someone")],
      ["DELETE /v1/dashboard/runs/run-1", () => client().deleteRun("run-1")],
    ];
    for (const [request, create] of creates) {
      hits = 0;
      requests = [];
      replies = ["drop", { status: 200, body: {} }];
      const error = await create().then(() => assert.fail("expected an error"), (e: unknown) => e);
      assert.ok(error instanceof MdcError);
      assert.equal(error.httpStatus, undefined);
      assert.equal(error.code, "UNAVAILABLE");
      assert.equal(error.attempts, 1);
      assert.deepEqual(requests, [request], "sent once: the lost answer may mean it was created");
      replies = [];
    }

    hits = 0;
    requests = [];
    replies = ["drop", "drop", { status: 200, body: {} }];
    await client().saveShortlist(at, "TOP_GAINERS", []);
    assert.deepEqual(requests, Array(3).fill("POST /v1/developer/collector/shortlists"));

    hits = 0;
    replies = ["drop", { status: 200, body: { nseSymbol: "X" } }];
    await client().quote("X");
    assert.equal(hits, 2, "a read is resent");

    hits = 0;
    requests = [];
    replies = ["drop", { status: 200, body: { id: "run-1", name: "renamed" } }];
    assert.equal((await client().updateRun("run-1", { name: "renamed" })).name, "renamed");
    assert.deepEqual(requests, Array(2).fill("PATCH /v1/dashboard/runs/run-1"), "an update (IDEMPOTENT) is resent");
  });

  it("does not resend a PATCH whose answer was lost (refresh-key is not idempotent)", async () => {
    hits = 0;
    replies = ["drop", { status: 200, body: {} }];
    const { error, response } = await client().api.PATCH("/v1/admin/developers/{id}/refresh-key", { params: { path: { id: "d1" } } })
      .then((r) => ({ ...r, error: undefined }), (e: unknown) => ({ error: e, response: undefined }));
    assert.equal(response, undefined);
    assert.ok(error instanceof MdcError);
    assert.equal(hits, 1);
    replies = [];
  });

  it("does not resend a create that timed out", async () => {
    const slow = http.createServer(() => { slowHits++; /* never answers */ });
    let slowHits = 0;
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const c = new MdcClient({ baseUrl: url, retries: 2, timeoutMs: 100, backoffMs: 1 });
      const error = await c.createRun(new Date(0), new Date(60_000)).then(() => assert.fail("expected an error"), (e: unknown) => e);
      assert.ok(error instanceof MdcError);
      assert.equal(error.code, "DEADLINE_EXCEEDED");
      assert.equal(error.attempts, 1);
      assert.equal(slowHits, 1);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it("times out a slow answer as DEADLINE_EXCEEDED", async () => {
    const slow = http.createServer(() => { /* never answers */ });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const c = new MdcClient({ baseUrl: url, retries: 0, timeoutMs: 100 });
      const error = await c.quote("X").then(() => assert.fail("expected an error"), (e: unknown) => e);
      assert.ok(error instanceof MdcError);
      assert.equal(error.code, "DEADLINE_EXCEEDED");
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
