package e2e

// The broker token (GET /v1/developer/token) against a fake token endpoint
// this test starts: success, caching until expiry, and every failure mode.

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
		time.Sleep(3 * time.Second) // the server gives up after 1 s
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

func TestBrokerTokenWithoutAnEndpointIs503(t *testing.T) {
	s := SharedStack(t) // started without MDC_BROKER_TOKEN_URL
	_, token := s.NewDeveloper(t, "developer")
	r := s.Do(t, "GET", "/v1/developer/token", token, nil)
	expectStatus(t, r, 503)
	expectMessageNames(t, r, "no broker is configured", "MDC_BROKER_TOKEN_URL")
	expectReason(t, r, 503, "BROKER_NOT_CONFIGURED")
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
	}})
	_, token := s.NewDeveloper(t, "developer")
	get := func() *Response { return s.Do(t, "GET", "/v1/developer/token", token, nil) }

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
	if got := s.SQL(t, "SELECT access_token FROM broker_tokens"); got != "broker-token-1" {
		t.Errorf("stored token %q", got)
	}

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
	if got := s.SQL(t, "SELECT access_token FROM broker_tokens"); got != "broker-token-1" {
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
