package e2e

// Smaller items of issue 20 through the real binaries: the caller's role is
// checked before the request's arguments on the admin routes, and a 503 of
// the gateway's body budget is logged with its cause.

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A developer token on an admin route is 403 whatever the body holds: the
// gateway leaves the admin RPCs' argument checks to the server, which checks
// the role first.
func TestAdminRoutesCheckTheRoleBeforeTheArguments(t *testing.T) {
	s := SharedStack(t)
	_, dev := s.NewDeveloper(t, "developer")
	for _, tt := range []struct {
		method, path string
		body         any
	}{
		{"DELETE", "/v1/admin/data/dates", map[string]any{}},
		{"DELETE", "/v1/admin/data/dates", map[string]any{"dates": nil}},
		{"DELETE", "/v1/admin/holidays", map[string]any{}},
		{"DELETE", "/v1/admin/holidays", map[string]any{"dates": []string{"not a date"}}},
		{"POST", "/v1/admin/holidays", map[string]any{"holidays": []any{map[string]any{"date": "2025-13-45"}}}},
		{"POST", "/v1/admin/developers", map[string]any{"username": "bad name!"}},
		{"POST", "/v1/admin/db-scripts", map[string]any{"script": "no-such-script"}},
	} {
		r := s.Do(t, tt.method, tt.path, dev, tt.body)
		if r.Status != 403 {
			t.Errorf("%s %s %v with a developer token: %v, want 403", tt.method, tt.path, tt.body, r)
		}
	}
	// With the admin token the same bodies are the 400 naming the field.
	r := s.Do(t, "DELETE", "/v1/admin/data/dates", s.AdminToken(), map[string]any{})
	if r.Status != 400 || !hasFieldViolation(r.JSON, "dates") {
		t.Errorf("no dates, admin token: %v", r)
	}
}

// A request the body budget cannot serve in time is 503 with Retry-After,
// and the gateway's log line says why (not "unknown"). Since issue 31 a
// made-up token is refused before its body is read, so the budget is held
// by developers with valid tokens.
func TestBusyGatewayLogsWhy(t *testing.T) {
	metricsAddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	s := StartStackWith(t, StackOptions{GatewayEnv: []string{
		"MDC_MAX_BODY_BYTES_IN_FLIGHT=131072", "MDC_GATEWAY_METRICS_ADDR=" + metricsAddr}})
	addr := strings.TrimPrefix(s.BaseURL(), "http://")
	// Two developers send 64 KiB each and stall: the whole budget is held.
	var holders []net.Conn
	for range 2 {
		_, holder := s.NewDeveloper(t, "developer")
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		holders = append(holders, c)
		fmt.Fprintf(c, "POST /v1/developer/collector/quotes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n%s", holder, strings.Repeat(" ", 64<<10))
	}
	_, third := s.NewDeveloper(t, "developer")
	// The holders' bytes (their tokens passed the token check, so they may
	// use the whole budget) have all arrived once the budget is held: the
	// gateway's gauge says so.
	waitForGauge(t, metricsAddr, "mdc_gateway_body_bytes_held", 131072)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/developer/collector/quotes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 40000\r\n\r\n%s", third, strings.Repeat(" ", 40000))
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third stranger: %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	// The log line is written after the answer: stopped, the gateway has
	// written it. The stalled holders go first, or the stop waits for them.
	for _, c := range holders {
		c.Close()
	}
	s.StopBoth(t)
	found := false
	for _, line := range logLines(t, s.gateway.logPath) {
		if fmt.Sprint(line["status"]) == "503" && line["route"] == "/v1/developer/collector/quotes" {
			found = true
			if cause := fmt.Sprint(line["error"]); !strings.Contains(cause, "body budget full") {
				t.Errorf("503 logged with error %q", cause)
			}
		}
	}
	if !found {
		t.Error("no 503 of the quotes route in the gateway's log")
	}
}
