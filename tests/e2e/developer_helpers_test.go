package e2e

// Helpers of the developer read tests (API.md sections 2.4, 3, 5.1, 6):
// posting quotes, NIFTY quotes and shortlists, and reading numbers back.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// devQuote is one quote to post: an IST wall clock, a last_price (nil for
// none) and a cumulative volume (nil for none).
type devQuote struct {
	at     string
	price  any
	volume any
}

func devPayload(q devQuote) map[string]any {
	payload := map[string]any{}
	if q.price != nil {
		payload["last_price"] = q.price
	}
	if q.volume != nil {
		payload["volume"] = q.volume
	}
	return map[string]any{"status": "SUCCESS", "payload": payload}
}

// postQuotes stores each quote of symbol through the Save Quote API.
func postQuotes(t *testing.T, s *Stack, token, symbol string, quotes ...devQuote) {
	t.Helper()
	for _, q := range quotes {
		body := map[string]any{"data": map[string]any{
			"timestamp": q.at, "timezone": "Asia/Kolkata",
			"quotes": []any{map[string]any{"nseSymbol": symbol, "quoteData": devPayload(q)}},
		}}
		expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, body), 200)
	}
}

// postNifty stores NIFTY quotes through the Save NIFTY Quote API.
func postNifty(t *testing.T, s *Stack, token string, quotes ...devQuote) {
	t.Helper()
	for _, q := range quotes {
		body := map[string]any{"data": map[string]any{
			"timestamp": q.at, "timezone": "Asia/Kolkata",
			"quoteData": devPayload(q), "dayChangePerc": 0.5,
		}}
		expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/nifty", token, body), 200)
	}
}

// postShortlist stores one snapshot of symbols (names "<symbol> Ltd").
func postShortlist(t *testing.T, s *Stack, token, typ, scope, at string, symbols ...string) {
	t.Helper()
	entries := []any{}
	for _, sym := range symbols {
		entries = append(entries, map[string]any{"nseSymbol": sym, "name": sym + " Ltd", "price": 10})
	}
	body := map[string]any{"data": map[string]any{
		"timestamp": at, "timezone": "Asia/Kolkata", "shortlistType": typ, "scope": scope,
		"entries": entries,
	}}
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/shortlists", token, body), 200)
}

// uniqueSymbol is a fresh symbol, so tests on the shared stack never see
// each other's quotes.
func uniqueSymbol(t *testing.T, prefix string) string {
	t.Helper()
	suffix, err := randomHex(4)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ToUpper(prefix + suffix)
}

// query builds a path with its query string.
func query(path string, params map[string]string) string {
	v := url.Values{}
	for k, val := range params {
		v.Set(k, val)
	}
	return path + "?" + v.Encode()
}

// num reads a JSON number (json.Number, as Do decodes them) as float64.
func num(t *testing.T, v any) float64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v (%T) is not a number", v, v)
	}
	f, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// field walks a decoded JSON value: field(v, "quoteData", "payload",
// "last_price").
func field(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// expectMessageNames checks that the error message contains every part.
func expectMessageNames(t *testing.T, r *Response, parts ...string) {
	t.Helper()
	msg := fmt.Sprint(r.JSON["message"])
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q does not contain %q", msg, p)
		}
	}
}
