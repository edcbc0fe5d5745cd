package observe

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mdc/gateway/internal/reqinfo"
)

// The access line encoder writes exactly the bytes slog's JSON handler of
// NewLogger writes for the same record.
func TestAccessLineMatchesSlog(t *testing.T) {
	at := time.Date(2026, 11, 27, 9, 15, 0, 123456789, time.FixedZone("IST", 19800))
	tricky := "a\"b\\c\nd\re\tf\x00g\x1fh<i>&j\u2028k\u2029l\xffm\u00e9n\U0001F600o"
	lines := []accessLine{
		{level: slog.LevelInfo, requestID: "0123456789abcdef0123456789abcdef", method: "POST",
			route: "/v1/developer/collector/shortlists", status: 200, latencyMS: 0.123},
		{level: slog.LevelInfo, requestID: "id", method: "GET", route: "", status: 404, latencyMS: 0},
		{level: slog.LevelInfo, requestID: tricky, method: tricky, route: tricky, status: 400, latencyMS: 12.345, runID: tricky},
		{level: slog.LevelError, requestID: "x", method: "POST", route: "/r", status: 503, latencyMS: 30000.001,
			err: tricky, retries: 2, retried: "unavailable: " + tricky},
		{level: slog.LevelError, requestID: "x", method: "POST", route: "/r", status: 500, latencyMS: 1e-7, err: "unknown"},
		{level: slog.LevelInfo, requestID: "x", method: "POST", route: "/r", status: 200, latencyMS: 1e22, runID: "run-1"},
		{level: slog.LevelInfo, requestID: "x", method: "POST", route: "/r", status: 200, latencyMS: 1.5e-9},
	}
	for i, l := range lines {
		var want bytes.Buffer
		h := NewLogger(&want, slog.LevelInfo).Handler().(*jsonHandler)
		r := slog.NewRecord(at, l.level, "request", 0)
		r.AddAttrs(l.attrs()...)
		if err := h.Handler.Handle(t.Context(), r); err != nil {
			t.Fatal(err)
		}
		if got := appendAccessLine(nil, at, &l); string(got) != want.String() {
			t.Errorf("line %d:\n got %s\nwant %s", i, got, want.String())
		}
	}
}

// Requests writes its line through NewLogger's writer, one whole line per
// request however many run at once, and through any other logger as
// attributes.
func TestRequestsLines(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqinfo.From(r.Context()).Route = "/v1/x"
		if r.Header.Get("X-Fail") != "" {
			reqinfo.From(r.Context()).Cause = errors.New("boom")
			w.WriteHeader(http.StatusBadGateway)
		}
	})
	var buf bytes.Buffer
	h := Requests(NewLogger(&buf, slog.LevelInfo), true, ok)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := httptest.NewRequest(http.MethodPost, "/v1/x", nil)
			r.Header.Set("X-Run-Id", "run-7")
			if i%2 == 1 {
				r.Header.Set("X-Fail", "1")
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 50 {
		t.Fatalf("%d lines, want 50:\n%s", len(lines), buf.String())
	}
	errorsSeen := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, `{"time":"`) || !strings.Contains(l, `"route":"/v1/x","status":`) ||
			!strings.HasSuffix(l, `,"run_id":"run-7"}`) {
			t.Errorf("line %s", l)
		}
		if strings.Contains(l, `"level":"error"`) {
			errorsSeen++
			if !strings.Contains(l, `"status":502,`) || !strings.Contains(l, `"error":"boom"`) {
				t.Errorf("error line %s", l)
			}
		}
	}
	if errorsSeen != 25 {
		t.Errorf("%d error lines, want 25", errorsSeen)
	}

	var text bytes.Buffer
	r := httptest.NewRequest(http.MethodGet, "/v1/x", nil)
	Requests(slog.New(slog.NewTextHandler(&text, nil)), true, ok).ServeHTTP(httptest.NewRecorder(), r)
	if l := text.String(); !strings.Contains(l, "msg=request") || !strings.Contains(l, "route=/v1/x status=200") {
		t.Errorf("text line %q", l)
	}
}
