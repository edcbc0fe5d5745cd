package e2e

// Adjusted exports (docs/api.md section 13.6): the quote and candle exports
// take `adjustment`, point in time, and say which adjustment produced them
// in every format; the import refuses an adjusted file.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// exportedInstrument stores adjustedHistory under a fresh symbol of a
// fresh instrument with its 1:1 bonus (ex 2033-08-08), 1:5 split (ex
// 2033-08-16) and Rs 4 dividend (ex 2033-08-23, after a close of 40).
func exportedInstrument(t *testing.T, s *Stack, token string) string {
	t.Helper()
	sym, isin := uniqueSymbol(t, "ADJX"), uniqueIsin(t)
	expectImport(t, postCSV(t, s, "/v1/admin/instruments/import?kind=equity_list",
		equityListHeader+sym+",Exported Co,EQ,02-JAN-2031,10,1,"+isin+",10\n"), "equity_list", 1, 0)
	postQuotes(t, s, token, sym, adjustedHistory...)
	expectImport(t, postCSV(t, s, "/v1/admin/corporate-actions/import", corporateActionsHeader+
		sym+",Exported Co,EQ,Bonus 1:1,10,08-AUG-2033,-,-,-\n"+
		sym+`,Exported Co,EQ,"Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- Per Share",10,16-Aug-2033,-,-,-`+"\n"+
		sym+",Exported Co,EQ,Interim Dividend - Rs 4 Per Share,2,23-Aug-2033,-,-,-\n"), "corporate_actions", 3, 0)
	return sym
}

// expectFloats compares a column's text values with numbers.
func expectFloats(t *testing.T, what string, got []string, want ...float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i, w := range want {
		v, err := strconv.ParseFloat(got[i], 64)
		if err != nil || math.Abs(v-w) > 1e-9 {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
	}
}

func TestInstrumentsAdjustedExports(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := exportedInstrument(t, s, token)
	const days = "start_date=2033-08-01&end_date=2033-08-31"
	at := func(day string) map[string]string {
		return map[string]string{"X-Current-Timestamp": day + "T12:00:00", "X-Current-Timezone": "Asia/Kolkata"}
	}
	after := at("2033-09-01")
	export := func(kind, params string, clock map[string]string) *Response {
		r := getRaw(t, s, "/v1/developer/export/"+kind+"?"+days+"&symbols="+sym+params, token, clock)
		expectStatus(t, r, 200)
		return r
	}
	expectMarked := func(what string, r *Response, adjustment, file string) {
		t.Helper()
		if got := r.Header.Get("X-Mdc-Adjustment"); got != adjustment {
			t.Errorf("%s: X-Mdc-Adjustment %q, want %q", what, got, adjustment)
		}
		if got := r.Header.Get("Content-Disposition"); got != `attachment; filename="`+file+`"` {
			t.Errorf("%s: Content-Disposition %q, want file %s", what, got, file)
		}
	}
	// Hand-computed (section 13.4): split = bonus 0.5 x split 0.2 before
	// 08-08, 0.2 before 08-16; all = also 0.9 before 08-23; volumes /factor.
	splitCloses := []float64{40, 40, 42, 42, 40, 36}
	allCloses := []float64{36, 36, 37.8, 37.8, 36, 36}
	volumes := []float64{10000, 10000, 10000, 10000, 10000, 10000}

	t.Run("candles as CSV, split", func(t *testing.T) {
		r := export("candles", "&interval=1day&adjustment=split", after)
		expectMarked("candles csv", r, "split", "candles_2033-08-01_2033-08-31_split.csv")
		header, rows := csvRows(t, r.Body)
		if header[len(header)-1] != "adjustment" {
			t.Fatalf("header %v: no last column adjustment", header)
		}
		expectFloats(t, "close", csvColumn(t, header, rows, "close"), splitCloses...)
		expectFloats(t, "open", csvColumn(t, header, rows, "open"), splitCloses...)
		expectFloats(t, "volume", csvColumn(t, header, rows, "volume"), volumes...)
		if got := strings.Join(csvColumn(t, header, rows, "adjustment"), ","); got != strings.Repeat("split,", 5)+"split" {
			t.Errorf("adjustment column %s", got)
		}
	})

	t.Run("candles as NDJSON, all, and point in time", func(t *testing.T) {
		r := export("candles", "&interval=1day&adjustment=all&format=ndjson", after)
		expectMarked("candles ndjson", r, "all", "candles_2033-08-01_2033-08-31_all.ndjson")
		var closes []string
		for _, l := range ndjsonLines(t, r.Body) {
			if l["adjustment"] != "all" {
				t.Errorf("line %v: adjustment %v", l, l["adjustment"])
			}
			closes = append(closes, fmt.Sprint(field(l, "candle", "candle", "close")))
		}
		expectFloats(t, "close", closes, allCloses...)
		// Under a clock at 08-20 the dividend (ex 08-23) is not known yet.
		early := getRaw(t, s, "/v1/developer/export/candles?start_date=2033-08-01&end_date=2033-08-19&interval=1day&adjustment=all&format=ndjson&symbols="+sym, token, at("2033-08-20"))
		expectStatus(t, early, 200)
		closes = nil
		for _, l := range ndjsonLines(t, early.Body) {
			closes = append(closes, fmt.Sprint(field(l, "candle", "candle", "close")))
		}
		expectFloats(t, "close at 08-20", closes, 40, 40, 42, 42)
	})

	t.Run("quotes as Parquet, split, and the import refuses it", func(t *testing.T) {
		r := export("quotes", "&adjustment=split&format=parquet", after)
		expectMarked("quotes parquet", r, "split", "quotes_2033-08-01_2033-08-31_split.parquet")
		p := readParquet(t, r.Body)
		if p.Rows != 6 || p.Metadata["mdc.adjustment"] != "split" || p.Types["adjustment"] != "string" {
			t.Fatalf("%d rows, metadata %v, types %v", p.Rows, p.Metadata, p.Types)
		}
		for i := range splitCloses {
			if got := p.value(t, "last_price", i); got != strconv.FormatFloat(splitCloses[i], 'f', 1, 64) {
				t.Errorf("row %d: last_price %s, want %v", i, got, splitCloses[i])
			}
			if got := p.value(t, "volume", i); got != "10000.0" {
				t.Errorf("row %d: volume %s, want 10000", i, got)
			}
			if got := p.value(t, "adjustment", i); got != "split" {
				t.Errorf("row %d: adjustment %s", i, got)
			}
		}
		expectBadPlace(t, postImport(t, s, "quotes", "parquet", s.AdminToken(), r.Body), "file", "adjusted export")
	})

	t.Run("quotes as CSV and NDJSON, all; the import refuses both", func(t *testing.T) {
		r := export("quotes", "&adjustment=all", after)
		expectMarked("quotes csv", r, "all", "quotes_2033-08-01_2033-08-31_all.csv")
		header, rows := csvRows(t, r.Body)
		expectFloats(t, "last_price", csvColumn(t, header, rows, "last_price"), allCloses...)
		expectFloats(t, "volume", csvColumn(t, header, rows, "volume"), volumes...)
		expectBadPlace(t, postImport(t, s, "quotes", "csv", s.AdminToken(), r.Body), "line 1", "adjusted export")

		n := export("quotes", "&adjustment=all&format=ndjson", after)
		lines := ndjsonLines(t, n.Body)
		if len(lines) != 6 || lines[0]["adjustment"] != "all" ||
			math.Abs(num(t, field(lines[0], "quote", "quoteData", "payload", "last_price"))-36) > 1e-9 {
			t.Fatalf("quotes ndjson: %s", n.Body)
		}
		expectBadPlace(t, postImport(t, s, "quotes", "ndjson", s.AdminToken(), n.Body), "line 1", "adjusted export")
	})

	t.Run("a raw export is as before", func(t *testing.T) {
		r := export("quotes", "", after)
		expectMarked("raw quotes", r, "raw", "quotes_2033-08-01_2033-08-31.csv")
		header, rows := csvRows(t, r.Body)
		if len(header) != 34 || header[len(header)-1] != "depth" {
			t.Fatalf("raw header %v", header)
		}
		expectFloats(t, "raw last_price", csvColumn(t, header, rows, "last_price"), 400, 200, 210, 42, 40, 36)
		for _, l := range ndjsonLines(t, export("candles", "&interval=1day&format=ndjson", after).Body) {
			if _, has := l["adjustment"]; has {
				t.Fatalf("raw ndjson line with adjustment: %v", l)
			}
		}
	})

	t.Run("bad input", func(t *testing.T) {
		for _, c := range []struct{ path, field string }{
			{"/v1/developer/export/quotes?" + days + "&symbols=" + sym + "&adjustment=dividend", "adjustment"},
			{"/v1/developer/export/candles?" + days + "&interval=1day&adjustment=split", "adjustment"},
			{"/v1/developer/export/quotes?" + days + "&adjustment=all", "adjustment"},
			{"/v1/developer/export/quotes?" + days + "&adjustment=split&symbols=" + uniqueSymbol(t, "NOPE"), "symbols"},
			{"/v1/developer/export/candles?" + days + "&interval=1day&adjustment=split&symbols=" + uniqueSymbol(t, "NOPE"), "symbols"},
		} {
			expectFieldError(t, getRaw(t, s, c.path, token, after), 400, c.field)
		}
	})
}
