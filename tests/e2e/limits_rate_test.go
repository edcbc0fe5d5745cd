package e2e

// The per-developer rate limits (MDC_RATE_LIMIT_*, docs/api.md 9.1 and
// docs/operations.md "Limits"): a developer over its limit gets 429 with
// Retry-After and reason RATE_LIMITED, another developer is not affected,
// reads and writes are counted apart, admin routes are not limited, and a
// refused write is not stored.
//
// The rate is one call every 10 s, so no token comes back while the test
// runs (it asserts no timing: a slow machine only makes the bursts
// matter less, never an answer wrong within them).

import (
	"fmt"
	"strconv"
	"testing"
)

const (
	retryInfoType   = "type.googleapis.com/google.rpc.RetryInfo"
	rateReadsBurst  = 3
	rateWritesBurst = 2
)

func TestRateLimitPerDeveloper(t *testing.T) {
	s := StartStackWith(t, StackOptions{Env: []string{
		"MDC_RATE_LIMIT_READS=0.1",
		"MDC_RATE_LIMIT_READS_BURST=" + strconv.Itoa(rateReadsBurst),
		"MDC_RATE_LIMIT_WRITES=0.1",
		"MDC_RATE_LIMIT_WRITES_BURST=" + strconv.Itoa(rateWritesBurst),
	}})
	_, alice := s.NewDeveloper(t, "developer")
	_, bob := s.NewDeveloper(t, "developer")
	const read = "/v1/developer/holidays?year=2025"

	// Alice's reads: the burst passes, the next is refused.
	for i := 0; i < rateReadsBurst; i++ {
		checkStatus(t, fmt.Sprintf("alice's read %d", i+1), s.Do(t, "GET", read, alice, nil), 200)
	}
	expectRateLimited(t, s.Do(t, "GET", read, alice, nil), "reads")

	// Bob is not affected by Alice's reads.
	for i := 0; i < rateReadsBurst; i++ {
		checkStatus(t, fmt.Sprintf("bob's read %d", i+1), s.Do(t, "GET", read, bob, nil), 200)
	}

	// Writes are counted apart from reads: Alice, out of reads, may still
	// write her burst; the write after it is refused and not stored.
	symbol := uniqueSymbol(t, "RL")
	quote := func(minute int) map[string]any {
		return map[string]any{"data": map[string]any{
			"timestamp": fmt.Sprintf("2025-03-03T10:%02d:00", minute), "timezone": "Asia/Kolkata",
			"quotes": []any{map[string]any{"nseSymbol": symbol, "quoteData": devPayload(devQuote{price: 100.5})}},
		}}
	}
	for i := 0; i < rateWritesBurst; i++ {
		checkStatus(t, fmt.Sprintf("alice's write %d", i+1),
			s.Do(t, "POST", "/v1/developer/collector/quotes", alice, quote(i)), 200)
	}
	expectRateLimited(t, s.Do(t, "POST", "/v1/developer/collector/quotes", alice, quote(rateWritesBurst)), "writes")
	stored := s.SQL(t, "SELECT count(*) FROM stock_quotes WHERE nse_symbol = '"+symbol+"'")
	if stored != strconv.Itoa(rateWritesBurst) {
		t.Errorf("stored quotes of %s: %s, want %d (the refused write must not be stored)", symbol, stored, rateWritesBurst)
	}
	// A dashboard write counts against the same write limit.
	expectRateLimited(t, s.Do(t, "POST", "/v1/dashboard/runs", alice,
		map[string]any{"name": "rate limited run", "startDatetime": "2025-03-03T09:15:00",
			"endDatetime": "2025-03-03T15:30:00", "timezone": "Asia/Kolkata"}), "writes")
	// Bob's writes are not affected.
	checkStatus(t, "bob's write", s.Do(t, "POST", "/v1/developer/collector/quotes", bob, quote(30)), 200)

	// Admin routes are not limited.
	for i := 0; i < rateReadsBurst+2; i++ {
		checkStatus(t, fmt.Sprintf("admin read %d", i+1), s.Do(t, "GET", "/v1/admin/developers", s.AdminToken(), nil), 200)
	}
	// An unknown token is still 401 within its burst: the limit does not
	// hide authentication.
	checkStatus(t, "unknown token", s.Do(t, "GET", read, "mdc_"+mustRandomHex(t, 20), nil), 401)
}

// expectRateLimited checks that r is the rate limit's refusal: 429 with a
// Retry-After of whole seconds (1-10 at one call every 10 s), reason
// RATE_LIMITED naming the limit, and a RetryInfo detail.
func expectRateLimited(t *testing.T, r *Response, limit string) {
	t.Helper()
	meta := expectReason(t, r, 429, "RATE_LIMITED")
	if meta["limit"] != limit {
		t.Errorf("metadata limit = %v, want %q; body %s", meta["limit"], limit, r.Text())
	}
	retryAfter, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || retryAfter < 1 || retryAfter > 10 {
		t.Errorf("Retry-After = %q, want whole seconds 1-10", r.Header.Get("Retry-After"))
	}
	if fmt.Sprint(r.JSON["code"]) != "8" {
		t.Errorf("code = %v, want 8 (RESOURCE_EXHAUSTED)", r.JSON["code"])
	}
	found := false
	for _, d := range asSlice(r.JSON["details"]) {
		if obj := asObject(d); obj["@type"] == retryInfoType && obj["retryDelay"] != nil {
			found = true
		}
	}
	if !found {
		t.Errorf("no RetryInfo with retryDelay in %s", r.Text())
	}
}
