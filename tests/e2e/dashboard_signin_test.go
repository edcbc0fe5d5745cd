package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// All sign-in checks run in one test, in order: the failure limit it ends
// with applies to the test machine's address for the rest of the minute.
func TestDashboardSignIn(t *testing.T) {
	d := newDash(t)
	anonymous := d.anonymous()

	// Clear any failures from this address left by an earlier run.
	d.s.SQL(t, "DELETE FROM sign_in_failures")

	me := anonymous.ok("POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": d.token})
	if me["id"] == nil || me["role"] != "developer" || me["username"] == nil {
		t.Errorf("sign-in answer %v", me)
	}
	if _, ok := me["token"]; ok {
		t.Errorf("sign-in must not echo a token: %v", me)
	}

	body := anonymous.fails(400, "POST", "/v1/dashboard/auth/sign-in", map[string]any{})
	if !hasFieldViolation(body, "developerToken") {
		t.Errorf("empty body: %v", body)
	}

	// The count is per clock minute: start early in one.
	if second, err := strconv.ParseFloat(d.s.SQL(t, "SELECT extract(second FROM clock_timestamp())"), 64); err == nil && second > 50 {
		time.Sleep(time.Duration((61 - second) * float64(time.Second)))
	}

	// Ten failures with one token are answered 401; the eleventh attempt with
	// that token 429 until the minute is over.
	for i := 0; i < 10; i++ {
		anonymous.fails(401, "POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": "mdc_wrong"})
	}
	throttled := anonymous.fails(429, "POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": "mdc_wrong"})
	if info := errorInfo(throttled); info == nil || info["reason"] != "SIGN_IN_THROTTLED" {
		t.Errorf("a throttled sign-in carries no SIGN_IN_THROTTLED reason: %v", throttled)
	}
	// A client-written X-Forwarded-For does not dodge the limit.
	anonymous.fails(429, "POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": "mdc_wrong"},
		"X-Forwarded-For", "203.0.113.77")
	// Another token from the same address (another client behind the same
	// proxy or NAT) is not locked out.
	anonymous.ok("POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": d.token})

	// 100 failures from the address with any tokens: every sign-in from it,
	// even with a good token, is 429 until the minute is over.
	for i := 0; i < 90; i++ {
		anonymous.fails(401, "POST", "/v1/dashboard/auth/sign-in",
			map[string]any{"developerToken": "mdc_wrong" + strings.Repeat("x", i+1)})
	}
	anonymous.fails(429, "POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": d.token})
	anonymous.fails(429, "POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": d.token},
		"X-Forwarded-For", "203.0.113.77")

	// Other routes are not limited: the token itself still works.
	d.ok("GET", "/v1/dashboard/runs", nil)

	// The minute passes (simulated by ageing the counters): sign-in works again.
	d.s.SQL(t, "UPDATE sign_in_failures SET minute = minute - interval '1 minute'")
	anonymous.ok("POST", "/v1/dashboard/auth/sign-in", map[string]any{"developerToken": d.token})
}
