package gateway

import (
	"net/http"
	"strings"
	"testing"
)

// TestInvalidUTF8Is400 covers bytes that are not UTF-8 in a body, a query
// parameter and a path parameter: each is the caller's mistake (400 naming
// it), never a 500.
func TestInvalidUTF8Is400(t *testing.T) {
	_, base := startGateway(t)
	tests := []struct {
		name, method, path, body, wantField string
	}{
		{"body that is not JSON", "POST", "/v1/dashboard/runs", "\xefE\xc3-", ""},
		{"body string", "PATCH", "/v1/dashboard/runs/1", `{"name":"` + "\xff" + `"}`, "name"},
		{"body key", "POST", "/v1/developer/collector/shortlists", `{"data":{"` + "\xff" + `":1x}}`, ""},
		{"query parameter", "GET", "/v1/developer/quote?symbol=%FF", "", "symbol"},
		{"query parameter name", "GET", "/v1/developer/quote?%FF=1", "", "\uFFFD"},
		{"path parameter", "DELETE", "/v1/admin/holidays/%FF", "", "date"},
		{"path parameter in the middle", "GET", "/v1/dashboard/runs/%FF/orders", "", "runId"},
		{"path without a route", "GET", "/v1/nowhere/%FF", "", "path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, tt.method, base+tt.path, tt.body, nil)
			if resp.status != http.StatusBadRequest {
				t.Fatalf("status = %d (%s), want 400", resp.status, resp.body)
			}
			st := errorBody(t, resp.body)
			if strings.Contains(st.GetMessage(), "marshal") {
				t.Errorf("message %q", st.GetMessage())
			}
			if tt.wantField != "" {
				if _, ok := fieldViolations(t, st)[tt.wantField]; !ok {
					t.Errorf("no violation for %q: %s", tt.wantField, resp.body)
				}
			}
		})
	}
}

// TestUnprintableHeaderIs400: an mdc header gRPC metadata cannot carry is
// refused by name, not dropped (which would answer as if it were absent,
// or log a run id other than the one sent).
func TestUnprintableHeaderIs400(t *testing.T) {
	_, base := startGateway(t)
	for _, name := range []string{"X-Current-Timestamp", "X-Current-Timezone", "X-Run-Id"} {
		for _, value := range []string{"Asia/Kolkata\u0084", "run\xff", "tab\there"} {
			t.Run(name+" "+value, func(t *testing.T) {
				resp := do(t, "GET", base+"/v1/developer/nifty", "", map[string]string{name: value})
				if resp.status != http.StatusBadRequest {
					t.Fatalf("status = %d (%s), want 400", resp.status, resp.body)
				}
				if _, ok := fieldViolations(t, errorBody(t, resp.body))[name]; !ok {
					t.Errorf("no violation for %q: %s", name, resp.body)
				}
			})
		}
	}
	// Printable ASCII, blanks included, passes.
	if resp := do(t, "GET", base+"/v1/developer/nifty", "", map[string]string{"X-Run-Id": "run 42 ~!"}); resp.status == http.StatusBadRequest {
		t.Errorf("X-Run-Id: status 400 (%s)", resp.body)
	}
}
