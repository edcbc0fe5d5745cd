package e2e

// Three rules of the contract (issue 37): a SUCCESS quote carries its
// last_price; candles tell "no volume reported" (absent) from "no trades"
// (0); every list parameter takes both spellings, repeated and
// comma-separated (docs/api.md 9.1, "List parameters").

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

func TestSuccessQuoteNeedsLastPrice(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "LP")
	const at = "2035-06-04T10:00:00"
	for _, c := range []struct {
		path  string
		body  map[string]any
		field string
	}{
		{"/v1/developer/collector/quotes", map[string]any{"data": map[string]any{"timestamp": at, "quotes": []any{
			map[string]any{"nseSymbol": sym, "quoteData": map[string]any{"status": "SUCCESS", "payload": map[string]any{"volume": 5}}}}}},
			"data.quotes[0].quoteData.payload.last_price"},
		// The misspelled key of the issue: ignored as an unknown field, so the
		// quote has no price, and is refused instead of stored empty.
		{"/v1/developer/collector/quotes", map[string]any{"data": map[string]any{"timestamp": at, "quotes": []any{
			map[string]any{"nseSymbol": sym, "quoteData": map[string]any{"status": "SUCCESS", "payload": map[string]any{"lastPrice": 5}}}}}},
			"data.quotes[0].quoteData.payload.last_price"},
		{"/v1/developer/collector/nifty", map[string]any{"data": map[string]any{"timestamp": at, "dayChangePerc": 0.1,
			"quoteData": map[string]any{"status": "SUCCESS"}}}, "data.quoteData.payload.last_price"},
		{"/v1/developer/collector/shortlists", map[string]any{"data": map[string]any{"timestamp": at, "shortlistType": "TOP_GAINERS",
			"entries": []any{map[string]any{"nseSymbol": sym, "price": 1, "quoteData": map[string]any{"status": "SUCCESS", "payload": map[string]any{}}}}}},
			"data.entries[0].quoteData.payload.last_price"},
	} {
		r := s.Do(t, "POST", c.path, token, c.body)
		expectFieldError(t, r, 400, c.field)
		expectMessageNames(t, r, "is required when status is SUCCESS")
	}
	// Nothing of the refused writes was stored.
	expectStatus(t, s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil), 404)
	// A FAILURE needs no price; a SUCCESS with one is stored.
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, map[string]any{"data": map[string]any{
		"timestamp": at, "quotes": []any{map[string]any{"nseSymbol": sym, "quoteData": map[string]any{"status": "FAILURE"}}}}}), 200)
	postQuotes(t, s, token, sym, devQuote{"2035-06-04T10:01:00", 12.5, nil})
	r := s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil)
	expectStatus(t, r, 200)
	if num(t, field(r.JSON, "quoteData", "payload", "last_price")) != 12.5 {
		t.Errorf("stored: %s", r.Text())
	}
}

func TestCandleVolumeIsAbsentWhenNoQuoteReportedOne(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	never, some := uniqueSymbol(t, "NV"), uniqueSymbol(t, "SV")
	postQuotes(t, s, token, never, devQuote{"2035-06-05T09:15:10", 10, nil}, devQuote{"2035-06-05T09:16:10", 11, nil})
	postQuotes(t, s, token, some, devQuote{"2035-06-05T09:15:10", 20, 100}, devQuote{"2035-06-05T09:16:10", 21, 100},
		devQuote{"2035-06-05T09:17:10", 22, nil})
	window := "&interval=1minute&start_datetime=2035-06-05T09:15:00&end_datetime=2035-06-05T15:30:00"
	volumes := func(candles any) []string {
		var out []string
		for _, c := range asSlice(candles) {
			v, ok := asObject(c)["volume"]
			if !ok {
				out = append(out, "absent")
				continue
			}
			out = append(out, mustJSON(v))
		}
		return out
	}
	for _, c := range []struct {
		symbol string
		want   string
	}{
		{never, "absent absent"},
		{some, "100 0 absent"}, // 0: reported and unchanged, no trades
	} {
		r := s.Do(t, "GET", "/v1/developer/historical-candles?symbol="+c.symbol+window, token, nil)
		expectStatus(t, r, 200)
		if got := strings.Join(volumes(r.JSON["candles"]), " "); got != c.want {
			t.Errorf("%s volumes: %s, want %s; %s", c.symbol, got, c.want, r.Text())
		}
	}
	// The same in the candles of several symbols and in the export.
	r := s.Do(t, "GET", "/v1/developer/candles?symbols="+never+window, token, nil)
	expectStatus(t, r, 200)
	if got := strings.Join(volumes(field(asSlice(r.JSON["series"])[0], "candles")), " "); got != "absent absent" {
		t.Errorf("candles of symbols: %s; %s", got, r.Text())
	}
	x := getRaw(t, s, "/v1/developer/export/candles?format=ndjson&interval=1minute&start_date=2035-06-05&symbols="+never, token)
	expectStatus(t, x, 200)
	lines := strings.Split(strings.TrimSpace(x.Text()), "\n")
	if len(lines) != 2 {
		t.Fatalf("export: %s", x.Text())
	}
	for _, line := range lines {
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		if v, ok := row["volume"]; ok && v != nil {
			t.Errorf("export row with volume %v, want null or absent: %s", v, line)
		}
	}
}

func TestEveryListParameterTakesBothForms(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	day := uniqueDay(t)
	a, b := uniqueSymbol(t, "LA"), uniqueSymbol(t, "LB")
	postQuotes(t, s, token, a, devQuote{day + "T09:15:10", 10, 1})
	postQuotes(t, s, token, b, devQuote{day + "T09:16:10", 20, 2})
	postNifty(t, s, token, devQuote{day + "T09:17:00", 22000, nil})
	replay := func(q string) []string {
		t.Helper()
		resp := openHTTPStream(t, s, "/v1/developer/replay?date="+day+"&"+q, token, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("replay %s: HTTP %d", q, resp.StatusCode)
		}
		var got []string
		scanner := bufio.NewScanner(resp.Body)
		for scanner.Scan() {
			var line streamLine
			if err := json.Unmarshal(scanner.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			if line.Error != nil {
				t.Fatalf("replay %s: %s", q, line.Error.Message)
			}
			if line.Result == nil {
				continue
			}
			for _, e := range line.Result.Events {
				switch {
				case e["quote"] != nil:
					got = append(got, "Q "+field(e, "quote", "nseSymbol").(string))
				case e["nifty"] != nil:
					got = append(got, "N")
				}
			}
		}
		return got
	}
	want := mustJSON([]string{"Q " + a, "Q " + b, "N"})
	for _, q := range []string{
		"symbols=" + a + "&symbols=" + b + "&kinds=quotes&kinds=nifty",
		"symbols=" + a + "," + b + "&kinds=quotes,nifty",
		"symbols=" + a + "&symbols=" + b + "&kinds=quotes,nifty",
	} {
		if got := mustJSON(replay(q)); got != want {
			t.Errorf("replay %s: %s, want %s", q, got, want)
		}
	}
	// A bad item is named by its index after splitting, in either form.
	for _, path := range []string{
		"/v1/developer/replay?date=" + day + "&symbols=" + a + ",bad!",
		"/v1/developer/watch/quotes?symbols=" + a + ",bad!",
		"/v1/developer/quotes?symbols=" + a + "&symbols=bad!",
		"/v1/developer/candles?interval=1minute&symbols=" + a + "&symbols=bad!",
	} {
		expectFieldError(t, s.Do(t, "GET", path, token, nil), 400, "symbols[1]")
	}
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/replay?date="+day+"&kinds=quotes,trades", token, nil), 400, "kinds[1]")
	// A watch opens on a comma-separated list.
	resp := openHTTPStream(t, s, "/v1/developer/watch/quotes?symbols="+a+","+b, token, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("watch of %s,%s: HTTP %d", a, b, resp.StatusCode)
	}
	// The cross-section in the repeated form.
	r := s.Do(t, "GET", "/v1/developer/quotes?datetime="+day+"T15:00:00&symbols="+b+"&symbols="+a, token, nil)
	expectStatus(t, r, 200)
	quotes := asSlice(r.JSON["quotes"])
	if len(quotes) != 2 || field(quotes[0], "nseSymbol") != b || field(quotes[1], "nseSymbol") != a {
		t.Errorf("cross-section: %s", r.Text())
	}
}
