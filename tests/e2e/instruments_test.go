package e2e

// The security master, corporate actions and adjusted candles (docs/api.md,
// "Instruments and corporate actions", "Adjusted reads"): files in NSE's
// layouts written here, a rename mid-history, a 1:1 bonus, a 1:5 split and
// a dividend, and candles checked against values computed by hand, point
// in time included.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const equityListHeader = "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE\n"
const symbolChangeHeader = "SM_NAME_OF_COMPANY, SM_KEY_SYMBOL, SM_NEW_SYMBOL, SM_APPLICABLE_FROM\n"
const corporateActionsHeader = `"SYMBOL","COMPANY NAME","SERIES","PURPOSE","FACE VALUE","EX-DATE","RECORD DATE","BC START DATE","BC END DATE"` + "\n"

// The synthetic history of one stock (IST, one quote a day at 10:00):
// a 1:1 bonus ex 2033-08-08, a split of face value Rs 10 to Rs 2 (1 share
// into 5) ex 2033-08-16, a dividend of Rs 4 ex 2033-08-23 after a close of
// 40 (factor 1 - 4/40 = 0.9), and a rename on 2033-09-15.
var adjustedHistory = []devQuote{
	{"2033-08-05T10:00:00", 400, 1000},
	{"2033-08-08T10:00:00", 200, 2000},
	{"2033-08-12T10:00:00", 210, 2000},
	{"2033-08-16T10:00:00", 42, 10000},
	{"2033-08-22T10:00:00", 40, 10000},
	{"2033-08-23T10:00:00", 36, 10000},
}

// dayCandle is a 1day candle's trading day (its time is 00:00 IST, the
// previous day 18:30 UTC), close and volume.
type dayCandle struct {
	time          string
	close, volume float64
}

func expectDayCandles(t *testing.T, what string, r *Response, adjustment string, want []dayCandle) {
	t.Helper()
	expectStatus(t, r, 200)
	if got, ok := r.JSON["adjustment"]; adjustment == "" && ok || adjustment != "" && got != adjustment {
		t.Errorf("%s: adjustment %v, want %q", what, got, adjustment)
	}
	got := asSlice(r.JSON["candles"])
	if len(got) != len(want) {
		t.Fatalf("%s: %d candles, want %d: %s", what, len(got), len(want), r.Text())
	}
	for i, w := range want {
		c := got[i]
		closeV, volume := num(t, field(c, "close")), num(t, field(c, "volume"))
		if field(c, "time") != w.time || math.Abs(closeV-w.close) > 1e-9 || math.Abs(volume-w.volume) > 1e-6 {
			t.Errorf("%s candle %d: got %v %v %v, want %+v", what, i, field(c, "time"), closeV, volume, w)
		}
		// One quote a day: open, high and low are the close.
		for _, k := range []string{"open", "high", "low"} {
			if math.Abs(num(t, field(c, k))-closeV) > 1e-9 {
				t.Errorf("%s candle %d: %s %v, want %v", what, i, k, field(c, k), closeV)
			}
		}
	}
}

func TestInstrumentsRenameCorporateActionsAndAdjustedCandles(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	oldSym, newSym := uniqueSymbol(t, "OLD"), uniqueSymbol(t, "NEW")
	isin := uniqueIsin(t)

	// Today's equity list names the new symbol; line 3 has a bad ISIN.
	equityList := equityListHeader +
		newSym + ",\"Renamed Co, Ltd\",EQ,02-JAN-2031,10,1," + isin + ",10\n" +
		"BADROW,Bad,EQ,-,10,1,INE000000009,10\n"
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=equity_list", equityList), "equity_list", 1, 0, 3)
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=equity_list", equityList), "equity_list", 0, 1, 3)
	changes := symbolChangeHeader + "Renamed Co," + oldSym + "," + newSym + ",15-Sep-2033\n"
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=symbol_changes", changes), "symbol_changes", 1, 0)
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=symbol_changes", changes), "symbol_changes", 0, 1)

	// Found by either symbol, with its history; the symbol as of a date.
	for _, sym := range []string{oldSym, newSym} {
		r := s.Do(t, "GET", "/v1/developer/instruments?symbol="+sym+"&date=2033-09-01", token, nil)
		expectStatus(t, r, 200)
		list := asSlice(r.JSON["instruments"])
		if len(list) != 1 || field(list[0], "isin") != isin || field(list[0], "symbol") != oldSym ||
			field(list[0], "name") != "Renamed Co, Ltd" || field(list[0], "listingDate") != "2031-01-02" {
			t.Fatalf("instruments?symbol=%s: %s", sym, r.Text())
		}
		history := asSlice(field(list[0], "symbols"))
		want := fmt.Sprintf("[%s 2031-01-02 2033-09-15] [%s 2033-09-15 ]", oldSym, newSym)
		var have []string
		for _, h := range history {
			have = append(have, fmt.Sprintf("[%v %v %v]", field(h, "symbol"), field(h, "validFrom"), field(h, "validTo")))
		}
		if strings.Join(have, " ") != want {
			t.Fatalf("history %s, want %s", strings.Join(have, " "), want)
		}
	}
	byIsin := s.Do(t, "GET", "/v1/developer/instruments?isin="+isin+"&date=2033-09-15", token, nil)
	expectStatus(t, byIsin, 200)
	if field(asSlice(byIsin.JSON["instruments"])[0], "symbol") != newSym {
		t.Fatalf("instruments?isin on the rename day: %s", byIsin.Text())
	}
	byPrefix := s.Do(t, "GET", "/v1/developer/instruments?prefix=renamed%20co", token, nil)
	expectStatus(t, byPrefix, 200)
	found := false
	for _, i := range asSlice(byPrefix.JSON["instruments"]) {
		found = found || field(i, "isin") == isin
	}
	if !found {
		t.Fatalf("instruments?prefix: %s", byPrefix.Text())
	}

	postQuotes(t, s, token, oldSym, adjustedHistory...)
	// Line 3 has no price effect (ignored), line 6 is not understood, line
	// 7 names no instrument.
	actions := corporateActionsHeader +
		oldSym + ",Renamed Co,EQ,Bonus 1:1,10,08-AUG-2033,09-AUG-2033,-,-\n" +
		oldSym + ",Renamed Co,EQ,Annual General Meeting,10,10-Aug-2033,-,-,-\n" +
		oldSym + `,Renamed Co,EQ,"Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share",10,16-Aug-2033,-,-,-` + "\n" +
		oldSym + ",Renamed Co,EQ,Interim Dividend - Rs 4 Per Share,2,23-Aug-2033,-,-,-\n" +
		oldSym + ",Renamed Co,EQ,Demerger,2,24-Aug-2033,-,-,-\n" +
		uniqueSymbol(t, "NONE") + ",Nobody,EQ,Bonus 1:1,10,08-AUG-2033,-,-,-\n"
	imported := postCSV(t, s, "/v1/admin/corporate-actions/import", actions)
	expectImport(t, imported, "corporate_actions", 3, 0, 6, 7)
	if ignored := asSlice(imported.JSON["ignored"]); len(ignored) != 1 || num(t, field(ignored[0], "line")) != 3 {
		t.Fatalf("ignored: %s", imported.Text())
	}
	expectImport(t, postCSV(t, s, "/v1/admin/corporate-actions/import", actions), "corporate_actions", 0, 3, 6, 7)

	// Listed by the new symbol, with their factors.
	list := s.Do(t, "GET", "/v1/developer/corporate-actions?symbol="+newSym, token, nil)
	expectStatus(t, list, 200)
	got := asSlice(list.JSON["actions"])
	want := []string{"2033-08-08 bonus 0.5 2", "2033-08-16 split 0.2 5", "2033-08-23 dividend 0.9 1"}
	if len(got) != len(want) {
		t.Fatalf("corporate-actions: %s", list.Text())
	}
	for i, w := range want {
		have := fmt.Sprintf("%v %v %.10g %.10g", field(got[i], "exDate"), field(got[i], "kind"),
			num(t, field(got[i], "priceFactor")), num(t, field(got[i], "volumeFactor")))
		if have != w {
			t.Errorf("action %d: %s, want %s", i, have, w)
		}
	}
	ranged := s.Do(t, "GET", "/v1/developer/corporate-actions?symbol="+oldSym+"&start_date=2033-08-10&end_date=2033-08-20", token, nil)
	expectStatus(t, ranged, 200)
	if a := asSlice(ranged.JSON["actions"]); len(a) != 1 || field(a[0], "kind") != "split" {
		t.Fatalf("corporate-actions in a range: %s", ranged.Text())
	}

	candles := func(adjustment string, end string, headers ...map[string]string) *Response {
		p := map[string]string{"symbol": oldSym, "interval": "1day",
			"start_datetime": "2033-08-01T00:00:00", "end_datetime": end}
		if adjustment != "" {
			p["adjustment"] = adjustment
		}
		return s.Do(t, "GET", query("/v1/developer/historical-candles", p), token, nil, headers...)
	}
	clock := func(at string) map[string]string {
		return map[string]string{"X-Current-Timestamp": at, "X-Current-Timezone": "Asia/Kolkata"}
	}
	after := clock("2033-09-01T12:00:00")
	rawDays := []dayCandle{
		{"2033-08-04T18:30:00Z", 400, 1000}, {"2033-08-07T18:30:00Z", 200, 2000},
		{"2033-08-11T18:30:00Z", 210, 2000}, {"2033-08-15T18:30:00Z", 42, 10000},
		{"2033-08-21T18:30:00Z", 40, 10000}, {"2033-08-22T18:30:00Z", 36, 10000},
	}
	// Raw: as stored, and no adjustment in the answer.
	expectDayCandles(t, "raw", candles("", "2033-09-01T00:00:00", after), "", rawDays)
	// Split: 0.5 (bonus) x 0.2 (split) before 08-08, 0.2 before 08-16.
	expectDayCandles(t, "split", candles("split", "2033-09-01T00:00:00", after), "split", []dayCandle{
		{"2033-08-04T18:30:00Z", 40, 10000}, {"2033-08-07T18:30:00Z", 40, 10000},
		{"2033-08-11T18:30:00Z", 42, 10000}, {"2033-08-15T18:30:00Z", 42, 10000},
		{"2033-08-21T18:30:00Z", 40, 10000}, {"2033-08-22T18:30:00Z", 36, 10000},
	})
	// All: also 0.9 before the dividend's ex-date 08-23.
	expectDayCandles(t, "all", candles("all", "2033-09-01T00:00:00", after), "all", []dayCandle{
		{"2033-08-04T18:30:00Z", 36, 10000}, {"2033-08-07T18:30:00Z", 36, 10000},
		{"2033-08-11T18:30:00Z", 37.8, 10000}, {"2033-08-15T18:30:00Z", 37.8, 10000},
		{"2033-08-21T18:30:00Z", 36, 10000}, {"2033-08-22T18:30:00Z", 36, 10000},
	})
	// Point in time: under a backtest clock at 2033-08-20 the dividend is
	// not known yet; at 2033-08-10 neither is the split; and today (before
	// 2033, without a clock) none of them is.
	expectDayCandles(t, "all at 08-20", candles("all", "2033-08-20T00:00:00", clock("2033-08-20T12:00:00")), "all", []dayCandle{
		{"2033-08-04T18:30:00Z", 40, 10000}, {"2033-08-07T18:30:00Z", 40, 10000},
		{"2033-08-11T18:30:00Z", 42, 10000}, {"2033-08-15T18:30:00Z", 42, 10000},
	})
	expectDayCandles(t, "all at 08-10", candles("all", "2033-08-10T00:00:00", clock("2033-08-10T12:00:00")), "all", []dayCandle{
		{"2033-08-04T18:30:00Z", 200, 2000}, {"2033-08-07T18:30:00Z", 200, 2000},
	})
	expectDayCandles(t, "all today", candles("all", "2033-09-01T00:00:00"), "all", rawDays)
	// The same factors on the other adjusted reads: candles of symbols,
	// the quote timeline (each quote's prices and quantities) and the
	// cross-section.
	multi := s.Do(t, "GET", query("/v1/developer/candles", map[string]string{
		"symbols": oldSym, "interval": "1day", "adjustment": "split",
		"start_datetime": "2033-08-01T00:00:00", "end_datetime": "2033-09-01T00:00:00"}), token, nil, after)
	expectStatus(t, multi, 200)
	series := asSlice(multi.JSON["series"])
	if len(series) != 1 || field(series[0], "adjustment") != "split" {
		t.Fatalf("candles of symbols: %s", multi.Text())
	}
	if c := asSlice(field(series[0], "candles")); len(c) != 6 || num(t, field(c[0], "close")) != 40 || num(t, field(c[2], "close")) != 42 {
		t.Fatalf("candles of symbols, split: %s", multi.Text())
	}
	timeline := s.Do(t, "GET", query("/v1/developer/quote-timeline", map[string]string{
		"symbol": oldSym, "adjustment": "all",
		"start_datetime": "2033-08-01T00:00:00", "end_datetime": "2033-09-01T00:00:00"}), token, nil, after)
	expectStatus(t, timeline, 200)
	quotes := asSlice(timeline.JSON["quotes"])
	wantPrices := []float64{36, 36, 37.8, 37.8, 36, 36}
	if len(quotes) != len(wantPrices) || timeline.JSON["adjustment"] != "all" {
		t.Fatalf("timeline: %s", timeline.Text())
	}
	for i, w := range wantPrices {
		payload := field(quotes[i], "quoteData", "payload")
		if math.Abs(num(t, field(payload, "last_price"))-w) > 1e-9 || math.Abs(num(t, field(payload, "volume"))-10000) > 1e-6 ||
			field(quotes[i], "nseSymbol") != oldSym {
			t.Errorf("timeline quote %d: %v, want price %v volume 10000", i, quotes[i], w)
		}
	}
	cross := s.Do(t, "GET", query("/v1/developer/quotes", map[string]string{
		"symbols": oldSym, "adjustment": "all", "datetime": "2033-08-05T15:00:00"}), token, nil, after)
	expectStatus(t, cross, 200)
	if q := asSlice(cross.JSON["quotes"]); len(q) != 1 || cross.JSON["adjustment"] != "all" ||
		math.Abs(num(t, field(q[0], "quoteData", "payload", "last_price"))-36) > 1e-9 {
		t.Fatalf("cross-section, all: %s", cross.Text())
	}
	rawCross := s.Do(t, "GET", query("/v1/developer/quotes", map[string]string{
		"symbols": oldSym, "datetime": "2033-08-05T15:00:00"}), token, nil, after)
	if _, has := rawCross.JSON["adjustment"]; has || num(t, field(asSlice(rawCross.JSON["quotes"])[0], "quoteData", "payload", "last_price")) != 400 {
		t.Fatalf("cross-section, raw: %s", rawCross.Text())
	}
	// A weekly candle over the bonus mixes adjusted and unadjusted days
	// correctly: each quote is adjusted before bucketing.
	weekly := s.Do(t, "GET", query("/v1/developer/historical-candles", map[string]string{
		"symbol": oldSym, "interval": "1week", "adjustment": "split",
		"start_datetime": "2033-08-01T00:00:00", "end_datetime": "2033-08-15T00:00:00"}), token, nil, after)
	expectStatus(t, weekly, 200)
	if w := asSlice(weekly.JSON["candles"]); len(w) != 2 || num(t, field(w[0], "open")) != 40 || num(t, field(w[0], "volume")) != 10000 {
		t.Fatalf("weekly split candles: %s", weekly.Text())
	}
}

func TestInstrumentsBadInput(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	expectFieldError(t, postCSV(t, s, "/v1/admin/instruments/import?kind=bogus", equityListHeader), 400, "kind")
	expectFieldError(t, postCSV(t, s, "/v1/admin/instruments/import", equityListHeader), 400, "kind")
	// The wrong kind of file: the header lacks the columns, named.
	r := postCSV(t, s, "/v1/admin/corporate-actions/import", equityListHeader+"A,B,EQ,-,1,1,INE009A01021,1\n")
	expectFieldError(t, r, 400, "csv")
	expectMessageNames(t, r, "PURPOSE", "EX-DATE")
	expectFieldError(t, postCSV(t, s, "/v1/admin/instruments/import?kind=symbol_changes", equityListHeader), 400, "csv")
	expectFieldError(t, postCSV(t, s, "/v1/admin/corporate-actions/import", ""), 400, "csv")
	// A JSON or form body to a file route: 415 before it is read.
	expectStatus(t, s.Do(t, "POST", "/v1/admin/corporate-actions/import", s.AdminToken(), "a,b\n",
		map[string]string{"Content-Type": "text/plain"}), 415)
	// Developers may not import.
	expectStatus(t, s.Do(t, "POST", "/v1/admin/corporate-actions/import", token, corporateActionsHeader,
		map[string]string{"Content-Type": "text/csv"}), 403)
	// A zero ratio is listed back with its line; nothing is stored.
	zero := postCSV(t, s, "/v1/admin/corporate-actions/import", corporateActionsHeader+"ABC,Abc,EQ,Bonus 0:1,10,08-AUG-2033,-,-,-\n")
	expectImport(t, zero, "corporate_actions", 0, 0, 2)

	sym := uniqueSymbol(t, "ADJ")
	for _, p := range []map[string]string{
		{"symbol": sym, "interval": "1day", "adjustment": "dividend"},
		{"symbol": sym, "interval": "1day", "adjustment": "ALL"},
	} {
		expectFieldError(t, s.Do(t, "GET", query("/v1/developer/historical-candles", p), token, nil), 400, "adjustment")
	}
	// An adjusted read of a symbol no instrument has: nothing to adjust
	// by, said so rather than answered raw.
	expectFieldError(t, s.Do(t, "GET", query("/v1/developer/historical-candles",
		map[string]string{"symbol": sym, "interval": "1day", "adjustment": "split"}), token, nil), 400, "symbol")
	expectFieldError(t, s.Do(t, "GET", query("/v1/developer/quote-timeline",
		map[string]string{"symbol": sym, "adjustment": "all"}), token, nil), 400, "symbol")
	expectFieldError(t, s.Do(t, "GET", query("/v1/developer/candles",
		map[string]string{"symbols": sym, "interval": "1day", "adjustment": "all"}), token, nil), 400, "symbols")
	expectFieldError(t, s.Do(t, "GET", query("/v1/developer/quotes",
		map[string]string{"adjustment": "split"}), token, nil), 400, "adjustment")
	expectFieldError(t, s.Do(t, "GET", query("/v1/developer/quote-timeline",
		map[string]string{"symbol": sym, "adjustment": "x"}), token, nil), 400, "adjustment")
	// Raw stays the default for any symbol.
	expectStatus(t, s.Do(t, "GET", query("/v1/developer/historical-candles",
		map[string]string{"symbol": sym, "interval": "1day", "adjustment": "raw"}), token, nil), 200)

	expectFieldError(t, s.Do(t, "GET", "/v1/developer/instruments", token, nil), 400, "symbol")
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/instruments?symbol="+sym, token, nil), 400, "symbol")
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/instruments?isin=INE009A01022", token, nil), 400, "isin")
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/instruments?isin="+uniqueIsin(t), token, nil), 400, "isin")
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/instruments?prefix=x&date=2033-02-30", token, nil), 400, "date")
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/corporate-actions", token, nil), 400, "symbol")
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/corporate-actions?symbol="+sym, token, nil), 400, "symbol")
}

// The import command: the same rules without a running server; the
// instrument it imports is read back through the API.
func TestImportCommand(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym, isin := uniqueSymbol(t, "CLI"), uniqueIsin(t)
	path := filepath.Join(t.TempDir(), "EQUITY_L.csv")
	list := equityListHeader + sym + ",Command Line Co,EQ,14-Aug-2024,5,1," + isin + ",5\n" + "BAD SYMBOL,X,EQ,-,1,1," + isin + ",1\n"
	if err := os.WriteFile(path, []byte(list), 0o600); err != nil {
		t.Fatal(err)
	}
	out, log, err := s.RunServerCommand(t, "import", "--kind", "equity_list", "--file", path)
	if err != nil || out != "imported 1 unchanged 0 rejected 1 ignored 0" || !strings.Contains(log, "rejected line 3: SYMBOL") {
		t.Fatalf("import: %v\nstdout %q\nstderr %s", err, out, log)
	}
	if out, _, err := s.RunServerCommand(t, "import", "--kind", "equity_list", "--file", path); err != nil ||
		out != "imported 0 unchanged 1 rejected 1 ignored 0" {
		t.Fatalf("import again: %v %q", err, out)
	}
	r := s.Do(t, "GET", "/v1/developer/instruments?isin="+isin, token, nil)
	expectStatus(t, r, 200)
	if i := asSlice(r.JSON["instruments"]); len(i) != 1 || field(i[0], "symbol") != sym || num(t, field(i[0], "faceValue")) != 5 {
		t.Fatalf("imported instrument: %s", r.Text())
	}
	// The wrong kind of file fails whole (exit 1); a bad kind is bad usage.
	if _, log, err := s.RunServerCommand(t, "import", "--kind", "corporate_actions", "--file", path); exitCode(err) != 1 ||
		!strings.Contains(log, "PURPOSE") {
		t.Fatalf("wrong kind of file: %v %s", err, log)
	}
	if _, _, err := s.RunServerCommand(t, "import", "--kind", "nse", "--file", path); exitCode(err) != 2 {
		t.Fatalf("bad kind: %v", err)
	}
}
