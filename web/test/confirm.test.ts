import { describe, expect, it } from "vitest";
import { confirmPhrase } from "../src/pages/admin/confirm";

describe("confirmPhrase", () => {
  it("names the day for one and the count for several", () => {
    expect(confirmPhrase(["2025-01-02"])).toBe("delete 2025-01-02");
    expect(confirmPhrase(["2025-01-02", "2025-01-03", "2025-01-06"])).toBe("delete 3 days");
  });
});
