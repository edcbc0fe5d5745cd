// The retry rule (src/retry.ts) on its own: which failed attempts are sent again, and how a request finds
// its operation in the generated table (src/generated/idempotent.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IDEMPOTENT_OPERATIONS, isIdempotent, neverSent, operationOf, shouldRetry } from "../src/index.js";

const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
const reset = new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });
const aborted = new DOMException("This operation was aborted", "AbortError");
const base = "http://127.0.0.1:8080";

/** A concrete path of a route template: each {param} filled with a value. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "p1");

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

  it("retries a lost answer (reset, timeout) exactly of the operations the table calls idempotent", () => {
    for (const error of [reset, aborted]) {
      assert.equal(neverSent(error), false);
      for (const [operation, idempotent] of Object.entries(IDEMPOTENT_OPERATIONS)) {
        const [method, template] = operation.split(" ") as [string, string];
        assert.equal(shouldRetry({ method, url: base + concrete(template), error }), idempotent, operation);
      }
    }
  });

  it("the table holds what the protos say of some well-known RPCs", () => {
    // Reads and collector writes may be sent again; creates, deletes and key refreshes may not.
    for (const operation of ["GET /v1/developer/lists", "POST /v1/developer/collector/quotes", "PATCH /v1/dashboard/runs/{runId}"]) {
      assert.equal(IDEMPOTENT_OPERATIONS[operation], true, operation);
    }
    for (const operation of ["POST /v1/dashboard/runs", "DELETE /v1/dashboard/runs/{runId}", "PATCH /v1/admin/developers/{id}/refresh-key"]) {
      assert.equal(IDEMPOTENT_OPERATIONS[operation], false, operation);
    }
  });
});

describe("operationOf", () => {
  it("finds every operation of the table from one of its paths, behind a base URL prefix too", () => {
    assert.ok(Object.keys(IDEMPOTENT_OPERATIONS).length > 40);
    for (const operation of Object.keys(IDEMPOTENT_OPERATIONS)) {
      const [method, template] = operation.split(" ") as [string, string];
      assert.equal(operationOf(method, base + concrete(template)), operation);
      assert.equal(operationOf(method.toLowerCase(), `${base}/mdc${concrete(template)}?x=1`), operation);
    }
  });

  it("prefers a literal route to one with a parameter", () => {
    assert.equal(operationOf("GET", "/v1/dashboard/runs/tags"), "GET /v1/dashboard/runs/tags");
    assert.equal(operationOf("GET", "/v1/dashboard/runs/r1/orders"), "GET /v1/dashboard/runs/{runId}/orders");
  });

  it("knows no other path; an unknown route is not idempotent", () => {
    assert.equal(operationOf("POST", "/v1/developer/collectors"), undefined);
    assert.equal(operationOf("GET", "/v1/dashboard/runs/r1/orders/o1"), undefined);
    assert.equal(operationOf("PUT", "/v1/developer/lists"), undefined);
    assert.equal(isIdempotent("GET", "/v1/somewhere/else"), false);
    assert.equal(isIdempotent("POST", "/v1/dashboard/runs?then=/v1/developer/collector/quotes"), false);
  });
});
