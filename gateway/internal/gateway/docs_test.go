package gateway

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// assetRef matches the src and href attributes of the Swagger UI page.
var assetRef = regexp.MustCompile(`(?:src|href)="([^"]+)"`)

// TestDocsServesSwaggerUIOffline checks /docs is Swagger UI for
// /openapi.json and that everything the page loads comes from the gateway.
func TestDocsServesSwaggerUIOffline(t *testing.T) {
	_, base := startGateway(t)
	for _, path := range []string{"/docs", "/docs/"} {
		resp := do(t, "GET", base+path, "", nil)
		if resp.status != http.StatusOK {
			t.Fatalf("GET %s: status = %d", path, resp.status)
		}
		if ct := resp.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s: Content-Type = %q", path, ct)
		}
	}
	page := string(do(t, "GET", base+"/docs", "", nil).body)
	for _, want := range []string{"SwaggerUIBundle", `"/openapi.json"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	refs := assetRef.FindAllStringSubmatch(page, -1)
	if len(refs) < 3 {
		t.Fatalf("page loads %d assets, want the Swagger UI script, stylesheet and icons:\n%s", len(refs), page)
	}
	for _, ref := range refs {
		url := ref[1]
		if !strings.HasPrefix(url, "/docs/") {
			t.Errorf("page loads %s from outside the gateway", url)
			continue
		}
		resp := do(t, "GET", base+url, "", nil)
		if resp.status != http.StatusOK || len(resp.body) == 0 {
			t.Errorf("GET %s: status %d, %d bytes", url, resp.status, len(resp.body))
		}
	}
	if resp := do(t, "GET", base+"/docs/swagger-ui-bundle.js", "", nil); resp.status != http.StatusOK || len(resp.body) < 100_000 {
		t.Errorf("GET /docs/swagger-ui-bundle.js: status %d, %d bytes", resp.status, len(resp.body))
	}
}
