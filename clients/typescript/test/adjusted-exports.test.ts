// Adjusted exports through the client's export (docs/api.md section 13.6) and an admin's entry of one
// corporate action (section 13.7), against the real stack: a 1:1 bonus and a Rs 10 -> Rs 2 split imported
// from an NSE-layout file, a Rs 4 dividend entered with createCorporateAction, one quote a day over four
// days, and the exported closes and volumes checked against values computed by hand. Skipped without a
// stack unless MDC_REQUIRE_STACK=1 makes that a failure.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { MdcClient, MdcError } from "../src/index.js";
import { isinWithCheckDigit, nseDate } from "./nse-files.js";
import { missingEnv, Stack } from "./stack.js";

const missing = missingEnv();
if (missing.length && process.env["MDC_REQUIRE_STACK"] === "1") {
  throw new Error("no mdc stack: set " + missing.join(", "));
}

const ist = (day: string, hh = 0) => new Date(`${day}T${String(hh).padStart(2, "0")}:00:00+05:30`);
// Tuesday to Friday: the bonus on D2, the split on D3, the dividend on D4.
const [D1, D2, D3, D4, AFTER] = ["2035-02-06", "2035-02-07", "2035-02-08", "2035-02-09", "2035-02-12"] as const;
const STORED: [string, number, number][] = [[D1, 1000, 100], [D2, 500, 200], [D3, 100, 1000], [D4, 98, 1000]];
// By hand: before D2 x 1/2, before D3 x 1/5 (volumes inversely); all also x (1 - 4/100) before D4 (100:
// D3's close).
const SPLIT = [[100, 1000], [100, 1000], [100, 1000], [98, 1000]];
const ALL = [[96, 1000], [96, 1000], [96, 1000], [98, 1000]];

function near(actual: number[][], expected: number[][]): void {
  assert.equal(actual.length, expected.length, `rows: ${JSON.stringify(actual)}`);
  actual.forEach((row, i) => row.forEach((v, j) => assert.ok(Math.abs(v - expected[i]![j]!) < 1e-9, JSON.stringify(actual))));
}

/** The rows of a CSV export (CRLF lines, no quoted commas in these files), as objects by column. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split(/\r?\n/);
  const names = header!.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i], v])));
}

describe("adjusted exports and one entered corporate action", { skip: missing.length ? "no mdc stack" : false }, () => {
  let stack: Stack;
  let admin: MdcClient;
  let client: MdcClient;

  before(async () => {
    stack = await Stack.start();
    admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    const created = await admin.createDeveloper("tsadjexp-" + randomBytes(4).toString("hex"));
    client = new MdcClient({ baseUrl: stack.baseUrl, token: created.token!, timeoutMs: 10_000 });
  });

  after(async () => {
    await stack?.stop();
  });

  it("exports adjusted quotes and candles that say so", async () => {
    const tag = randomBytes(3).toString("hex").toUpperCase();
    const symbol = "TSEXP" + tag;
    const isin = isinWithCheckDigit("INE" + randomBytes(4).toString("hex").toUpperCase());
    const name = `Tsexport ${tag} Limited`;
    const listed = await admin.importInstruments("equity_list",
      "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE\n" +
      `${symbol},${name},EQ,06-OCT-2020,10,1,${isin},10\n`);
    assert.equal(listed.imported, 1);
    const imported = await admin.importCorporateActions("SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE,RECORD DATE\n" +
      `${symbol},${name},EQ,Bonus 1:1,10,${nseDate(D2)},-\n` +
      `${symbol},${name},EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,10,${nseDate(D3)},-\n`);
    assert.equal(imported.imported, 2);
    for (const [day, price, volume] of STORED) {
      await client.saveQuotes(ist(day, 10), { [symbol]: { status: "SUCCESS", payload: { last_price: price, volume } } });
    }

    // The dividend entered by the admin; its default description is NSE's wording; again changes nothing.
    const entered = await admin.createCorporateAction({ symbol, kind: "dividend", exDate: D4, amount: 4 });
    assert.deepEqual([entered.created, entered.action?.isin, entered.action?.exDate, entered.action?.kind, entered.action?.amount,
      entered.action?.description], [true, isin, D4, "dividend", 4, "Dividend Rs 4"]);
    assert.equal((await admin.createCorporateAction({ isin, kind: "dividend", exDate: D4, amount: 4 })).created, false);
    assert.deepEqual((await client.corporateActions(symbol)).map((a) => a.priceFactor), [0.5, 0.2, 0.96]);
    await assert.rejects(admin.createCorporateAction({ isin, kind: "dividend", exDate: D4, amount: 5, description: "Dividend Rs 4" }),
      (e: unknown) => e instanceof MdcError && e.code === "FAILED_PRECONDITION");
    await assert.rejects(admin.createCorporateAction({ symbol, kind: "dividend", exDate: D4 }), (e: unknown) =>
      e instanceof MdcError && e.httpStatus === 400 && e.fieldViolations.some((v) => v.field === "amount"));
    await assert.rejects(client.createCorporateAction({ symbol, kind: "dividend", exDate: D4, amount: 4 }),
      (e: unknown) => e instanceof MdcError && e.httpStatus === 403);

    const later = client.backtestClock(ist(AFTER, 12), { runId: "ts-adjusted-exports" });
    const text = async (stream: Promise<ReadableStream<Uint8Array>>) => new Response(await stream).text();
    const candles = csvRows(await text(later.export("candles", ist(D1), { end: ist(D4), symbols: [symbol], interval: "1day",
      format: "csv", adjustment: "split" })));
    near(candles.map((r) => [Number(r["close"]), Number(r["volume"])]), SPLIT);
    assert.deepEqual(candles.map((r) => r["adjustment"]), ["split", "split", "split", "split"]);
    const lines = (await text(later.export("quotes", ist(D1), { end: ist(D4), symbols: [symbol], format: "ndjson",
      adjustment: "all" }))).trim().split("\n").map((l) => JSON.parse(l) as { adjustment?: string; quote?: { quoteData?: {
      payload?: { last_price?: number; volume?: number } } } });
    near(lines.map((l) => [l.quote?.quoteData?.payload?.last_price ?? NaN, l.quote?.quoteData?.payload?.volume ?? NaN]), ALL);
    assert.deepEqual(lines.map((l) => l.adjustment), ["all", "all", "all", "all"]);
    const raw = csvRows(await text(later.export("quotes", ist(D1), { end: ist(D4), symbols: [symbol], format: "csv" })));
    near(raw.map((r) => [Number(r["last_price"]), Number(r["volume"])]), STORED.map(([, p, v]) => [p, v]));
    assert.ok(!("adjustment" in raw[0]!));
    // Point in time: on D3 the dividend is not known yet.
    const early = csvRows(await text(client.backtestClock(ist(D3, 12)).export("candles", ist(D1), { end: ist(D2), symbols: [symbol],
      interval: "1day", format: "csv", adjustment: "all" })));
    near(early.map((r) => [Number(r["close"]), Number(r["volume"])]), SPLIT.slice(0, 2));

    await assert.rejects(client.export("quotes", ist(D1), { end: ist(D4), adjustment: "split" }), (e: unknown) =>
      e instanceof MdcError && e.httpStatus === 400 && e.fieldViolations.some((v) => v.field === "adjustment"));
  });
});
