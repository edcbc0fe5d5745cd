package gateway

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/observe"
	"mdc/gateway/internal/routes"
)

// logBuffer collects log lines; safe for the server goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the JSON lines written so far and forgets them.
func (b *logBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	b.buf.Reset()
	return out
}

// startLoggedGateway runs the gateway with its log in a buffer.
func startLoggedGateway(t *testing.T, level slog.Level, noAccessLog bool) (*recorder, string, *logBuffer) {
	t.Helper()
	rec, addr := startFakeServer(t)
	logs := &logBuffer{}
	o := testOptions()
	o.Logger = observe.NewLogger(logs, level)
	o.NoAccessLog = noAccessLog
	ts := httptest.NewServer(newTestHandlerWith(t, addr, o))
	t.Cleanup(ts.Close)
	return rec, ts.URL, logs
}

var generatedID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestRequestID(t *testing.T) {
	rec, base, logs := startLoggedGateway(t, slog.LevelInfo, false)
	tests := []struct {
		name string
		sent string // "" sends no header
		keep bool
	}{
		{"none", "", false},
		{"valid", "req-42_abc.DEF:1/2", true},
		{"one character", "x", true},
		{"128 characters", strings.Repeat("a", 128), true},
		{"129 characters", strings.Repeat("a", 129), false},
		{"space inside", "req 42", false},
		{"tab inside", "req\t42", false},
		{"non-ASCII", "réq", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.reset()
			logs.lines(t)
			h := map[string]string{}
			if tt.sent != "" {
				h["X-Request-Id"] = tt.sent
			}
			resp := do(t, "GET", base+"/v1/developer/nifty", "", h)
			if resp.status != http.StatusOK {
				t.Fatalf("status = %d, body %s", resp.status, resp.body)
			}
			got := resp.header.Get("X-Request-Id")
			if tt.keep && got != tt.sent {
				t.Errorf("X-Request-Id = %q, want the client's %q", got, tt.sent)
			}
			if !tt.keep && !generatedID.MatchString(got) {
				t.Errorf("X-Request-Id = %q, want a new 32-hex-digit id", got)
			}
			_, _, md := rec.last()
			if ids := md.Get("x-request-id"); len(ids) != 1 || ids[0] != got {
				t.Errorf("metadata x-request-id = %q, want [%q]", ids, got)
			}
			lines := logs.lines(t)
			if len(lines) != 1 || lines[0]["request_id"] != got {
				t.Errorf("log = %v, want one line with request_id %q", lines, got)
			}
		})
	}
}

func TestRequestIDOnEveryAnswer(t *testing.T) {
	rec, base, _ := startLoggedGateway(t, slog.LevelInfo, false)
	rec.setError(nil)
	tests := []struct {
		name, method, path, body string
		header                   map[string]string
		wantStatus               int
	}{
		{"ok", "GET", "/v1/developer/nifty", "", nil, 200},
		{"unknown path", "GET", "/v1/nope", "", nil, 404},
		{"wrong method", "DELETE", "/v1/developer/nifty", "", nil, 405},
		{"bad body", "POST", "/v1/developer/collector/quotes", "{", nil, 400},
		{"headers too large", "GET", "/v1/developer/nifty", "", map[string]string{"X-Big": strings.Repeat("b", 9000)}, 431},
		{"openapi", "GET", "/openapi.json", "", nil, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"X-Request-Id": "fixed-id"}
			for k, v := range tt.header {
				h[k] = v
			}
			resp := do(t, tt.method, base+tt.path, tt.body, h)
			if resp.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", resp.status, tt.wantStatus, resp.body)
			}
			if got := resp.header.Get("X-Request-Id"); got != "fixed-id" {
				t.Errorf("X-Request-Id = %q", got)
			}
		})
	}
	t.Run("server error", func(t *testing.T) {
		rec.setError(status.Error(codes.Internal, "disk on fire"))
		defer rec.setError(nil)
		resp := do(t, "GET", base+"/v1/developer/nifty", "", nil)
		if resp.status != 500 || !generatedID.MatchString(resp.header.Get("X-Request-Id")) {
			t.Errorf("status %d, X-Request-Id %q", resp.status, resp.header.Get("X-Request-Id"))
		}
	})
}

func TestLogLine(t *testing.T) {
	tests := []struct {
		name        string
		level       slog.Level
		noAccessLog bool
		method      string
		path, body  string
		serverErr   error
		wantLine    bool
		wantLevel   string
		wantRoute   string
		wantStatus  float64
		wantCause   string // substring of "error"; "" means no error key
	}{
		{"success", slog.LevelInfo, false, "GET", "/v1/developer/nifty", "", nil, true, "info", "/v1/developer/nifty", 200, ""},
		{"route template with JSON names", slog.LevelInfo, false, "PATCH", "/v1/dashboard/runs/run-7", `{"name":"x"}`, nil, true, "info", "/v1/dashboard/runs/{runId}", 200, ""},
		{"additional binding", slog.LevelInfo, false, "GET", "/health", "", nil, true, "info", "/health", 200, ""},
		{"no route", slog.LevelInfo, false, "GET", "/v1/nope", "", nil, true, "info", "", 404, ""},
		{"client error", slog.LevelInfo, false, "GET", "/v1/developer/nifty", "", status.Error(codes.NotFound, "no such day"), true, "info", "/v1/developer/nifty", 404, ""},
		{"server error", slog.LevelInfo, false, "GET", "/v1/developer/nifty", "", status.Error(codes.Internal, "disk on fire"), true, "error", "/v1/developer/nifty", 500, "disk on fire"},
		{"unavailable", slog.LevelInfo, false, "GET", "/v1/developer/nifty", "", status.Error(codes.Unavailable, "draining"), true, "error", "/v1/developer/nifty", 503, "draining"},
		{"not serving", slog.LevelInfo, false, "GET", "/v1/health", "", nil, true, "error", "/v1/health", 503, "NOT_SERVING"},
		{"access log off", slog.LevelInfo, true, "GET", "/v1/developer/nifty", "", nil, false, "", "", 0, ""},
		{"access log off, 5xx still logged", slog.LevelInfo, true, "GET", "/v1/developer/nifty", "", status.Error(codes.Internal, "disk on fire"), true, "error", "/v1/developer/nifty", 500, "disk on fire"},
		{"level warn hides requests", slog.LevelWarn, false, "GET", "/v1/developer/nifty", "", nil, false, "", "", 0, ""},
		{"level error keeps 5xx", slog.LevelError, false, "GET", "/v1/developer/nifty", "", status.Error(codes.Internal, "disk on fire"), true, "error", "/v1/developer/nifty", 500, "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, base, logs := startLoggedGateway(t, tt.level, tt.noAccessLog)
			rec.setError(tt.serverErr)
			if tt.wantStatus == 503 && tt.serverErr == nil {
				rec.mu.Lock()
				rec.health = mdcv1.HealthCheckResponse_NOT_SERVING
				rec.mu.Unlock()
			}
			resp := do(t, tt.method, base+tt.path, tt.body, nil)
			lines := logs.lines(t)
			if !tt.wantLine {
				if len(lines) != 0 {
					t.Errorf("log = %v, want nothing", lines)
				}
				return
			}
			if len(lines) != 1 {
				t.Fatalf("log = %v, want one line", lines)
			}
			l := lines[0]
			for _, key := range []string{"time", "level", "msg", "request_id", "method", "route", "status", "latency_ms"} {
				if _, ok := l[key]; !ok {
					t.Errorf("no %s in %v", key, l)
				}
			}
			if _, ok := l["latency_ms"].(float64); !ok {
				t.Errorf("latency_ms is not a number in %v", l)
			}
			if l["level"] != tt.wantLevel || l["method"] != tt.method || l["route"] != tt.wantRoute ||
				l["status"] != tt.wantStatus || l["request_id"] != resp.header.Get("X-Request-Id") {
				t.Errorf("log line = %v", l)
			}
			cause, hasCause := l["error"].(string)
			if tt.wantCause == "" && hasCause {
				t.Errorf("error = %q in a non-5xx line", cause)
			}
			if tt.wantCause != "" && !strings.Contains(cause, tt.wantCause) {
				t.Errorf("error = %q, want it to contain %q", cause, tt.wantCause)
			}
		})
	}
}

// TestLogRouteOfEveryRoute sends a request to every route of the
// descriptors and checks its log line names the route's template.
func TestLogRouteOfEveryRoute(t *testing.T) {
	_, base, logs := startLoggedGateway(t, slog.LevelInfo, false)
	routes := routes.Descriptors()
	if len(routes) < 40 {
		t.Fatalf("only %d routes in the descriptors", len(routes))
	}
	for _, r := range routes {
		t.Run(r.Method+" "+r.Template, func(t *testing.T) {
			logs.lines(t)
			do(t, r.Method, base+concretePath(r.Template), "", nil)
			lines := logs.lines(t)
			if len(lines) != 1 || lines[0]["route"] != r.Display {
				t.Errorf("log = %v, want route %q", lines, r.Display)
			}
		})
	}
}

var templateVar = regexp.MustCompile(`\{[^}]*\}`)

// concretePath fills every variable of a template with "x1".
func concretePath(tmpl string) string { return templateVar.ReplaceAllString(tmpl, "x1") }
