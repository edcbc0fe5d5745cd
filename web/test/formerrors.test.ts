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
      fields: { entryPrice: "must be above stopLossPrice; must be below takeProfitPrice" },
      message: "X-Current-Timestamp: malformed",
    });
  });

  it("shows the message when no field is named", () => {
    const e = new MdcError("username alice is taken", { httpStatus: 409, code: "ALREADY_EXISTS", reason: "USERNAME_TAKEN" });
    expect(formErrors(e, ["username"])).toEqual({ fields: {}, message: "username alice is taken" });
    expect(errorText(e)).toBe("username alice is taken");
  });

  it("handles errors that are not the API's", () => {
    expect(formErrors(new TypeError("failed to fetch"), ["x"])).toEqual({ fields: {}, message: "failed to fetch" });
    expect(errorText("plain")).toBe("plain");
  });
});
