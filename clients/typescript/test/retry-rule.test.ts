// The retry rule (src/retry.ts) on its own: which failed attempts are sent again.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isIdempotent, neverSent, shouldRetry } from "../src/index.js";

const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
const reset = new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });
const aborted = new DOMException("This operation was aborted", "AbortError");
const base = "http://127.0.0.1:8080";

describe("shouldRetry", () => {
  it("retries a 503 of any call, and no other status", () => {
    for (const [method, path] of [["GET", "/v1/developer/quote"], ["POST", "/v1/dashboard/runs"], ["PATCH", "/v1/admin/developers/1/refresh-key"]]) {
      assert.equal(shouldRetry({ method: method!, url: base + path, status: 503 }), true, `${method} ${path}`);
      for (const status of [200, 400, 401, 403, 404, 409, 429, 500, 502, 504]) {
        assert.equal(shouldRetry({ method: method!, url: base + path, status }), false, `${status} ${method} ${path}`);
      }
    }
  });

  it("retries a refused connection of any call (nothing was sent)", () => {
    assert.equal(neverSent(refused), true);
    assert.equal(shouldRetry({ method: "POST", url: base + "/v1/dashboard/runs", error: refused }), true);
    assert.equal(shouldRetry({ method: "POST", url: base + "/v1/admin/developers", error: refused }), true);
    const allRefused = new TypeError("fetch failed", { cause: new AggregateError([{ code: "ECONNREFUSED" }, { code: "ECONNREFUSED" }]) });
    assert.equal(neverSent(allRefused), true);
  });

  it("retries a lost answer (reset, timeout) only of an idempotent call", () => {
    for (const error of [reset, aborted]) {
      assert.equal(neverSent(error), false);
      for (const [method, path] of [
        ["GET", "/v1/developer/lists"],
        ["PUT", "/v1/admin/broker"],
        ["DELETE", "/v1/dashboard/runs/r1"],
        ["POST", "/v1/developer/collector/shortlists"],
        ["POST", "/v1/developer/collector/quotes"],
        ["POST", "/v1/developer/collector/nifty"],
      ]) {
        assert.equal(shouldRetry({ method: method!, url: base + path, error }), true, `${method} ${path}`);
      }
      for (const [method, path] of [
        ["POST", "/v1/dashboard/runs"],
        ["POST", "/v1/dashboard/runs/r1/orders"],
        ["POST", "/v1/admin/developers"],
        ["POST", "/v1/admin/holidays"],
        ["PATCH", "/v1/dashboard/runs/r1"],
        ["PATCH", "/v1/admin/developers/d1/refresh-key"],
      ]) {
        assert.equal(shouldRetry({ method: method!, url: base + path, error }), false, `${method} ${path}`);
      }
    }
  });

  it("isIdempotent reads the path past a base URL prefix and ignores the query", () => {
    assert.equal(isIdempotent("post", "http://h/mdc/v1/developer/collector/quotes?x=1"), true);
    assert.equal(isIdempotent("POST", "/v1/developer/collectors"), false);
    assert.equal(isIdempotent("POST", "/v1/dashboard/runs?then=/v1/developer/collector/"), false);
  });
});
