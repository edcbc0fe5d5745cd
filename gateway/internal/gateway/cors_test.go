package gateway

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"mdc/gateway/internal/transport"
)

const allowedOrigin = "https://dashboard.example.com"

// startCORSGateway runs the gateway with origins as MDC_CORS_ORIGINS.
func startCORSGateway(t *testing.T, origins []string) string {
	t.Helper()
	_, addr := startFakeServer(t)
	o := testOptions()
	o.CORSOrigins = origins
	srv := httptest.NewServer(newTestHandlerWith(t, addr, o))
	t.Cleanup(srv.Close)
	return srv.URL
}

func preflight(origin string) map[string]string {
	return map[string]string{
		"Origin":                         origin,
		"Access-Control-Request-Method":  "POST",
		"Access-Control-Request-Headers": "authorization, content-type, x-current-timestamp",
	}
}

func TestCORS(t *testing.T) {
	base := startCORSGateway(t, []string{allowedOrigin, "http://localhost:5173"})
	tests := []struct {
		name, method, path string
		header             map[string]string
		wantStatus         int
		wantAllowOrigin    string
		wantPreflight      bool
	}{
		{"allowed origin", "GET", "/v1/health", map[string]string{"Origin": allowedOrigin}, 200, allowedOrigin, false},
		{"second allowed origin", "GET", "/v1/health", map[string]string{"Origin": "http://localhost:5173"}, 200, "http://localhost:5173", false},
		{"allowed origin, error answer", "GET", "/v9/nothing", map[string]string{"Origin": allowedOrigin}, 404, allowedOrigin, false},
		{"other origin is served without CORS headers", "GET", "/v1/health", map[string]string{"Origin": "https://evil.example.com"}, 200, "", false},
		{"origin differing in port", "GET", "/v1/health", map[string]string{"Origin": "https://dashboard.example.com:8443"}, 200, "", false},
		{"no origin", "GET", "/v1/health", nil, 200, "", false},
		{"preflight from an allowed origin", "OPTIONS", "/v1/developer/collector/shortlists", preflight(allowedOrigin), 204, allowedOrigin, true},
		{"preflight of a route with a path parameter", "OPTIONS", "/v1/dashboard/runs/7", preflight(allowedOrigin), 204, allowedOrigin, true},
		{"preflight from another origin", "OPTIONS", "/v1/developer/collector/shortlists", preflight("https://evil.example.com"), 403, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, tt.method, base+tt.path, "", tt.header)
			if resp.status != tt.wantStatus {
				t.Errorf("status = %d, want %d (%s)", resp.status, tt.wantStatus, resp.body)
			}
			if got := resp.header.Get("Access-Control-Allow-Origin"); got != tt.wantAllowOrigin {
				t.Errorf("Access-Control-Allow-Origin = %q, want %q", got, tt.wantAllowOrigin)
			}
			if tt.header["Origin"] != "" && !hasValue(resp.header, "Vary", "Origin") {
				t.Errorf("Vary = %q, want Origin among them", resp.header.Values("Vary"))
			}
			methods, headers := resp.header.Get("Access-Control-Allow-Methods"), resp.header.Get("Access-Control-Allow-Headers")
			if !tt.wantPreflight {
				if methods != "" || headers != "" {
					t.Errorf("preflight headers on a non-preflight answer: %q, %q", methods, headers)
				}
				return
			}
			if methods != transport.CORSAllowMethods {
				t.Errorf("Access-Control-Allow-Methods = %q", methods)
			}
			if headers != transport.CORSAllowHeaders {
				t.Errorf("Access-Control-Allow-Headers = %q", headers)
			}
			if resp.header.Get("Access-Control-Max-Age") == "" {
				t.Error("no Access-Control-Max-Age")
			}
		})
	}
}

// TestCORSOffByDefault: without MDC_CORS_ORIGINS no answer carries CORS
// headers and OPTIONS is not answered as a preflight.
func TestCORSOffByDefault(t *testing.T) {
	base := startCORSGateway(t, nil)
	get := do(t, "GET", base+"/v1/health", "", map[string]string{"Origin": allowedOrigin})
	opts := do(t, "OPTIONS", base+"/v1/developer/collector/shortlists", "", preflight(allowedOrigin))
	for _, resp := range []response{get, opts} {
		for _, h := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"} {
			if v := resp.header.Get(h); v != "" {
				t.Errorf("%s = %q with CORS off", h, v)
			}
		}
	}
	if opts.status == http.StatusNoContent {
		t.Errorf("OPTIONS answered as a preflight with CORS off")
	}
}

func hasValue(h http.Header, key, want string) bool {
	for _, v := range h.Values(key) {
		if v == want {
			return true
		}
	}
	return false
}
