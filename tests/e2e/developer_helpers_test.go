package e2e

// Helpers of the developer read tests (API.md sections 2.4, 3, 5.1, 6):
// posting quotes, NIFTY quotes and shortlists, and reading numbers back.

import (
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
	if q.price == nil {
		// A SUCCESS quote must carry last_price (docs/api.md 9.2): a quote
		// without a price is one the broker did not give.
		return map[string]any{"status": "FAILURE", "payload": payload}
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

// postShortlist stores one snapshot of symbols (names "<symbol> Ltd", price
// 10) at the IST wall clock at.
func postShortlist(t *testing.T, s *Stack, token, typ, scope, at string, symbols ...string) {
	t.Helper()
	postShortlistPriced(t, s, token, typ, scope, at, 10, symbols...)
}

// postShortlistPriced is postShortlist with every entry at price.
func postShortlistPriced(t *testing.T, s *Stack, token, typ, scope, at string, price float64, symbols ...string) {
	t.Helper()
	entries := []any{}
	for _, sym := range symbols {
		entries = append(entries, map[string]any{"nseSymbol": sym, "name": sym + " Ltd", "price": price})
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
	return strings.ToUpper(prefix + mustRandomHex(t, 4))
}
