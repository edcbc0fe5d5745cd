package e2e

// The backtest clock (API.md section 1) on every guarded developer read:
// asking for an instant at or after X-Current-Timestamp is 403 naming both
// instants, and nothing stamped at or after it is ever returned.

import (
	"fmt"
	"testing"
)

func clockHeader(wallClock string) map[string]string {
	return map[string]string{"X-Current-Timestamp": wallClock, "X-Current-Timezone": "Asia/Kolkata", "X-Run-Id": "clock-test"}
}

func TestBacktestClockOnEveryGuardedRoute(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "CLK")
	// t = 2034-02-07T12:00:00 IST; one record of each kind at t.
	const at = "2034-02-07T12:00:00"
	postQuotes(t, s, token, sym, devQuote{at, 100, 10})
	postNifty(t, s, token, devQuote{at, 20000, 10})
	postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", at, sym)

	routes := []struct {
		name, path, param string
	}{
		{"quote", "/v1/developer/quote?symbol=" + sym, "datetime"},
		{"nifty", "/v1/developer/nifty?", "datetime"},
		{"lists", "/v1/developer/lists?type=TOP_GAINERS", "datetime"},
		{"quote-timeline", "/v1/developer/quote-timeline?symbol=" + sym + "&end_datetime=2034-02-07T15:30:00", "start_datetime"},
		{"nifty-timeline", "/v1/developer/nifty-timeline?end_datetime=2034-02-07T15:30:00", "start_datetime"},
		{"historical-candles", "/v1/developer/historical-candles?symbol=" + sym + "&interval=1minute&end_datetime=2034-02-07T15:30:00", "start_datetime"},
		{"persistence", "/v1/developer/shortlists/persistence?type=TOP_GAINERS&end_datetime=2034-02-07T15:30:00", "start_datetime"},
	}
	clocks := []struct {
		current string
		utc     string
		status  int
	}{
		{"2034-02-07T13:00:00", "2034-02-07T07:30:00Z", 200}, // t + 1h
		{"2034-02-07T12:00:00", "2034-02-07T06:30:00Z", 403}, // t
		{"2034-02-07T11:00:00", "2034-02-07T05:30:00Z", 403}, // t - 1h
		{"", "", 200}, // no header
	}
	for _, rt := range routes {
		for _, c := range clocks {
			t.Run(fmt.Sprintf("%s/clock=%q", rt.name, c.current), func(t *testing.T) {
				path := rt.path + "&" + rt.param + "=" + at
				var headers []map[string]string
				if c.current != "" {
					headers = append(headers, clockHeader(c.current))
				}
				r := s.Do(t, "GET", path, token, nil, headers...)
				expectStatus(t, r, c.status)
				if c.status == 403 {
					// Both instants, in UTC.
					expectMessageNames(t, r, rt.param, "2034-02-07T06:30:00Z", c.utc)
				}
			})
		}
	}
	// A malformed header is 400 naming it.
	r := s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil, map[string]string{"X-Current-Timestamp": "2034-02-30T10:00:00"})
	expectFieldError(t, r, 400, "X-Current-Timestamp")
	r = s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil, map[string]string{"X-Current-Timestamp": "2034-02-07T10:00:00", "X-Current-Timezone": "Mars/Olympus"})
	expectFieldError(t, r, 400, "X-Current-Timezone")
}

func TestBacktestClockCutsEveryWindow(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "CUT")
	postQuotes(t, s, token, sym,
		devQuote{"2034-03-07T12:00:00", 100, 10},
		devQuote{"2034-03-07T12:00:30", 101, 20},
		devQuote{"2034-03-07T12:01:00", 102, 30})
	clock := clockHeader("2034-03-07T12:00:30")

	// As of the latest: the record stamped at the clock is hidden.
	r := s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil, clock)
	expectStatus(t, r, 200)
	if r.JSON["timestamp"] != "2034-03-07T06:30:00Z" {
		t.Errorf("latest under the clock: %s", r.Text())
	}
	// A timeline ending later is cut at the clock.
	r = s.Do(t, "GET", "/v1/developer/quote-timeline?symbol="+sym+"&start_datetime=2034-03-07T11:00:00&end_datetime=2034-03-07T15:00:00", token, nil, clock)
	expectStatus(t, r, 200)
	if q := asSlice(r.JSON["quotes"]); len(q) != 1 || field(q[0], "timestamp") != "2034-03-07T06:30:00Z" {
		t.Errorf("cut timeline: %s", r.Text())
	}
	// Without end_datetime the clock is the end, and start defaults to 09:15.
	r = s.Do(t, "GET", "/v1/developer/quote-timeline?symbol="+sym, token, nil, clock)
	expectStatus(t, r, 200)
	if len(asSlice(r.JSON["quotes"])) != 1 {
		t.Errorf("default window under the clock: %s", r.Text())
	}
	// Candles too: the 12:00 candle holds only the 12:00:00 quote.
	r = s.Do(t, "GET", "/v1/developer/historical-candles?symbol="+sym+"&interval=1hour&start_datetime=2034-03-07T09:15:00&end_datetime=2034-03-07T15:30:00", token, nil, clock)
	expectStatus(t, r, 200)
	if c := asSlice(r.JSON["candles"]); len(c) != 1 || num(t, field(c[0], "close")) != 100 || num(t, field(c[0], "volume")) != 10 {
		t.Errorf("cut candles: %s", r.Text())
	}
	// And without the header everything is visible.
	r = s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil)
	if r.JSON["timestamp"] != "2034-03-07T06:31:00Z" {
		t.Errorf("no clock: %s", r.Text())
	}
}
