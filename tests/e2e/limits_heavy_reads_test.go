package e2e

// The admission gate of heavy reads (MDC_HEAVY_READS,
// MDC_HEAVY_READS_PER_DEVELOPER, MDC_HEAVY_READ_WAIT; docs/api.md 9.1 and
// docs/operations.md "Limits"): while a developer's cross-section runs (held
// inside PostgreSQL by a lock another session holds), her next heavy read is
// 429 with reason HEAVY_READS_LIMITED (limit "developer") and Retry-After,
// and another developer's heavy read, finding the server's one turn taken
// and allowed no wait, is 429 with limit "server"; an ordinary read of the
// same data is not gated. Once the lock is gone the first read answers 200
// and the turns are free again.
//
// Events are ordered by what PostgreSQL reports (a lock waited for), never
// by sleeping.

import (
	"testing"
	"time"
)

func TestHeavyReadsAreGatedPerDeveloperAndPerServer(t *testing.T) {
	s := StartStackWith(t, StackOptions{Env: []string{
		"MDC_HEAVY_READS=1",
		"MDC_HEAVY_READS_PER_DEVELOPER=1",
		"MDC_HEAVY_READ_WAIT=0",
	}, GatewayEnv: []string{
		// The server's gate is under test: the gateway lets every heavy
		// read through at once.
		"MDC_GATEWAY_HEAVY_READS=0",
	}})
	_, alice := s.NewDeveloper(t, "developer")
	_, bob := s.NewDeveloper(t, "developer")
	symbol := uniqueSymbol(t, "HR")
	postQuotes(t, s, alice, symbol, devQuote{at: "2025-03-03T10:00:00", price: 101.5})
	cross := query("/v1/developer/quotes", map[string]string{"symbols": symbol, "datetime": "2025-03-03T10:05:00"})
	candles := query("/v1/developer/candles", map[string]string{
		"symbols": symbol, "interval": "1minute", "start_datetime": "2025-03-03T09:15:00",
		"end_datetime": "2025-03-03T15:30:00"})
	expectStatus(t, s.Do(t, "GET", cross, alice, nil), 200)
	expectStatus(t, s.Do(t, "GET", candles, alice, nil), 200)

	// Alice's cross-section takes the server's one turn and waits inside
	// PostgreSQL for the lock.
	lock := holdLock(t, s, "LOCK TABLE stock_quotes IN ACCESS EXCLUSIVE MODE")
	first := make(chan *Response, 1)
	go func() { first <- s.Do(t, "GET", cross, alice, nil) }()
	awaitLockWaiter(t, s)

	// Her next heavy read, of another kind, is refused at once.
	expectHeavyReadsLimited(t, s.Do(t, "GET", candles, alice, nil), "developer")
	// Bob's finds no turn free and may not wait.
	expectHeavyReadsLimited(t, s.Do(t, "GET", cross, bob, nil), "server")

	lock.release(t)
	select {
	case r := <-first:
		expectStatus(t, r, 200)
	case <-time.After(time.Minute):
		t.Fatal("the first cross-section was not answered after the lock was released")
	}
	// The turns were given back.
	expectStatus(t, s.Do(t, "GET", cross, bob, nil), 200)
	expectStatus(t, s.Do(t, "GET", candles, alice, nil), 200)
}

// The gateway forwards one heavy read at a time (MDC_GATEWAY_HEAVY_READS=1)
// and queues the rest, serving the tokens in turn: a burst of one client
// and another client's read, sent while the first read is held inside
// PostgreSQL, are all answered 200 once it ends, though the server would
// refuse a second running read of a developer (and any wait) at once.
func TestTheGatewayQueuesHeavyReadsInsteadOfRefusingThem(t *testing.T) {
	s := StartStackWith(t, StackOptions{Env: []string{
		"MDC_HEAVY_READS=1",
		"MDC_HEAVY_READS_PER_DEVELOPER=1",
		"MDC_HEAVY_READ_WAIT=0",
	}, GatewayEnv: []string{"MDC_GATEWAY_HEAVY_READS=1"}})
	_, alice := s.NewDeveloper(t, "developer")
	_, bob := s.NewDeveloper(t, "developer")
	symbol := uniqueSymbol(t, "HG")
	postQuotes(t, s, alice, symbol, devQuote{at: "2025-03-03T10:00:00", price: 101.5})
	cross := query("/v1/developer/quotes", map[string]string{"symbols": symbol, "datetime": "2025-03-03T10:05:00"})

	lock := holdLock(t, s, "LOCK TABLE stock_quotes IN ACCESS EXCLUSIVE MODE")
	answers := make(chan *Response, 4)
	go func() { answers <- s.Do(t, "GET", cross, alice, nil) }()
	awaitLockWaiter(t, s)
	for _, token := range []string{alice, alice, bob} {
		go func() { answers <- s.Do(t, "GET", cross, token, nil) }()
	}
	lock.release(t)
	for range 4 {
		select {
		case r := <-answers:
			expectStatus(t, r, 200)
		case <-time.After(time.Minute):
			t.Fatal("a cross-section was not answered after the lock was released")
		}
	}
}

// awaitLockWaiter returns once a session of the stack's database waits for
// a lock (the heavy read blocked behind holdLock's), polling
// pg_stat_activity.
func awaitLockWaiter(t *testing.T, s *Stack) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for s.SQL(t, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "+
		"AND wait_event_type = 'Lock'") == "0" {
		if time.Now().After(deadline) {
			t.Fatal("no session waited for the lock within a minute")
		}
	}
}

func expectHeavyReadsLimited(t *testing.T, r *Response, limit string) {
	t.Helper()
	meta := expectReason(t, r, 429, "HEAVY_READS_LIMITED")
	if meta["limit"] != limit {
		t.Errorf("metadata limit = %v, want %q; body %s", meta["limit"], limit, r.Text())
	}
	if got := r.Header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1", got)
	}
	found := false
	for _, d := range asSlice(r.JSON["details"]) {
		if obj := asObject(d); obj["@type"] == retryInfoType && obj["retryDelay"] == "1s" {
			found = true
		}
	}
	if !found {
		t.Errorf("no RetryInfo with retryDelay 1s in %s", r.Text())
	}
}
