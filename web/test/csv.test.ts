import { describe, expect, it } from "vitest";
import { csvFileName, parseCsv, toCsv } from "../src/csv";

describe("CSV", () => {
  const columns = [
    { header: "Time (IST)", value: (r: { t: string; v: number | undefined; s: string }) => r.t },
    { header: "Price", value: (r: { v: number | undefined }) => r.v },
    { header: "Note", value: (r: { s: string }) => r.s },
  ];

  it("quotes what needs quoting and writes numbers plainly", () => {
    const text = toCsv(columns, [
      { t: "2025-01-02 09:15:00", v: 1240.5, s: "plain" },
      { t: "2025-01-02 09:16:00", v: undefined, s: 'say "hi", then\nleave' },
      { t: "2025-01-02 09:17:00", v: -3, s: "=HYPERLINK(1)" },
      { t: "x", v: NaN, s: " padded " },
    ]);
    expect(text).toBe(
      'Time (IST),Price,Note\r\n2025-01-02 09:15:00,1240.5,plain\r\n2025-01-02 09:16:00,,"say ""hi"", then\nleave"\r\n' +
      "2025-01-02 09:17:00,-3,'=HYPERLINK(1)\r\nx,,\" padded \"\r\n");
  });

  it("reads back what it writes", () => {
    const rows = [{ t: "a,b", v: 1, s: 'q"q' }, { t: "line\r\nbreak", v: 2, s: "" }];
    expect(parseCsv(toCsv(columns, rows))).toEqual([["Time (IST)", "Price", "Note"], ["a,b", "1", 'q"q'], ["line\r\nbreak", "2", ""]]);
  });

  it("makes safe file names", () => {
    expect(csvFileName("orders", "run", "12")).toBe("orders-run-12.csv");
    expect(csvFileName("quotes", "M&M", "2025-01-02")).toBe("quotes-M&M-2025-01-02.csv");
    expect(csvFileName("a b/c", undefined)).toBe("a-b-c.csv");
  });
});
