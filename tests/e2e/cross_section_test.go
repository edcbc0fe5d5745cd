package e2e

// Reads of many symbols in one call (docs/api.md section 3): the
// cross-section as of an instant and the candles of several symbols.

import (
	"fmt"
	"strings"
	"testing"
)

func TestCrossSection(t *testing.T) {
	// A stack of its own: "every symbol of the day" is exactly these.
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sfx := strings.ToUpper(mustRandomHex(t, 3))
	a, b, c := "XSA"+sfx, "XSB"+sfx, "XSC"+sfx
	postQuotes(t, s, token, a, devQuote{"2035-04-02T15:00:00", 90, nil}, // Monday: never returned on Tuesday
		devQuote{"2035-04-03T10:00:00", 100, 1}, devQuote{"2035-04-03T11:59:59", 101, 2}, devQuote{"2035-04-03T12:00:01", 102, 3})
	postQuotes(t, s, token, b, devQuote{"2035-04-03T09:30:00", 200, nil})
	postQuotes(t, s, token, c, devQuote{"2035-04-02T10:00:00", 300, nil}, devQuote{"2035-04-03T13:00:00", 301, nil})
	postNifty(t, s, token, devQuote{"2035-04-03T11:00:00", 22000, nil})

	at := "&datetime=2035-04-03T12:00:00"
	for _, q := range []string{"symbols=" + c + "," + a + ",nifty," + b + ",NOPE" + sfx + "," + a,
		"symbols=" + c + "&symbols=" + a + ",nifty&symbols=" + b + "&symbols=NOPE" + sfx} {
		r := s.Do(t, "GET", "/v1/developer/quotes?"+q+at, token, nil)
		expectStatus(t, r, 200)
		if r.JSON["asOf"] != "2035-04-03T06:30:00Z" || r.JSON["tradingDay"] != "2035-04-03" {
			t.Errorf("%s: %s", q, r.Text())
		}
		var got []string
		for _, quote := range asSlice(r.JSON["quotes"]) {
			got = append(got, fmt.Sprint(field(quote, "nseSymbol"), "=", field(quote, "quoteData", "payload", "last_price")))
		}
		// In the order asked; c's only quote of the day is after t, NOPE has none.
		if strings.Join(got, " ") != a+"=101 NIFTY=22000 "+b+"=200" {
			t.Errorf("%s: quotes %v", q, got)
		}
		missing := asSlice(r.JSON["missing"])
		if len(missing) != 2 || missing[0] != c || missing[1] != "NOPE"+sfx {
			t.Errorf("%s: missing %v", q, missing)
		}
	}

	// Every symbol of the day, a page at a time, by symbol.
	var pages [][]string
	token2 := ""
	for i := 0; i < 4; i++ {
		path := "/v1/developer/quotes?pageSize=1" + at
		if token2 != "" {
			path += "&pageToken=" + token2
		}
		r := s.Do(t, "GET", path, token, nil)
		expectStatus(t, r, 200)
		var page []string
		for _, quote := range asSlice(r.JSON["quotes"]) {
			page = append(page, field(quote, "nseSymbol").(string))
		}
		pages = append(pages, page)
		if len(asSlice(r.JSON["missing"])) != 0 {
			t.Errorf("missing without symbols: %s", r.Text())
		}
		token2, _ = r.JSON["nextPageToken"].(string)
		if token2 == "" {
			break
		}
	}
	if len(pages) != 2 || len(pages[0]) != 1 || pages[0][0] != a || len(pages[1]) != 1 || pages[1][0] != b {
		t.Errorf("pages %v", pages)
	}

	// The backtest clock: as of it when no datetime, 403 at or after it.
	clock := map[string]string{"X-Current-Timestamp": "2035-04-03T11:59:59"}
	r := s.Do(t, "GET", "/v1/developer/quotes?symbols="+a, token, nil, clock)
	expectStatus(t, r, 200)
	if q := asSlice(r.JSON["quotes"]); len(q) != 1 || num(t, field(q[0], "quoteData", "payload", "last_price")) != 100 {
		t.Errorf("as of the clock: %s", r.Text())
	}
	expectStatus(t, s.Do(t, "GET", "/v1/developer/quotes?symbols="+a+at, token, nil, clock), 403)

	// Bad input names the parameter.
	for _, c := range []struct{ q, field string }{
		{"symbols=" + strings.Repeat("A,", 1000) + "B", "symbols"},
		{"symbols=A,B%20B", "symbols[1]"},
		{"symbols=A&pageToken=abc", "pageToken"},
		{"pageToken=abc", "pageToken"},
		{"pageSize=-1", "pageSize"},
		{"symbols=A&datetime=2035-04-31T10:00:00", "datetime"},
		{"symbols=A&timezone=Mars/Olympus", "timezone"},
	} {
		r := s.Do(t, "GET", "/v1/developer/quotes?"+c.q, token, nil)
		if r.Status != 400 || !strings.Contains(r.Text(), c.field) {
			t.Errorf("%s: %v, want 400 naming %s", c.q, r, c.field)
		}
	}
}

func TestCandlesOfSymbols(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	a, b := uniqueSymbol(t, "MCA"), uniqueSymbol(t, "MCB")
	postQuotes(t, s, token, a, devQuote{"2035-05-08T09:15:10", 10, 100}, devQuote{"2035-05-08T09:16:10", 11, 150})
	postQuotes(t, s, token, b, devQuote{"2035-05-08T09:15:20", 20, 5})
	window := "&interval=1minute&start_datetime=2035-05-08T09:15:00&end_datetime=2035-05-08T15:30:00"
	r := s.Do(t, "GET", "/v1/developer/candles?symbols="+b+","+a+",NONE"+a+window, token, nil)
	expectStatus(t, r, 200)
	series := asSlice(r.JSON["series"])
	if len(series) != 2 || field(series[0], "symbol") != b || field(series[1], "symbol") != a ||
		r.JSON["interval"] != "1minute" || len(asSlice(r.JSON["missing"])) != 1 {
		t.Fatalf("%s", r.Text())
	}
	// Each series is what the one-symbol route answers.
	one := s.Do(t, "GET", "/v1/developer/historical-candles?symbol="+a+window, token, nil)
	expectStatus(t, one, 200)
	if mustJSON(field(series[1], "candles")) != mustJSON(one.JSON["candles"]) {
		t.Errorf("series of %s: %s, alone: %s", a, mustJSON(field(series[1], "candles")), mustJSON(one.JSON["candles"]))
	}
	for _, c := range []struct{ q, field string }{
		{"interval=1minute", "symbols"},
		{"symbols=" + strings.Repeat("A,", 100) + "B&interval=1minute", "symbols"},
		{"symbols=A", "interval"},
		{"symbols=A,B&interval=1minute&start_datetime=2035-05-08T10:00:00&end_datetime=2035-05-08T09:00:00", "start_datetime"},
	} {
		r := s.Do(t, "GET", "/v1/developer/candles?"+c.q, token, nil)
		if r.Status != 400 || !hasFieldViolation(r.JSON, c.field) {
			t.Errorf("%s: %v, want 400 naming %s", c.q, r, c.field)
		}
	}
}
