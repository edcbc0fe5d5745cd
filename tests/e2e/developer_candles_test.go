package e2e

// Historical candles (API.md section 6) over a synthetic day, against
// expectations computed by hand (the same day as tests/unit/candles_test.cc).

import (
	"fmt"
	"testing"
)

// The synthetic Monday 2033-08-01: quotes on bucket boundaries (09:15:00,
// 09:16:00, 09:20:00, 10:15:00), a gap (nothing 09:18-09:19), a quote
// without a price, and a volume reset at 09:21:00 (2600 → 300).
var candleDay = []devQuote{
	{"2033-08-01T09:15:00", 100, 1000},
	{"2033-08-01T09:15:30", 102, 1500},
	{"2033-08-01T09:16:00", 101, 1800},
	{"2033-08-01T09:17:45", 99, 2000},
	{"2033-08-01T09:20:00", 103, 2600},
	{"2033-08-01T09:20:10", nil, 9999},
	{"2033-08-01T09:21:00", 104, 300},
	{"2033-08-01T09:21:30", 98, 500},
	{"2033-08-01T10:15:00", 105, 900},
	{"2033-08-01T10:40:00", 107, 1000},
	{"2033-08-01T15:29:00", 106, 1200},
}

// candle is time (UTC), open, high, low, close, volume.
type candle struct {
	time               string
	o, h, l, c, volume float64
}

func getCandles(t *testing.T, s *Stack, token string, params map[string]string) *Response {
	t.Helper()
	return s.Do(t, "GET", query("/v1/developer/historical-candles", params), token, nil)
}

func expectCandles(t *testing.T, r *Response, interval string, minutes float64, want []candle) {
	t.Helper()
	expectStatus(t, r, 200)
	if r.JSON["interval"] != interval || num(t, r.JSON["intervalMinutes"]) != minutes {
		t.Errorf("interval: %s", r.Text())
	}
	got := asSlice(r.JSON["candles"])
	if len(got) != len(want) {
		t.Fatalf("%s: %d candles, want %d: %s", interval, len(got), len(want), r.Text())
	}
	for i, w := range want {
		g := got[i]
		have := candle{fmt.Sprint(field(g, "time")), num(t, field(g, "open")), num(t, field(g, "high")),
			num(t, field(g, "low")), num(t, field(g, "close")), num(t, field(g, "volume"))}
		if have != w {
			t.Errorf("%s candle %d:\n got %+v\nwant %+v", interval, i, have, w)
		}
	}
}

func TestCandlesFromASyntheticDay(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "CDL")
	postQuotes(t, s, token, sym, candleDay...)
	day := map[string]string{"symbol": sym, "start_datetime": "2033-08-01T00:00:00", "end_datetime": "2033-08-02T00:00:00"}
	with := func(interval string) map[string]string {
		p := map[string]string{"interval": interval}
		for k, v := range day {
			p[k] = v
		}
		return p
	}
	expectCandles(t, getCandles(t, s, token, with("1minute")), "1minute", 1, []candle{
		{"2033-08-01T03:45:00Z", 100, 102, 100, 102, 1500},
		{"2033-08-01T03:46:00Z", 101, 101, 101, 101, 300},
		{"2033-08-01T03:47:00Z", 99, 99, 99, 99, 200},
		{"2033-08-01T03:50:00Z", 103, 103, 103, 103, 600},
		{"2033-08-01T03:51:00Z", 104, 104, 98, 98, 500},
		{"2033-08-01T04:45:00Z", 105, 105, 105, 105, 400},
		{"2033-08-01T05:10:00Z", 107, 107, 107, 107, 100},
		{"2033-08-01T09:59:00Z", 106, 106, 106, 106, 200},
	})
	expectCandles(t, getCandles(t, s, token, with("5minute")), "5minute", 5, []candle{
		{"2033-08-01T03:45:00Z", 100, 102, 99, 99, 2000},
		{"2033-08-01T03:50:00Z", 103, 104, 98, 98, 1100},
		{"2033-08-01T04:45:00Z", 105, 105, 105, 105, 400},
		{"2033-08-01T05:10:00Z", 107, 107, 107, 107, 100},
		{"2033-08-01T09:55:00Z", 106, 106, 106, 106, 200},
	})
	expectCandles(t, getCandles(t, s, token, with("1hour")), "1hour", 60, []candle{
		{"2033-08-01T03:45:00Z", 100, 104, 98, 98, 3100},
		{"2033-08-01T04:45:00Z", 105, 107, 105, 107, 500},
		{"2033-08-01T09:45:00Z", 106, 106, 106, 106, 200},
	})
	expectCandles(t, getCandles(t, s, token, with("1day")), "1day", 1440, []candle{
		{"2033-07-31T18:30:00Z", 100, 107, 98, 106, 3800},
	})
	// The window is [start, end): a 09:20:00 end leaves the 09:20 quote out.
	part := with("5minute")
	part["end_datetime"] = "2033-08-01T09:20:00"
	expectCandles(t, getCandles(t, s, token, part), "5minute", 5, []candle{
		{"2033-08-01T03:45:00Z", 100, 102, 99, 99, 2000},
	})
}

func TestNiftyCandlesComeFromNiftyQuotes(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	postNifty(t, s, token,
		devQuote{"2033-08-02T09:15:00", 20000, 10},
		devQuote{"2033-08-02T09:15:40", 20050, 25},
		devQuote{"2033-08-02T09:16:10", 19990, 30})
	r := getCandles(t, s, token, map[string]string{"symbol": "NIFTY", "interval": "1minute",
		"start_datetime": "2033-08-02T09:15:00", "end_datetime": "2033-08-02T09:30:00"})
	expectCandles(t, r, "1minute", 1, []candle{
		{"2033-08-02T03:45:00Z", 20000, 20050, 20000, 20050, 25},
		{"2033-08-02T03:46:00Z", 19990, 19990, 19990, 19990, 5},
	})
	if r.JSON["symbol"] != "NIFTY" {
		t.Errorf("symbol: %s", r.Text())
	}
}

func TestCandleRangeRules(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "BIG")
	r := getCandles(t, s, token, map[string]string{"symbol": sym, "interval": "1minute",
		"start_datetime": "2033-08-01T10:00:01", "end_datetime": "2033-08-01T10:00:00"})
	expectFieldError(t, r, 400, "start_datetime")
	// 50,001 one-minute quotes: one candle each, more than one answer holds.
	s.SQL(t, fmt.Sprintf(`INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
		SELECT '%s', ts, (ts AT TIME ZONE 'Asia/Kolkata')::date, 1, 1, ''::bytea
		FROM generate_series(timestamptz '2033-09-01 00:00:00+00', timestamptz '2033-09-01 00:00:00+00' + interval '50000 minutes', interval '1 minute') AS ts`, sym))
	params := map[string]string{"symbol": sym, "interval": "1minute",
		"start_datetime": "2033-09-01T00:00:00", "end_datetime": "2033-11-01T00:00:00", "timezone": "UTC"}
	r = getCandles(t, s, token, params)
	expectFieldError(t, r, 400, "start_datetime")
	expectMessageNames(t, r, "50000", "smaller range")
	// One candle fewer is fine.
	params["end_datetime"] = "2033-10-05T17:20:00" // 50,000 minutes after the start
	r = getCandles(t, s, token, params)
	expectStatus(t, r, 200)
	if n := len(asSlice(r.JSON["candles"])); n != 50000 {
		t.Errorf("%d candles, want 50000", n)
	}
	// A longer interval over the same range is fine too.
	params["interval"] = "1day"
	params["end_datetime"] = "2033-11-01T00:00:00"
	expectStatus(t, getCandles(t, s, token, params), 200)
}
