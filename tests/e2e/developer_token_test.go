package e2e

// The broker token (GET /v1/developer/token) against a fake token endpoint
// this test starts: success, caching until expiry (sealed in the database
// with MDC_SECRET_KEY), every failure mode, and no caching without a key.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeBroker is a token endpoint whose behaviour the test switches.
type fakeBroker struct {
	mu    sync.Mutex
	mode  string // "ok", "slow", "500", "malformed", "no-token"
	calls int
	last  map[string]any // the last request body
}

func (f *fakeBroker) set(mode string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mode = mode
}

func (f *fakeBroker) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fakeBroker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls++
	n, mode := f.calls, f.mode
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.last = body
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, "want a JSON POST", http.StatusBadRequest)
		return
	}
	switch mode {
	case "slow":
		// Slower than the server waits (1 s): answer nothing until it has
		// given up and closed the call.
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	case "500":
		http.Error(w, "broker down", http.StatusInternalServerError)
		return
	case "malformed":
		fmt.Fprint(w, `{"access_token": "abc`)
		return
	case "no-token":
		fmt.Fprint(w, `{"status": "ok"}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"access_token": "broker-token-%d", "token_type": "bearer"}`, n)
}

// A server without a broker is configured that way, not down: 412, which
// no client retries (issue 20), not the 503 of an outage.
func TestBrokerTokenWithoutAnEndpointIs412(t *testing.T) {
	s := SharedStack(t) // started without MDC_BROKER_TOKEN_URL
	_, token := s.NewDeveloper(t, "developer")
	r := s.Do(t, "GET", "/v1/developer/token", token, nil)
	expectStatus(t, r, 412)
	expectMessageNames(t, r, "no broker is configured", "MDC_BROKER_TOKEN_URL")
	expectReason(t, r, 412, "BROKER_NOT_CONFIGURED")
}

func TestBrokerTokenFromAFakeEndpoint(t *testing.T) {
	fake := &fakeBroker{mode: "ok"}
	endpoint := httptest.NewServer(fake)
	t.Cleanup(endpoint.Close)
	s := StartStackWith(t, StackOptions{Env: []string{
		"MDC_BROKER_TOKEN_URL=" + endpoint.URL + "/session/token",
		"MDC_BROKER_API_KEY=key-1",
		"MDC_BROKER_API_SECRET=secret-\"1\"",
		"MDC_BROKER_TIMEOUT_SECONDS=1",
		// The token is stored (sealed) only when the server has a key.
		"MDC_SECRET_KEY=" + mustRandomHex(t, 32),
	}})
	_, token := s.NewDeveloper(t, "developer")
	get := func() *Response { return s.Do(t, "GET", "/v1/developer/token", token, nil) }
	// The stored token: sealed bytes (hex), never the token in clear.
	stored := func() string {
		t.Helper()
		row := s.SQL(t, "SELECT encode(access_token_sealed, 'hex'), "+
			"position('broker-token-'::bytea IN access_token_sealed) FROM broker_tokens")
		sealed, position, _ := strings.Cut(row, "|")
		if sealed == "" || position != "0" {
			t.Errorf("stored token: %q, want sealed bytes without the token in clear", row)
		}
		return sealed
	}

	// Success: the token and the next 06:00 IST.
	r := get()
	expectStatus(t, r, 200)
	if r.JSON["accessToken"] != "broker-token-1" {
		t.Fatalf("token: %s", r.Text())
	}
	expires, err := time.Parse(time.RFC3339, fmt.Sprint(r.JSON["expiresAt"]))
	if err != nil {
		t.Fatalf("expiresAt: %s", r.Text())
	}
	ist := expires.In(time.FixedZone("IST", 5*3600+1800))
	if ist.Hour() != 6 || ist.Minute() != 0 || time.Until(expires) <= 0 || time.Until(expires) > 24*time.Hour {
		t.Errorf("expiresAt %s is not the next 06:00 IST", expires)
	}
	fake.mu.Lock()
	if fake.last["api_key"] != "key-1" || fake.last["api_secret"] != "secret-\"1\"" {
		t.Errorf("request body: %v", fake.last)
	}
	fake.mu.Unlock()

	// Cached until expiry: the endpoint is not called again, even when it
	// would fail now.
	fake.set("500")
	for i := 0; i < 3; i++ {
		r = get()
		expectStatus(t, r, 200)
		if r.JSON["accessToken"] != "broker-token-1" {
			t.Errorf("cached token: %s", r.Text())
		}
	}
	if n := fake.count(); n != 1 {
		t.Errorf("endpoint called %d times, want 1", n)
	}
	sealed := stored()

	// Expired: every failure mode is a 503 with a clear message, and stores
	// nothing.
	s.SQL(t, "UPDATE broker_tokens SET expires_at = now() - interval '1 second'")
	failures := []struct {
		mode, message string
	}{
		{"500", "HTTP 500"},
		{"slow", "did not answer within 1s"},
		{"malformed", "not a JSON object"},
		{"no-token", "access_token"},
	}
	for _, f := range failures {
		fake.set(f.mode)
		before := fake.count()
		r = get()
		expectStatus(t, r, 503)
		expectMessageNames(t, r, "broker token endpoint", f.message)
		expectReason(t, r, 503, "BROKER_UNAVAILABLE")
		if strings.Contains(r.Text(), "broker-token-1") {
			t.Errorf("%s: an expired token was handed out: %s", f.mode, r.Text())
		}
		if fake.count() != before+1 {
			t.Errorf("%s: endpoint called %d times, want 1", f.mode, fake.count()-before)
		}
	}
	if got := stored(); got != sealed {
		t.Errorf("a failed refresh changed the stored token to %q", got)
	}

	// Refreshed once the endpoint works again; concurrent callers share one
	// refresh.
	fake.set("ok")
	before := fake.count()
	var wg sync.WaitGroup
	tokens := make([]string, 8)
	for i := range tokens {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := get()
			tokens[i] = fmt.Sprint(r.Status, " ", r.JSON["accessToken"])
		}(i)
	}
	wg.Wait()
	for _, tok := range tokens {
		if tok != tokens[0] || !strings.HasPrefix(tok, "200 broker-token-") {
			t.Errorf("concurrent answers differ or failed: %v", tokens)
			break
		}
	}
	if n := fake.count() - before; n != 1 {
		t.Errorf("%d refreshes for 8 concurrent callers, want 1", n)
	}
}

// Without MDC_SECRET_KEY the token is not stored (it would be in clear) nor
// kept in one replica's memory: every request fetches a new one.
func TestBrokerTokenWithoutASecretKeyIsFetchedEachTime(t *testing.T) {
	fake := &fakeBroker{mode: "ok"}
	endpoint := httptest.NewServer(fake)
	t.Cleanup(endpoint.Close)
	s := StartStackWith(t, StackOptions{Env: []string{
		"MDC_BROKER_TOKEN_URL=" + endpoint.URL + "/session/token",
		"MDC_BROKER_API_KEY=key-1",
		"MDC_BROKER_API_SECRET=secret-1",
		"MDC_BROKER_TIMEOUT_SECONDS=1",
	}})
	_, token := s.NewDeveloper(t, "developer")
	for i := 1; i <= 3; i++ {
		r := s.Do(t, "GET", "/v1/developer/token", token, nil)
		expectStatus(t, r, 200)
		if want := fmt.Sprintf("broker-token-%d", i); r.JSON["accessToken"] != want {
			t.Errorf("call %d: %s, want %s", i, r.Text(), want)
		}
		if _, err := time.Parse(time.RFC3339, fmt.Sprint(r.JSON["expiresAt"])); err != nil {
			t.Errorf("expiresAt: %s", r.Text())
		}
	}
	if n := fake.count(); n != 3 {
		t.Errorf("endpoint called %d times for 3 requests, want 3", n)
	}
	if n := s.SQL(t, "SELECT count(*) FROM broker_tokens"); n != "0" {
		t.Errorf("%s tokens stored without a key, want 0", n)
	}
	// A failing endpoint is still a 503: there is no cached token to hand out.
	fake.set("500")
	r := s.Do(t, "GET", "/v1/developer/token", token, nil)
	expectReason(t, r, 503, "BROKER_UNAVAILABLE")
}
