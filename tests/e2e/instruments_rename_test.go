package e2e

// Continuity across a rename (docs/api.md section 13.5): reads over a
// range by the old or the new symbol give the instrument's whole history,
// each symbol over the days it named the instrument, each record naming
// the symbol it was stored under.

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A stock renamed OLD -> NEW from Wednesday 2034-03-15: two days under
// OLD (two quotes of one price on the second, so every day's candle is
// flat), two under NEW (IST).
var renameHistory = struct{ old, new []devQuote }{
	old: []devQuote{
		{"2034-03-13T10:00:00", 100, 1000},
		{"2034-03-14T10:00:00", 104, 1500},
		{"2034-03-14T14:00:00", 104, 2000},
	},
	new: []devQuote{
		{"2034-03-15T10:00:00", 106, 500},
		{"2034-03-16T10:00:00", 108, 700},
	},
}

// storeRenameHistory lists company under newSym (renamed from oldSym on
// 2034-03-15) and stores renameHistory, then one more quote under oldSym
// after the rename (999 at 11:00 IST on the 15th): a collector still
// writing the old symbol is accepted, its record stays under OLD, outside
// the instrument's series.
func storeRenameHistory(t *testing.T, s *Stack, token, company, oldSym, newSym string) {
	t.Helper()
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=equity_list",
		equityListHeader+newSym+","+company+",EQ,02-JAN-2031,10,1,"+uniqueIsin(t)+",10\n"), "equity_list", 1, 0)
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=symbol_changes",
		symbolChangeHeader+company+","+oldSym+","+newSym+",15-Mar-2034\n"), "symbol_changes", 1, 0)
	postQuotes(t, s, token, oldSym, renameHistory.old...)
	postQuotes(t, s, token, newSym, renameHistory.new...)
	postQuotes(t, s, token, oldSym, devQuote{"2034-03-15T11:00:00", 999, 1})
}

func TestInstrumentsRenameContinuity(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	oldSym, newSym := uniqueSymbol(t, "RO"), uniqueSymbol(t, "RN")
	storeRenameHistory(t, s, token, "Continuity Co", oldSym, newSym)

	const start, end = "2034-03-13T00:00:00", "2034-03-18T00:00:00"
	wantSymbols := []string{oldSym, oldSym, oldSym, newSym, newSym}
	for _, asked := range []string{oldSym, newSym} {
		// Historical candles: one a day, each naming its stored symbol.
		r := s.Do(t, "GET", query("/v1/developer/historical-candles", map[string]string{
			"symbol": asked, "interval": "1day", "start_datetime": start, "end_datetime": end}), token, nil)
		expectDayCandles(t, "1day by "+asked, r, "", []dayCandle{
			{"2034-03-12T18:30:00Z", 100, 1000}, {"2034-03-13T18:30:00Z", 104, 2000},
			{"2034-03-14T18:30:00Z", 106, 500}, {"2034-03-15T18:30:00Z", 108, 700},
		})
		if r.JSON["symbol"] != asked {
			t.Errorf("by %s: series symbol %v", asked, r.JSON["symbol"])
		}
		candles := asSlice(r.JSON["candles"])
		for i, want := range []string{oldSym, oldSym, newSym, newSym} {
			if got := field(candles[i], "symbol"); got != want {
				t.Errorf("1day by %s candle %d: symbol %v, want %s", asked, i, got, want)
			}
		}
		// The week across the rename is one candle: open under OLD, close
		// under NEW, the volumes of both.
		w := s.Do(t, "GET", query("/v1/developer/historical-candles", map[string]string{
			"symbol": asked, "interval": "1week", "start_datetime": start, "end_datetime": end}), token, nil)
		expectStatus(t, w, 200)
		weeks := asSlice(w.JSON["candles"])
		if len(weeks) != 1 {
			t.Fatalf("1week by %s: %s", asked, w.Text())
		}
		for k, want := range map[string]float64{"open": 100, "high": 108, "low": 100, "close": 108, "volume": 1000 + 2000 + 500 + 700} {
			if got := num(t, field(weeks[0], k)); math.Abs(got-want) > 1e-9 {
				t.Errorf("1week by %s: %s %v, want %v", asked, k, got, want)
			}
		}
		if field(weeks[0], "symbol") != newSym {
			t.Errorf("1week by %s: symbol %v, want %s (its close's)", asked, field(weeks[0], "symbol"), newSym)
		}

		// Candles of symbols.
		m := s.Do(t, "GET", query("/v1/developer/candles", map[string]string{
			"symbols": asked, "interval": "1day", "start_datetime": start, "end_datetime": end}), token, nil)
		expectStatus(t, m, 200)
		series := asSlice(m.JSON["series"])
		if len(series) != 1 || len(asSlice(field(series[0], "candles"))) != 4 ||
			field(asSlice(field(series[0], "candles"))[3], "symbol") != newSym {
			t.Fatalf("candles of symbols by %s: %s", asked, m.Text())
		}

		// The quote timeline, in pages of 2 that cross the rename.
		var got []string
		var prices []float64
		token2 := ""
		for page := 0; page < 5; page++ {
			p := map[string]string{"symbol": asked, "start_datetime": start, "end_datetime": end, "page_size": "2"}
			if token2 != "" {
				p["page_token"] = token2
			}
			tl := s.Do(t, "GET", query("/v1/developer/quote-timeline", p), token, nil)
			expectStatus(t, tl, 200)
			for _, q := range asSlice(tl.JSON["quotes"]) {
				got = append(got, field(q, "nseSymbol").(string))
				prices = append(prices, num(t, field(q, "quoteData", "payload", "last_price")))
			}
			next, _ := tl.JSON["nextPageToken"].(string)
			if next == "" {
				break
			}
			token2 = next
		}
		if strings.Join(got, ",") != strings.Join(wantSymbols, ",") {
			t.Errorf("timeline by %s: symbols %v, want %v", asked, got, wantSymbols)
		}
		for i, want := range []float64{100, 104, 104, 106, 108} {
			if i < len(prices) && prices[i] != want {
				t.Errorf("timeline by %s: prices %v", asked, prices)
				break
			}
		}

		// The quote export of the listed symbol, and of both (the instrument
		// once).
		for _, symbols := range []string{asked, oldSym + "," + newSym} {
			e := getRaw(t, s, "/v1/developer/export/quotes?start_date=2034-03-13&end_date=2034-03-17&symbols="+symbols, token)
			expectStatus(t, e, 200)
			header, rows := csvRows(t, e.Body)
			if got := strings.Join(csvColumn(t, header, rows, "nse_symbol"), ","); got != strings.Join(wantSymbols, ",") {
				t.Errorf("quote export of %s: symbols %s", symbols, got)
			}
			if got := strings.Join(csvColumn(t, header, rows, "last_price"), ","); got != "100,104,104,106,108" {
				t.Errorf("quote export of %s: prices %s", symbols, got)
			}
		}
		// The candle export.
		c := getRaw(t, s, "/v1/developer/export/candles?start_date=2034-03-13&end_date=2034-03-17&interval=1day&format=ndjson&symbols="+asked+","+oldSym, token)
		expectStatus(t, c, 200)
		lines := ndjsonLines(t, c.Body)
		var exported []string
		for _, l := range lines {
			exported = append(exported, fmt.Sprintf("%v@%v", field(l, "candle", "symbol"), num(t, field(l, "candle", "candle", "close"))))
		}
		want := oldSym + "@100," + oldSym + "@104," + newSym + "@106," + newSym + "@108"
		if strings.Join(exported, ",") != want {
			t.Errorf("candle export by %s: %v, want %s", asked, exported, want)
		}
	}

	// Every symbol of a day is exported as stored: the late OLD write is
	// there, under OLD.
	e := getRaw(t, s, "/v1/developer/export/quotes?start_date=2034-03-15", token)
	expectStatus(t, e, 200)
	header, rows := csvRows(t, e.Body)
	syms, prices := csvColumn(t, header, rows, "nse_symbol"), csvColumn(t, header, rows, "last_price")
	late := false
	for i := range syms {
		late = late || syms[i] == oldSym && prices[i] == "999"
	}
	if !late {
		t.Errorf("the export of every symbol lacks the late %s write", oldSym)
	}
}
