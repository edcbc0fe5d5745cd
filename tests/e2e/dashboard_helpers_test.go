package e2e

// Helpers of the dashboard end-to-end tests, on top of the shared harness.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
)

// dash is one developer's view of the shared stack.
type dash struct {
	t     *testing.T
	s     *Stack
	token string
}

// newDash makes a developer with a fresh token. It is stored directly (the
// token's SHA-256, as the server keeps it) so this suite needs nothing of the
// admin API, which its own suite covers.
func newDash(t *testing.T) *dash {
	t.Helper()
	s := SharedStack(t)
	token, err := randomToken()
	if err != nil {
		t.Fatal(err)
	}
	suffix, err := randomHex(6)
	if err != nil {
		t.Fatal(err)
	}
	s.SQL(t, fmt.Sprintf("INSERT INTO developers (username, role, token_hash) "+
		"VALUES ('e2e_dash_%s', 'developer', sha256(convert_to('%s', 'UTF8')))", suffix, token))
	return &dash{t: t, s: s, token: token}
}

// anonymous is a caller without a token.
func (d *dash) anonymous() *dash { return &dash{t: d.t, s: d.s} }

// call sends a request and decodes the JSON answer (nil for an empty body);
// headers are name, value pairs.
func (d *dash) call(method, path string, body any, headers ...string) (int, map[string]any) {
	d.t.Helper()
	h := map[string]string{}
	for i := 0; i+1 < len(headers); i += 2 {
		h[headers[i]] = headers[i+1]
	}
	r := d.s.Do(d.t, method, path, d.token, body, h)
	var out map[string]any
	if len(r.Body) > 0 {
		if err := json.Unmarshal(r.Body, &out); err != nil {
			d.t.Fatalf("%s %s: answer is not a JSON object: %v: %s", method, path, err, r.Body)
		}
	}
	return r.Status, out
}

// ok sends a request that must answer 200.
func (d *dash) ok(method, path string, body any, headers ...string) map[string]any {
	d.t.Helper()
	status, out := d.call(method, path, body, headers...)
	if status != 200 {
		d.t.Fatalf("%s %s: status %d, want 200: %v", method, path, status, out)
	}
	return out
}

// fails sends a request that must answer `want`, and returns the body.
func (d *dash) fails(want int, method, path string, body any, headers ...string) map[string]any {
	d.t.Helper()
	status, out := d.call(method, path, body, headers...)
	if status != want {
		d.t.Fatalf("%s %s: status %d, want %d: %v", method, path, status, want, out)
	}
	return out
}

// dashBadFields lists the `field` of each BadRequest violation of an error body.
func dashBadFields(body map[string]any) []string {
	var fields []string
	details, _ := body["details"].([]any)
	for _, d := range details {
		detail, _ := d.(map[string]any)
		violations, _ := detail["fieldViolations"].([]any)
		for _, v := range violations {
			violation, _ := v.(map[string]any)
			if f, ok := violation["field"].(string); ok {
				fields = append(fields, f)
			}
		}
	}
	return fields
}

func dashHasField(body map[string]any, field string) bool {
	for _, f := range dashBadFields(body) {
		if f == field {
			return true
		}
	}
	return false
}

// saveQuote stores one quote of `symbol` at an IST wall-clock time.
func (d *dash) saveQuote(symbol, wallClock string, lastPrice, volume float64) {
	d.t.Helper()
	d.ok("POST", "/v1/developer/collector/quotes", map[string]any{"data": map[string]any{
		"timestamp": wallClock, "timezone": "Asia/Kolkata",
		"quotes": []any{map[string]any{"nseSymbol": symbol, "quoteData": map[string]any{
			"status": "SUCCESS", "payload": map[string]any{"last_price": lastPrice, "volume": volume}}}},
	}})
}

// saveShortlist stores a snapshot whose entries all have price `price`.
func (d *dash) saveShortlist(typ, scope, wallClock string, price float64, symbols ...string) {
	d.t.Helper()
	entries := []any{}
	for _, s := range symbols {
		entries = append(entries, map[string]any{"nseSymbol": s, "name": s + " Ltd", "price": price})
	}
	d.ok("POST", "/v1/developer/collector/shortlists", map[string]any{"data": map[string]any{
		"timestamp": wallClock, "timezone": "Asia/Kolkata", "shortlistType": typ, "scope": scope,
		"entries": entries,
	}})
}

func (d *dash) createRun(body map[string]any) map[string]any {
	d.t.Helper()
	if _, ok := body["start_datetime"]; !ok {
		body["start_datetime"] = "2025-02-03T09:15:00"
	}
	if _, ok := body["end_datetime"]; !ok {
		body["end_datetime"] = "2025-02-03T15:30:00"
	}
	return d.ok("POST", "/v1/dashboard/runs", body)
}

func dashQuery(path string, params map[string]string) string {
	v := url.Values{}
	for k, val := range params {
		v.Set(k, val)
	}
	return path + "?" + v.Encode()
}

func dashStr(v any) string { return fmt.Sprint(v) }

// dashList reads key as a JSON array (absent → empty).
func dashList(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

func dashObj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
