import { MdcError } from "@mdc/client";
import { describe, expect, it } from "vitest";
import { errorText, fieldFor, formErrors } from "../src/formerrors";

const bad = (violations: { field: string; description: string }[], message = "invalid request") =>
  new MdcError(message, { httpStatus: 400, code: "INVALID_ARGUMENT", fieldViolations: violations });

describe("field errors", () => {
  it("matches the server's names to the form's fields in either spelling", () => {
    const fields = ["name", "tags", "startDatetime", "endDatetime", "before"];
    expect(fieldFor("start_datetime", fields)).toBe("startDatetime");
    expect(fieldFor("tags[2]", fields)).toBe("tags");
    expect(fieldFor("args.before", fields)).toBe("before");
    expect(fieldFor("pageToken", fields)).toBeUndefined();
  });

  it("puts each violation under its field and the rest above the form", () => {
    const e = bad([
      { field: "entryPrice", description: "must be above stopLossPrice" },
      { field: "entryPrice", description: "must be below takeProfitPrice" },
      { field: "X-Current-Timestamp", description: "malformed" },
    ]);
    expect(formErrors(e, ["entryPrice", "nseSymbol"])).toEqual({
      fields: { entryPrice: "Must be above the stop-loss price. Must be below the take-profit price." },
      message: "X-Current-Timestamp malformed.",
    });
  });

  it("shows the message when no field is named", () => {
    const e = new MdcError("username alice is taken", { httpStatus: 409, code: "ALREADY_EXISTS", reason: "USERNAME_TAKEN" });
    expect(formErrors(e, ["username"])).toEqual({ fields: {}, message: "Username alice is taken." });
    expect(errorText(e)).toBe("Username alice is taken.");
  });

  it("writes the API's words for people: labels, IST, plain failures", () => {
    const e = bad([{ field: "start_datetime", description: "must not be after end_datetime" }]);
    expect(formErrors(e, ["startDatetime"]).fields).toEqual({ startDatetime: "Must not be after the end." });
    expect(errorText(e)).toBe("Start must not be after the end.");
    const notFound = new MdcError("no TOP_GAINERS TOP_5 snapshot at or before 2025-01-02T04:00:00Z", { httpStatus: 404, code: "NOT_FOUND" });
    expect(errorText(notFound)).toBe("No top gainers top 5 snapshot at or before 2025-01-02 09:30:00 IST.");
    const offline = new MdcError("the request failed without an answer: TypeError: Failed to fetch", { code: "UNAVAILABLE" });
    expect(errorText(offline)).toBe("Could not reach the mdc server. Check the network connection, then try again.");
    expect(errorText(new TypeError("Failed to fetch"))).toMatch(/^Could not reach the mdc server/);
    expect(errorText(new MdcError("x", { httpStatus: 503, code: "UNAVAILABLE" }))).toMatch(/unavailable for a moment/);
    expect(errorText(new MdcError("x", { httpStatus: 429, code: "RESOURCE_EXHAUSTED", retryAfter: 1 }))).toBe(
      "Too many requests at once. Wait 1 second, then try again.");
    expect(errorText(new MdcError("internal", { httpStatus: 500, code: "INTERNAL" }))).toMatch(/^Something went wrong/);
    expect(errorText(bad([{ field: "tags[2]", description: "must be 1-50 characters" }]))).toBe("Tag 3 must be 1-50 characters.");
  });

  it("handles errors that are not the API's", () => {
    expect(formErrors(new Error("boom"), ["x"])).toEqual({ fields: {}, message: "Boom." });
    expect(errorText("plain")).toBe("Plain.");
  });
});
