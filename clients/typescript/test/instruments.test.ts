// The security master, corporate actions and adjusted reads through the client (docs/api.md section 13),
// against the real stack: NSE-layout files this test writes (an equity list, a symbol change, corporate
// actions with a 1:1 bonus, a 1:5 split and a dividend), then every read that takes `adjustment` checked
// against values computed by hand, point in time (the backtest clock) included; and the adjusted exports
// with an admin's entry of one corporate action (sections 13.6, 13.7). Skipped without a stack
// unless MDC_REQUIRE_STACK=1 makes that a failure.
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

/** 00:00 IST of a day, as a Date. */
const ist = (day: string, hh = 0) => new Date(`${day}T${String(hh).padStart(2, "0")}:00:00+05:30`);
// Tuesday to Friday: a bonus (1:1) on D2, a split (Rs 10 to Rs 2) on D3, a Rs 4 dividend on D4.
const [D1, D2, D3, D4, AFTER] = ["2035-01-02", "2035-01-03", "2035-01-04", "2035-01-05", "2035-01-08"] as const;
// One quote a day: the close and the day's volume as stored.
const STORED: [string, number, number][] = [[D1, 1000, 100], [D2, 500, 200], [D3, 100, 1000], [D4, 98, 1000]];
// By hand. split: before D2 x 1/2, before D3 x 1/5, volumes inversely; all: also x (1 - 4/100) before D4
// (100: D3's close).
const SPLIT = [[100, 1000], [100, 1000], [100, 1000], [98, 1000]];
const ALL = [[96, 1000], [96, 1000], [96, 1000], [98, 1000]];

function near(actual: (number | null | undefined)[][], expected: number[][]): void {
  assert.equal(actual.length, expected.length, `rows: ${JSON.stringify(actual)}`);
  actual.forEach((row, i) => row.forEach((v, j) => assert.ok(Math.abs((v ?? NaN) - expected[i]![j]!) < 1e-9, `${JSON.stringify(actual)}`)));
}

// The exports' days, Tuesday to Friday: the bonus on E2, the split on E3, the dividend on E4 (STORED's prices
// and volumes stored on them, so adjusted as SPLIT and ALL).
const [E1, E2, E3, E4, E_AFTER] = ["2035-02-06", "2035-02-07", "2035-02-08", "2035-02-09", "2035-02-12"] as const;

/** The rows of a CSV export (CRLF lines, no quoted commas in these files), as objects by column. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split(/\r?\n/);
  const names = header!.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i], v])));
}

describe("instruments, corporate actions and adjusted reads", { skip: missing.length ? "no mdc stack" : false }, () => {
  let stack: Stack;
  let admin: MdcClient;
  let client: MdcClient;

  before(async () => {
    stack = await Stack.start();
    admin = new MdcClient({ baseUrl: stack.baseUrl, token: stack.adminToken });
    const created = await admin.createDeveloper("tsinstr-" + randomBytes(4).toString("hex"));
    client = new MdcClient({ baseUrl: stack.baseUrl, token: created.token!, timeoutMs: 10_000 });
  });

  after(async () => {
    await stack?.stop();
  });

  it("imports NSE's files and reads adjusted candles, timelines and cross-sections", async () => {
    const tag = randomBytes(3).toString("hex").toUpperCase();
    const [oldSymbol, symbol, stranger] = ["TSOLD" + tag, "TSNEW" + tag, "TSNONE" + tag];
    const isin = isinWithCheckDigit("INE" + randomBytes(4).toString("hex").toUpperCase());
    const name = `Tsinstr ${tag} Limited`;

    const equityList = "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE\n" +
      `${symbol},${name},EQ,06-OCT-2020,10,1,${isin},10\n${stranger},Nobody,EQ,06-OCT-2020,10,1,INE000000000,10\n`;
    const listed = await admin.importInstruments("equity_list", new Blob([equityList], { type: "text/csv" }));
    assert.deepEqual([listed.kind, listed.imported, listed.unchanged, listed.rejected?.map((r) => r.line)], ["equity_list", 1, 0, [3]]);
    assert.equal((await admin.importInstruments("equity_list", equityList)).unchanged, 1);
    const changes = `SM_NAME_OF_COMPANY,SM_KEY_SYMBOL,SM_NEW_SYMBOL,SM_APPLICABLE_FROM\n${name},${oldSymbol},${symbol},02-JUN-2021\n`;
    assert.equal((await admin.importInstruments("symbol_changes", changes)).imported, 1);
    const actionsFile = "SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE,RECORD DATE\n" +
      `${symbol},${name},EQ,Bonus 1:1,10,${nseDate(D2)},-\n` +
      `${symbol},${name},EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,10,${nseDate(D3)},-\n` +
      `${symbol},${name},EQ,Interim Dividend - Rs 4 Per Share,2,${nseDate(D4)},-\n` +
      `${symbol},${name},EQ,Annual General Meeting,2,${nseDate(D4)},-\n` +
      `${stranger},Nobody,EQ,Bonus 1:1,10,${nseDate(D2)},-\n`;
    const imported = await admin.importCorporateActions(actionsFile);
    assert.deepEqual([imported.kind, imported.imported, imported.ignored?.map((r) => r.line), imported.rejected?.map((r) => r.line)],
      ["corporate_actions", 3, [5], [6]]);
    assert.equal((await admin.importCorporateActions(actionsFile)).unchanged, 3);

    const [byOld] = await client.instruments({ symbol: oldSymbol });
    assert.deepEqual([byOld?.isin, byOld?.symbol, byOld?.name, byOld?.listingDate, byOld?.faceValue], [isin, symbol, name, "2020-10-06", 10]);
    assert.deepEqual(byOld?.symbols?.map((s) => [s.symbol, s.validFrom, s.validTo ?? ""]),
      [[oldSymbol, "2020-10-06", "2021-06-02"], [symbol, "2021-06-02", ""]]);
    assert.equal((await client.instruments({ isin }, { asOf: ist("2021-01-01", 12) }))[0]?.symbol, oldSymbol);
    assert.deepEqual((await client.instruments({ prefix: `tsinstr ${tag.toLowerCase()}` })).map((i) => i.isin), [isin]);
    await assert.rejects(client.instruments({ symbol, isin } as unknown as { symbol: string }), (e: unknown) =>
      e instanceof MdcError && e.code === "INVALID_ARGUMENT");

    for (const [day, price, volume] of STORED) {
      await client.saveQuotes(ist(day, 10), { [symbol]: { status: "SUCCESS", payload: { last_price: price, volume } } });
    }
    const actions = await client.corporateActions(oldSymbol);
    assert.deepEqual(actions.map((a) => [a.exDate, a.kind]), [[D2, "bonus"], [D3, "split"], [D4, "dividend"]]);
    near([actions.map((a) => a.priceFactor), actions.map((a) => a.volumeFactor)], [[0.5, 0.2, 0.96], [2, 5, 1]]);
    assert.deepEqual((await client.corporateActions(symbol, { start: ist(D3, 12), end: ist(D3, 12) })).map((a) => a.kind), ["split"]);

    const range = { start: ist(D1), end: ist(AFTER) };
    const rows = (s: { candles?: { close?: number; volume?: number | null }[] }) => (s.candles ?? []).map((c) => [c.close, c.volume]);
    // Today (years before the ex-dates) no action is known yet.
    near(rows(await client.candles(symbol, "1day", { ...range, adjustment: "split" })), STORED.map(([, p, v]) => [p, v]));
    const later = client.backtestClock(ist(AFTER, 12), { runId: "ts-instruments" });
    const raw = await later.candles(symbol, "1day", range);
    assert.equal(raw.adjustment ?? null, null);
    near(rows(raw), STORED.map(([, p, v]) => [p, v]));
    const split = await later.candles(symbol, "1day", { ...range, adjustment: "split" });
    assert.equal(split.adjustment, "split");
    near(rows(split), SPLIT);
    const bars = await later.candlesOfSymbols([symbol], "1day", { ...range, adjustment: "all" });
    near(bars.rows.map((r) => [r.close, r.volume]), ALL);
    const timeline = [];
    for await (const q of later.quoteTimeline(symbol, { ...range, adjustment: "all" })) {
      timeline.push([q.quoteData?.payload?.last_price, q.quoteData?.payload?.volume]);
    }
    near(timeline, ALL);
    const xs = await later.quotes([symbol], { asOf: ist(D1, 15), adjustment: "split" });
    assert.equal(xs.adjustment, "split");
    near([[xs.quotes?.[0]?.quoteData?.payload?.last_price, xs.quotes?.[0]?.quoteData?.payload?.volume]], [SPLIT[0]!]);
    // Point in time: on D3 the bonus and the split are known, the dividend not yet.
    near(rows(await client.backtestClock(ist(D3, 12)).candles(symbol, "1day", { start: ist(D1), end: ist(D3, 11), adjustment: "all" })),
      SPLIT.slice(0, 3));

    await assert.rejects(client.candles(symbol, "1day", { ...range, adjustment: "dividend" as "all" }), (e: unknown) =>
      e instanceof MdcError && e.httpStatus === 400 && e.fieldViolations.some((v) => v.field === "adjustment"));
    await assert.rejects(admin.importCorporateActions(changes), (e: unknown) =>
      e instanceof MdcError && e.httpStatus === 400 && e.fieldViolations.some((v) => v.field === "csv"));
    await assert.rejects(client.importCorporateActions(actionsFile), (e: unknown) => e instanceof MdcError && e.httpStatus === 403);
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
      `${symbol},${name},EQ,Bonus 1:1,10,${nseDate(E2)},-\n` +
      `${symbol},${name},EQ,Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share,10,${nseDate(E3)},-\n`);
    assert.equal(imported.imported, 2);
    for (const [i, [, price, volume]] of STORED.entries()) {
      await client.saveQuotes(ist([E1, E2, E3, E4][i]!, 10), { [symbol]: { status: "SUCCESS", payload: { last_price: price, volume } } });
    }

    // The dividend entered by the admin; its default description is NSE's wording; again changes nothing.
    const entered = await admin.createCorporateAction({ symbol, kind: "dividend", exDate: E4, amount: 4 });
    assert.deepEqual([entered.created, entered.action?.isin, entered.action?.exDate, entered.action?.kind, entered.action?.amount,
      entered.action?.description], [true, isin, E4, "dividend", 4, "Dividend Rs 4"]);
    assert.equal((await admin.createCorporateAction({ isin, kind: "dividend", exDate: E4, amount: 4 })).created, false);
    assert.deepEqual((await client.corporateActions(symbol)).map((a) => a.priceFactor), [0.5, 0.2, 0.96]);
    await assert.rejects(admin.createCorporateAction({ isin, kind: "dividend", exDate: E4, amount: 5, description: "Dividend Rs 4" }),
      (e: unknown) => e instanceof MdcError && e.code === "FAILED_PRECONDITION");
    await assert.rejects(admin.createCorporateAction({ symbol, kind: "dividend", exDate: E4 }), (e: unknown) =>
      e instanceof MdcError && e.httpStatus === 400 && e.fieldViolations.some((v) => v.field === "amount"));
    await assert.rejects(client.createCorporateAction({ symbol, kind: "dividend", exDate: E4, amount: 4 }),
      (e: unknown) => e instanceof MdcError && e.httpStatus === 403);

    const later = client.backtestClock(ist(E_AFTER, 12), { runId: "ts-adjusted-exports" });
    const text = async (stream: Promise<ReadableStream<Uint8Array>>) => new Response(await stream).text();
    const candles = csvRows(await text(later.export("candles", ist(E1), { end: ist(E4), symbols: [symbol], interval: "1day",
      format: "csv", adjustment: "split" })));
    near(candles.map((r) => [Number(r["close"]), Number(r["volume"])]), SPLIT);
    assert.deepEqual(candles.map((r) => r["adjustment"]), ["split", "split", "split", "split"]);
    const lines = (await text(later.export("quotes", ist(E1), { end: ist(E4), symbols: [symbol], format: "ndjson",
      adjustment: "all" }))).trim().split("\n").map((l) => JSON.parse(l) as { adjustment?: string; quote?: { quoteData?: {
      payload?: { last_price?: number; volume?: number } } } });
    near(lines.map((l) => [l.quote?.quoteData?.payload?.last_price ?? NaN, l.quote?.quoteData?.payload?.volume ?? NaN]), ALL);
    assert.deepEqual(lines.map((l) => l.adjustment), ["all", "all", "all", "all"]);
    const raw = csvRows(await text(later.export("quotes", ist(E1), { end: ist(E4), symbols: [symbol], format: "csv" })));
    near(raw.map((r) => [Number(r["last_price"]), Number(r["volume"])]), STORED.map(([, p, v]) => [p, v]));
    assert.ok(!("adjustment" in raw[0]!));
    // Point in time: on E3 the dividend is not known yet.
    const early = csvRows(await text(client.backtestClock(ist(E3, 12)).export("candles", ist(E1), { end: ist(E2), symbols: [symbol],
      interval: "1day", format: "csv", adjustment: "all" })));
    near(early.map((r) => [Number(r["close"]), Number(r["volume"])]), SPLIT.slice(0, 2));

    await assert.rejects(client.export("quotes", ist(E1), { end: ist(E4), adjustment: "split" }), (e: unknown) =>
      e instanceof MdcError && e.httpStatus === 400 && e.fieldViolations.some((v) => v.field === "adjustment"));
  });
});
