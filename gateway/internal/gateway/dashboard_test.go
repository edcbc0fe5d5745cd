package gateway

import (
	"net/http"
	"strings"
	"testing"
)

// TestDashboardKeepsAPIErrors checks, through the whole handler, that paths
// of the API still get the API's answers with the dashboard in front.
func TestDashboardKeepsAPIErrors(t *testing.T) {
	_, base := startGateway(t)
	for _, path := range []string{"/v1/no-such-thing", "/v2/developer/lists", "/v1", "/health/x"} {
		resp := do(t, "GET", base+path, "", nil)
		if resp.status != http.StatusNotFound || !strings.Contains(string(resp.body), `"code":5`) ||
			resp.header.Get("Content-Security-Policy") != "" {
			t.Errorf("GET %s: status %d, CSP %q, body %s", path, resp.status, resp.header.Get("Content-Security-Policy"), resp.body)
		}
	}
	if resp := do(t, "GET", base+"/openapi.json", "", nil); resp.status != http.StatusOK ||
		!strings.HasPrefix(resp.header.Get("Content-Type"), "application/json") {
		t.Errorf("GET /openapi.json: status %d, Content-Type %q", resp.status, resp.header.Get("Content-Type"))
	}
}
