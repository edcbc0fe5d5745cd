package e2e

// Bulk export (docs/api.md "Export"): quotes, NIFTY quotes, shortlists and
// candles of a range of trading days as CSV, Parquet (read back with
// pyarrow) and NDJSON, against the real binaries.

import (
	"net/http"
	"strings"
	"testing"
)

// exportData is what TestExport stores: two trading days (Tuesday
// 2035-03-06 and Wednesday 2035-03-07) of three symbols whose names sort
// a < b < c, NIFTY quotes and shortlists, on a stack of its own so that
// "every symbol" is exactly these.
type exportData struct {
	a, b, c string
}

func storeExportData(t *testing.T, s *Stack, token string) exportData {
	t.Helper()
	suffix := mustRandomHex(t, 3)
	d := exportData{a: "EXA" + strings.ToUpper(suffix), b: "EXB" + strings.ToUpper(suffix), c: "EXC" + strings.ToUpper(suffix)}
	quotes := func(at string, entries ...map[string]any) {
		items := []any{}
		for _, e := range entries {
			items = append(items, e)
		}
		body := map[string]any{"data": map[string]any{"timestamp": at, "timezone": "Asia/Kolkata", "quotes": items}}
		expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, body), 200)
	}
	quote := func(symbol string, payload map[string]any) map[string]any {
		data := map[string]any{"status": "SUCCESS"}
		if payload != nil {
			data["payload"] = payload
		} else {
			data["status"] = "FAILURE"
		}
		return map[string]any{"nseSymbol": symbol, "quoteData": data}
	}
	quotes("2035-03-06T09:15:00",
		quote(d.a, map[string]any{"last_price": 100, "volume": 10,
			"ohlc":  map[string]any{"open": 99, "high": 101, "low": 98.5, "close": 97},
			"depth": map[string]any{"buy": []any{map[string]any{"price": 99.5, "quantity": 10}}}}),
		quote(d.b, map[string]any{"last_price": 200.25}))
	quotes("2035-03-06T09:16:30", quote(d.a, map[string]any{"last_price": 101, "volume": 25}))
	quotes("2035-03-07T10:00:00", quote(d.a, nil), quote(d.c, map[string]any{"last_price": 50.5, "volume": 7}))
	postNifty(t, s, token, devQuote{"2035-03-06T09:15:00", 22000, 1}, devQuote{"2035-03-07T09:15:00", 22100, nil})
	postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", "2035-03-06T09:20:00", d.b, d.a, d.c)
	postShortlist(t, s, token, "VOLUME_SHOCKERS", "FULL", "2035-03-07T11:00:00")
	return d
}

func TestExport(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	d := storeExportData(t, s, token)
	const days = "start_date=2035-03-06&end_date=2035-03-07"

	t.Run("quotes as CSV", func(t *testing.T) {
		r := getRaw(t, s, "/v1/developer/export/quotes?"+days, token)
		expectStatus(t, r, 200)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
			t.Errorf("Content-Type %q", ct)
		}
		if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="quotes_2035-03-06_2035-03-07.csv"` {
			t.Errorf("Content-Disposition %q", cd)
		}
		header, rows := csvRows(t, r.Body)
		wantHeader := "timestamp,trading_day,nse_symbol,status,last_price,day_change,day_change_perc,volume"
		if got := strings.Join(header, ","); !strings.HasPrefix(got, wantHeader) || !strings.HasSuffix(got, "ohlc_open,ohlc_high,ohlc_low,ohlc_close,depth") || len(header) != 34 {
			t.Fatalf("header %q (%d columns)", got, len(header))
		}
		// Time order, then symbol.
		want := [][3]string{
			{"2035-03-06T03:45:00Z", "2035-03-06", d.a}, {"2035-03-06T03:45:00Z", "2035-03-06", d.b},
			{"2035-03-06T03:46:30Z", "2035-03-06", d.a},
			{"2035-03-07T04:30:00Z", "2035-03-07", d.a}, {"2035-03-07T04:30:00Z", "2035-03-07", d.c},
		}
		if len(rows) != len(want) {
			t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), r.Body)
		}
		for i, w := range want {
			if rows[i][0] != w[0] || rows[i][1] != w[1] || rows[i][2] != w[2] {
				t.Errorf("row %d: %v, want %v", i, rows[i][:3], w)
			}
		}
		prices := csvColumn(t, header, rows, "last_price")
		if strings.Join(prices, "|") != "100|200.25|101||50.5" {
			t.Errorf("last_price %q", prices)
		}
		status := csvColumn(t, header, rows, "status")
		if status[3] != "FAILURE" || status[0] != "SUCCESS" {
			t.Errorf("status %q", status)
		}
		if got := csvColumn(t, header, rows, "ohlc_low")[0]; got != "98.5" {
			t.Errorf("ohlc_low %q", got)
		}
		depth := csvColumn(t, header, rows, "depth")
		if !strings.Contains(depth[0], `"buy"`) || !strings.Contains(depth[0], "99.5") || depth[1] != "" {
			t.Errorf("depth %q", depth)
		}
	})

	t.Run("quotes of some symbols, repeated or comma-separated", func(t *testing.T) {
		for _, q := range []string{"&symbols=" + d.c + "," + d.b, "&symbols=" + d.c + "&symbols=" + d.b} {
			r := getRaw(t, s, "/v1/developer/export/quotes?"+days+q, token)
			expectStatus(t, r, 200)
			header, rows := csvRows(t, r.Body)
			if got := strings.Join(csvColumn(t, header, rows, "nse_symbol"), ","); got != d.b+","+d.c {
				t.Errorf("%s: symbols %s", q, got)
			}
		}
	})

	t.Run("quotes as Parquet", func(t *testing.T) {
		r := getRaw(t, s, "/v1/developer/export/quotes?"+days+"&format=parquet", token)
		expectStatus(t, r, 200)
		if ct := r.Header.Get("Content-Type"); ct != "application/vnd.apache.parquet" {
			t.Errorf("Content-Type %q", ct)
		}
		p := readParquet(t, r.Body)
		if p.Rows != 5 || len(p.Types) != 34 {
			t.Fatalf("%d rows, %d columns: %v", p.Rows, len(p.Types), p.Types)
		}
		for col, want := range map[string]string{
			"timestamp": "timestamp[us, tz=UTC]", "trading_day": "date32[day]", "nse_symbol": "string",
			"status": "string", "last_price": "double", "week_52_high": "double", "ohlc_close": "double", "depth": "string",
		} {
			if p.Types[col] != want {
				t.Errorf("column %s: %s, want %s", col, p.Types[col], want)
			}
		}
		if p.Nulls["last_price"] != 1 || p.Nulls["week_52_high"] != 5 || p.Nulls["depth"] != 4 || p.Nulls["timestamp"] != 0 {
			t.Errorf("nulls %v", p.Nulls)
		}
		if got := p.value(t, "timestamp", 2); got != "2035-03-06 03:46:30+00:00" {
			t.Errorf("timestamp %s", got)
		}
		if got := p.value(t, "trading_day", 4); got != "2035-03-07" {
			t.Errorf("trading_day %s", got)
		}
		if got := p.value(t, "last_price", 1); got != "200.25" {
			t.Errorf("last_price %s", got)
		}
	})

	t.Run("quotes as NDJSON", func(t *testing.T) {
		r := getRaw(t, s, "/v1/developer/export/quotes?"+days+"&format=ndjson", token)
		expectStatus(t, r, 200)
		lines := ndjsonLines(t, r.Body)
		if len(lines) != 5 {
			t.Fatalf("%d lines:\n%s", len(lines), r.Body)
		}
		if lines[0]["tradingDay"] != "2035-03-06" || field(lines[0], "quote", "nseSymbol") != d.a ||
			field(lines[0], "quote", "timestamp") != "2035-03-06T03:45:00Z" {
			t.Errorf("line 0: %v", lines[0])
		}
		if got := num(t, field(lines[0], "quote", "quoteData", "payload", "ohlc", "low")); got != 98.5 {
			t.Errorf("ohlc low %v", got)
		}
	})

	t.Run("NIFTY", func(t *testing.T) {
		r := getRaw(t, s, "/v1/developer/export/nifty?"+days+"&format=parquet", token)
		expectStatus(t, r, 200)
		p := readParquet(t, r.Body)
		if p.Rows != 2 || p.value(t, "last_price", 1) != "22100.0" || p.value(t, "index_day_change_perc", 0) != "0.5" ||
			p.value(t, "volume", 1) != "<null>" {
			t.Errorf("NIFTY: %+v", p.Values)
		}
	})

	t.Run("shortlists, one row per entry", func(t *testing.T) {
		r := getRaw(t, s, "/v1/developer/export/shortlists?"+days, token)
		expectStatus(t, r, 200)
		header, rows := csvRows(t, r.Body)
		if strings.Join(header, ",") != "timestamp,trading_day,shortlist_type,scope,entry_count,rank,nse_symbol,name,price,quote_data" {
			t.Fatalf("header %v", header)
		}
		// Three entries of the first snapshot, then the empty one as a row
		// without an entry.
		if len(rows) != 4 {
			t.Fatalf("%d rows:\n%s", len(rows), r.Body)
		}
		if got := strings.Join(csvColumn(t, header, rows, "rank"), ","); got != "1,2,3," {
			t.Errorf("rank %s", got)
		}
		if got := strings.Join(csvColumn(t, header, rows, "nse_symbol"), ","); got != d.b+","+d.a+","+d.c+"," {
			t.Errorf("symbols %s", got)
		}
		if rows[3][2] != "VOLUME_SHOCKERS" || rows[3][4] != "0" {
			t.Errorf("empty snapshot row %v", rows[3])
		}
		r = getRaw(t, s, "/v1/developer/export/shortlists?"+days+"&type=volume-shockers&format=parquet", token)
		expectStatus(t, r, 200)
		p := readParquet(t, r.Body)
		if p.Rows != 1 || p.Types["rank"] != "int32" || p.value(t, "rank", 0) != "<null>" {
			t.Errorf("one type: %+v %v", p.Values, p.Types)
		}
	})

	t.Run("candles match the candles API", func(t *testing.T) {
		r := getRaw(t, s, "/v1/developer/export/candles?"+days+"&interval=1minute", token)
		expectStatus(t, r, 200)
		header, rows := csvRows(t, r.Body)
		if strings.Join(header, ",") != "timestamp,trading_day,symbol,interval,open,high,low,close,volume" {
			t.Fatalf("header %v", header)
		}
		// By symbol, then time: a has 2 candles on the 6th (its quote of the
		// 7th has no price), b 1 (whose quote reported no volume: an empty
		// cell, not 0), c 1.
		var got []string
		for _, row := range rows {
			got = append(got, row[2]+"@"+row[0]+"="+row[4]+"/"+row[8])
		}
		want := []string{d.a + "@2035-03-06T03:45:00Z=100/10", d.a + "@2035-03-06T03:46:00Z=101/15",
			d.b + "@2035-03-06T03:45:00Z=200.25/", d.c + "@2035-03-07T04:30:00Z=50.5/7"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("candles\n got %v\nwant %v", got, want)
		}
		api := s.Do(t, "GET", "/v1/developer/historical-candles?symbol="+d.a+"&interval=1minute&start_datetime=2035-03-06T00:00:00&end_datetime=2035-03-08T00:00:00", token, nil)
		expectStatus(t, api, 200)
		if n := len(asSlice(api.JSON["candles"])); n != 2 {
			t.Errorf("the candles API has %d candles of %s", n, d.a)
		}
		r = getRaw(t, s, "/v1/developer/export/candles?"+days+"&interval=1day&symbols=nifty,"+d.c+"&format=parquet", token)
		expectStatus(t, r, 200)
		p := readParquet(t, r.Body)
		if p.Rows != 3 || p.value(t, "symbol", 0) != "NIFTY" || p.value(t, "symbol", 2) != d.c || p.Types["timestamp"] != "timestamp[us, tz=UTC]" {
			t.Errorf("daily candles: %+v", p.Values)
		}
	})

	t.Run("an empty range is a file without rows", func(t *testing.T) {
		empty := "start_date=2035-03-10&end_date=2035-03-11"
		r := getRaw(t, s, "/v1/developer/export/quotes?"+empty, token)
		expectStatus(t, r, 200)
		header, rows := csvRows(t, r.Body)
		if len(header) != 34 || len(rows) != 0 {
			t.Errorf("empty CSV: %q", r.Body)
		}
		r = getRaw(t, s, "/v1/developer/export/shortlists?"+empty+"&format=parquet", token)
		expectStatus(t, r, 200)
		p := readParquet(t, r.Body)
		if p.Rows != 0 || p.Types["timestamp"] != "timestamp[us, tz=UTC]" || p.Types["rank"] != "int32" {
			t.Errorf("empty Parquet: %+v", p)
		}
		r = getRaw(t, s, "/v1/developer/export/nifty?"+empty+"&format=ndjson", token)
		expectStatus(t, r, 200)
		if len(r.Body) != 0 {
			t.Errorf("empty NDJSON: %q", r.Body)
		}
	})

	t.Run("the backtest clock cuts the export", func(t *testing.T) {
		clock := map[string]string{"X-Current-Timestamp": "2035-03-06T09:16:30"}
		r := getRaw(t, s, "/v1/developer/export/quotes?"+days, token, clock)
		expectStatus(t, r, 200)
		_, rows := csvRows(t, r.Body)
		if len(rows) != 2 {
			t.Errorf("%d rows before the clock, want 2:\n%s", len(rows), r.Body)
		}
		r = getRaw(t, s, "/v1/developer/export/candles?"+days+"&interval=1day", token, clock)
		expectStatus(t, r, 200)
		_, rows = csvRows(t, r.Body)
		if len(rows) != 2 || rows[0][5] != "100" {
			t.Errorf("candles before the clock:\n%s", r.Body)
		}
		r = s.Do(t, "GET", "/v1/developer/export/quotes?start_date=2035-03-07", token, nil, clock)
		expectStatus(t, r, http.StatusForbidden)
		expectMessageNames(t, r, "start_date")
	})
}

func TestExportBadInput(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	many := strings.Repeat("A,", 1000) + "B"
	cases := []struct {
		path, field string
	}{
		{"/v1/developer/export/quotes", "start_date"},
		{"/v1/developer/export/quotes?start_date=2035-02-30", "start_date"},
		{"/v1/developer/export/quotes?start_date=2035-03-06&end_date=2035-03-05", "end_date"},
		{"/v1/developer/export/quotes?start_date=2035-03-01&end_date=2035-04-01", "end_date"},
		{"/v1/developer/export/quotes?start_date=2035-03-06&format=xlsx", "format"},
		{"/v1/developer/export/quotes?start_date=2035-03-06&format=csv&format=ndjson", "format"},
		{"/v1/developer/export/quotes?start_date=2035-03-06&symbols=" + many, "symbols"},
		{"/v1/developer/export/quotes?start_date=2035-03-06&symbols=INFY,BAD%20ONE", "symbols[1]"},
		{"/v1/developer/export/nifty?start_date=2035-03-06&end_date=x", "end_date"},
		{"/v1/developer/export/shortlists?start_date=2035-03-06&type=LOSERS", "type"},
		{"/v1/developer/export/shortlists?start_date=2035-03-06&scope=TOP_10", "scope"},
		{"/v1/developer/export/candles?start_date=2035-03-06", "interval"},
		{"/v1/developer/export/candles?start_date=2035-03-06&interval=7minute", "interval"},
	}
	for _, c := range cases {
		r := s.Do(t, "GET", c.path, token, nil)
		if r.Status != http.StatusBadRequest || !hasFieldViolation(r.JSON, c.field) {
			t.Errorf("%s: %v, want 400 naming %s", c.path, r, c.field)
		}
	}
	// A range of exactly 31 days is allowed.
	expectStatus(t, s.Do(t, "GET", "/v1/developer/export/nifty?start_date=2035-03-01&end_date=2035-03-31", token, nil), 200)
	// No token: 401 before anything else.
	expectStatus(t, s.Do(t, "GET", "/v1/developer/export/quotes?start_date=2035-03-06&format=xlsx", "", nil), 401)
}
