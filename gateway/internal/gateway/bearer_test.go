package gateway

import (
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"mdc/gateway/internal/transport"
)

// TestBearerBeforeBody: a protected route without a well-formed bearer header
// is 401 before a byte of the body is read; public routes and unknown paths
// are not checked.
func TestBearerBeforeBody(t *testing.T) {
	rec, addr := startFakeServer(t)
	h := newTestHandler(t, addr)
	tests := []struct {
		name, method, path, auth string
		wantStatus               int
		wantMessage              string
	}{
		{"missing", "POST", "/v1/developer/collector/shortlists", "", 401, transport.MissingAuthMessage},
		{"no scheme", "POST", "/v1/developer/collector/quotes", "abc", 401, transport.MalformedAuthMessage},
		{"basic", "PATCH", "/v1/dashboard/runs/r1", "Basic abc", 401, transport.MalformedAuthMessage},
		{"bearer only", "GET", "/v1/dashboard/runs", "Bearer", 401, transport.MalformedAuthMessage},
		{"token too long", "POST", "/v1/dashboard/runs", "Bearer " + strings.Repeat("x", 513), 401, transport.BadTokenMessage},
		{"admin route", "GET", "/v1/admin/broker", "", 401, transport.MissingAuthMessage},
		{"well-formed", "GET", "/v1/developer/collector/check-holiday", "bearer abc", 200, ""},
		{"health", "GET", "/health", "", 200, ""},
		{"v1 health", "GET", "/v1/health", "", 200, ""},
		{"openapi", "GET", "/openapi.json", "", 200, ""},
		{"docs", "GET", "/docs", "", 200, ""},
		{"unknown path", "POST", "/v2/nothing", "", 404, ""},
		{"other method", "PUT", "/v1/developer/collector/shortlists", "", 405, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.setError(nil)
			body := &countingReader{r: strings.NewReader(`{"data":{}}`)}
			req := httptest.NewRequest(tt.method, tt.path, body)
			req.ContentLength = -1
			if tt.method == "GET" {
				req = httptest.NewRequest(tt.method, tt.path, nil)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %.300s", w.Code, tt.wantStatus, w.Body.String())
			}
			if tt.wantStatus != 401 {
				return
			}
			if body.n != 0 {
				t.Errorf("read %d body bytes before the 401", body.n)
			}
			if got := w.Header().Get("WWW-Authenticate"); got != "Bearer" {
				t.Errorf("WWW-Authenticate = %q", got)
			}
			st := errorBody(t, w.Body.Bytes())
			if codes.Code(st.GetCode()) != codes.Unauthenticated || st.GetMessage() != tt.wantMessage {
				t.Errorf("body = %s, want message %q", w.Body.Bytes(), tt.wantMessage)
			}
		})
	}
}

// TestUnknownTokenRefusedBeforeBody: a request with a body whose token the
// gateway has not seen accepted is checked with the server first; an unknown
// token is 401 and a throttled address 429 (with the server's Retry-After)
// before one byte of the body is read, and the call never reaches its RPC.
func TestUnknownTokenRefusedBeforeBody(t *testing.T) {
	rec, addr := startFakeServer(t)
	h := newTestHandler(t, addr)
	for _, tt := range []struct {
		auth       string
		wantStatus int
		retryAfter string
	}{
		{"Bearer refused-token", 401, ""},
		{"Bearer throttled-token", 429, "7"},
	} {
		rec.reset()
		body := &countingReader{r: strings.NewReader(strings.Repeat(" ", 1<<20) + `{"data":{}}`)}
		req := httptest.NewRequest("POST", "/v1/developer/collector/quotes", body)
		req.Header.Set("Authorization", tt.auth)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != tt.wantStatus {
			t.Fatalf("%s: status %d, want %d; body %.300s", tt.auth, w.Code, tt.wantStatus, w.Body.String())
		}
		if body.n != 0 {
			t.Errorf("%s: read %d body bytes before answering", tt.auth, body.n)
		}
		if got := w.Header().Get("Retry-After"); got != tt.retryAfter {
			t.Errorf("%s: Retry-After %q, want %q", tt.auth, got, tt.retryAfter)
		}
		if got := w.Header().Get("Connection"); got != "close" {
			t.Errorf("%s: Connection %q: the unread body would stay on a reused connection", tt.auth, got)
		}
		if method, _, _ := rec.last(); method != "" {
			t.Errorf("%s: the write reached the server", tt.auth)
		}
	}
	// A request without a body (a read) is not checked: its cost is fixed.
	req := httptest.NewRequest("GET", "/v1/developer/collector/check-holiday", nil)
	req.Header.Set("Authorization", "Bearer refused-read")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 200 {
		t.Errorf("read with an unchecked token: %d", w.Code)
	}
}
