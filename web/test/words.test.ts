import { describe, expect, it } from "vitest";
import { fieldLabel, humanize, plural, sentence } from "../src/words";

describe("the API's words for people", () => {
  it("names fields by the forms' labels", () => {
    expect(fieldLabel("end_datetime")).toBe("End");
    expect(fieldLabel("startDatetime")).toBe("Start");
    expect(fieldLabel("data.quotes[0].quoteData.payload.last_price")).toBe("Last price");
    expect(fieldLabel("dates[1]")).toBe("Date 2");
    expect(fieldLabel("takeProfitPercentage")).toBe("Take profit %");
  });

  it("writes instants in IST and field names as phrases", () => {
    expect(humanize("must be below entryPrice")).toBe("must be below the entry price");
    expect(humanize("must not be after end_datetime")).toBe("must not be after the end");
    expect(humanize("2025-01-02T04:00:00Z is at or after the clock 2025-01-02T04:00:00.5Z"))
      .toBe("2025-01-02 09:30:00 IST is at or after the clock 2025-01-02 09:30:00 IST");
    expect(humanize("no TOP_GAINERS snapshot")).toBe("no top gainers snapshot");
    expect(humanize("an unknownName stays")).toBe("an unknownName stays");
  });

  it("makes sentences and plurals", () => {
    expect(sentence("must be set")).toBe("Must be set.");
    expect(sentence("Done!")).toBe("Done!");
    expect(plural(1, "order")).toBe("1 order");
    expect(plural(4, "order")).toBe("4 orders");
    expect(plural(0, "entry", "entries")).toBe("0 entries");
    expect(plural(120000, "quote")).toBe("1,20,000 quotes");
  });
});
