package e2e

import (
	"strconv"
	"testing"
	"time"
)

// Sign-in, and the failed-token throttle it shares with every other route
// (docs/api.md "Failed tokens"), on a stack of its own: the lock it ends
// with would otherwise hold the test machine's address for the rest of the
// minute. The test plays several clients behind one load balancer: the
// harness's gateway trusts it (MDC_GATEWAY_TRUSTED_PROXIES), so
// X-Forwarded-For names each client.
func TestDashboardSignIn(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	d := &dash{t: t, s: s, token: token}
	anonymous := d.anonymous()
	const signIn = "/v1/dashboard/auth/sign-in"

	me := anonymous.ok("POST", signIn, map[string]any{"developerToken": d.token})
	if me["id"] == nil || me["role"] != "developer" || me["username"] == nil {
		t.Errorf("sign-in answer %v", me)
	}
	if _, ok := me["token"]; ok {
		t.Errorf("sign-in must not echo a token: %v", me)
	}
	body := anonymous.fails(400, "POST", signIn, map[string]any{})
	if !hasFieldViolation(body, "developerToken") {
		t.Errorf("empty body: %v", body)
	}
	// A cross-site form cannot sign in: only JSON is read.
	for _, contentType := range []string{"text/plain", "application/x-www-form-urlencoded"} {
		r := s.Do(t, "POST", signIn, "", `{"developerToken":"`+d.token+`"}`, map[string]string{"Content-Type": contentType})
		if r.Status != 415 {
			t.Errorf("sign-in as %s: %v", contentType, r)
		}
	}

	// One client's unknown tokens: 401 until its address has 100 failures
	// this minute, then 429; then every route refuses its unknown tokens,
	// before a lookup. The count is per minute of the database clock: an
	// attempt whose requests a minute's end fell among proves nothing and
	// is made again at once, from a fresh address (100 requests take far
	// less than a minute, so the second attempt falls within one).
	var (
		guesser            map[string]string
		failures           int
		throttled, onRoute *Response
	)
	for attempt := 1; ; attempt++ {
		minute := s.SQL(t, "SELECT date_trunc('minute', clock_timestamp())")
		guesser = map[string]string{"X-Forwarded-For": "203.0.113." + strconv.Itoa(20+attempt)}
		failures, throttled = 0, nil
		for failures <= 110 {
			r := s.Do(t, "POST", signIn, "", map[string]any{"developerToken": "mdc_" + mustRandomHex(t, 32)}, guesser)
			if r.Status == 429 {
				throttled = r
				break
			}
			if r.Status != 401 {
				t.Fatalf("guess %d: %v", failures, r)
			}
			failures++
		}
		onRoute = s.Do(t, "GET", "/v1/developer/holidays", "mdc_"+mustRandomHex(t, 32), nil, guesser)
		if s.SQL(t, "SELECT date_trunc('minute', clock_timestamp())") == minute || attempt == 3 {
			break
		}
	}
	if throttled == nil || failures < 100 || failures > 101 {
		t.Fatalf("locked after %d failures (want 100), last answer %v", failures, throttled)
	}
	if info := errorInfo(throttled.JSON); info == nil || info["reason"] != "SIGN_IN_THROTTLED" {
		t.Errorf("a throttled sign-in carries no SIGN_IN_THROTTLED reason: %v", throttled)
	}
	if after, err := strconv.Atoi(throttled.Header.Get("Retry-After")); err != nil || after < 1 || after > 60 {
		t.Errorf("Retry-After %q", throttled.Header.Get("Retry-After"))
	}
	if info := errorInfo(onRoute.JSON); onRoute.Status != 429 || info == nil || info["reason"] != "AUTH_THROTTLED" {
		t.Errorf("unknown token on a developer route from the locked address: %v", onRoute)
	}
	// Another client is not affected.
	if r := s.Do(t, "POST", signIn, "", map[string]any{"developerToken": "mdc_wrong"},
		map[string]string{"X-Forwarded-For": "203.0.113.11"}); r.Status != 401 {
		t.Errorf("another client's bad token: %v", r)
	}
	// A token in use behind the same address goes on, on every route.
	if r := s.Do(t, "POST", signIn, "", map[string]any{"developerToken": d.token}, guesser); r.Status != 200 {
		t.Errorf("a token in use, from the locked address: %v", r)
	}
	if r := s.Do(t, "GET", "/v1/dashboard/runs", d.token, nil, guesser); r.Status != 200 {
		t.Errorf("a token in use on another route, from the locked address: %v", r)
	}
	// A valid token the server has not seen yet waits for the next probe:
	// at most one lookup every 5 seconds goes through for a locked address.
	_, fresh := s.NewDeveloper(t, "developer")
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := s.Do(t, "POST", signIn, "", map[string]any{"developerToken": fresh}, guesser)
		if r.Status == 200 {
			break
		}
		after, err := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.Status != 429 || err != nil || after > 5 || time.Now().After(deadline) {
			t.Fatalf("a new valid token from the locked address: %v (Retry-After %q)", r, r.Header.Get("Retry-After"))
		}
		// Polling, paced by the server's Retry-After: the probe lets one
		// lookup through every 5 s of the server's clock, which the test
		// cannot move (the throttle's clock is not injectable end to end).
		time.Sleep(time.Duration(after) * time.Second)
	}
}
