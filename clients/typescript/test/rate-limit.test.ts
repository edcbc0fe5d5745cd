// How the client treats the server's per-developer rate limit: a 429 with
// Retry-After (reason RATE_LIMITED) is waited out and sent again, a 429
// without it is final, and a wait over MAX_RETRY_AFTER_SECONDS is left to the
// caller. Against a tiny local node http server.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { MAX_RETRY_AFTER_SECONDS, MdcClient, MdcError, parseRetryAfter, shouldRetry } from "../src/index.js";

type Reply = { status: number; body: unknown; retryAfter?: string };

function rateLimited(retryAfter?: string): Reply {
  return {
    status: 429,
    body: {
      code: 8,
      message: "too many reads: a developer may make 5 per second (bursts of 5); retry after 200ms",
      details: [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "RATE_LIMITED", domain: "mdc.v1", metadata: { limit: "reads" } },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.200s" },
      ],
    },
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
}

const QUOTE: Reply = { status: 200, body: { nseSymbol: "TCS", timestamp: "2025-01-02T05:00:00Z" } };

describe("rate limit (429 with Retry-After)", () => {
  let server: http.Server;
  let baseUrl: string;
  let replies: Reply[] = [];
  let arrivals: number[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      arrivals.push(Date.now());
      req.resume();
      req.on("end", () => {
        const reply = replies.shift() ?? { status: 500, body: { code: 13, message: "no reply queued" } };
        const headers: Record<string, string> = { "Content-Type": "application/json" };
        if (reply.retryAfter !== undefined) headers["Retry-After"] = reply.retryAfter;
        res.writeHead(reply.status, headers);
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (retries = 3) => new MdcClient({ baseUrl, token: "t", retries, backoffMs: 5, maxBackoffMs: 10, timeoutMs: 5000 });

  it("waits Retry-After out and sends the call again", async () => {
    arrivals = [];
    replies = [rateLimited("1"), QUOTE];
    const quote = await client().quote("TCS");
    assert.equal(quote.nseSymbol, "TCS");
    assert.equal(arrivals.length, 2);
    // Not sooner than Retry-After: a lower bound only (timers may fire a
    // millisecond early, never an upper bound), so this cannot flake.
    assert.ok(arrivals[1]! - arrivals[0]! >= 900, `retried after ${arrivals[1]! - arrivals[0]!} ms`);
  });

  it("sends a refused create again too (nothing was done)", async () => {
    arrivals = [];
    replies = [rateLimited("1"), { status: 200, body: { id: "7" } }];
    await client().createRun(new Date("2025-01-02T04:00:00Z"), new Date("2025-01-02T10:00:00Z"), { name: "run" });
    assert.equal(arrivals.length, 2);
  });

  it("raises a 429 without Retry-After at once", async () => {
    arrivals = [];
    replies = [rateLimited(), QUOTE];
    await assert.rejects(client().quote("TCS"), (e: unknown) => {
      assert.ok(e instanceof MdcError);
      assert.equal(e.httpStatus, 429);
      assert.equal(e.reason, "RATE_LIMITED");
      assert.equal(e.retryAfter, undefined);
      return true;
    });
    assert.equal(arrivals.length, 1);
    replies = [];
  });

  it("leaves a long Retry-After to the caller", async () => {
    arrivals = [];
    replies = [rateLimited("120"), QUOTE];
    await assert.rejects(client().quote("TCS"), (e: unknown) => {
      assert.ok(e instanceof MdcError);
      assert.equal(e.code, "RESOURCE_EXHAUSTED");
      assert.equal(e.retryAfter, 120);
      assert.equal(e.attempts, 1);
      return true;
    });
    assert.equal(arrivals.length, 1);
    replies = [];
  });

  it("gives up after the retries with the last 429 and its Retry-After", async () => {
    arrivals = [];
    replies = [rateLimited("1"), rateLimited("1")];
    await assert.rejects(client(1).quote("TCS"), (e: unknown) => {
      assert.ok(e instanceof MdcError);
      assert.equal(e.httpStatus, 429);
      assert.equal(e.retryAfter, 1);
      assert.equal(e.attempts, 2);
      return true;
    });
    assert.equal(arrivals.length, 2);
  });

  it("the rule: 429 only with a Retry-After within the cap, 503 unless it asks for more", () => {
    const url = baseUrl + "/v1/developer/quote";
    assert.equal(shouldRetry({ method: "GET", url, status: 429, retryAfterSeconds: 0 }), true);
    assert.equal(shouldRetry({ method: "GET", url, status: 429, retryAfterSeconds: MAX_RETRY_AFTER_SECONDS }), true);
    assert.equal(shouldRetry({ method: "GET", url, status: 429 }), false);
    assert.equal(shouldRetry({ method: "GET", url, status: 429, retryAfterSeconds: MAX_RETRY_AFTER_SECONDS + 1 }), false);
    assert.equal(shouldRetry({ method: "GET", url, status: 503, retryAfterSeconds: 2 }), true);
    assert.equal(shouldRetry({ method: "GET", url, status: 503, retryAfterSeconds: MAX_RETRY_AFTER_SECONDS + 1 }), false);
    assert.equal(shouldRetry({ method: "GET", url, status: 400, retryAfterSeconds: 1 }), false);
    assert.equal(parseRetryAfter("3"), 3);
    assert.equal(parseRetryAfter(" 3 "), 3);
    assert.equal(parseRetryAfter("1.5"), undefined);
    assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });
});
