package gateway

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// assetRef matches the src and href attributes of the Swagger UI page.
var assetRef = regexp.MustCompile(`(?:src|href)="([^"]+)"`)

// inlineScript matches a script element without attributes: the page's own
// code, whose hash the policy must list.
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

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

// The Swagger UI page carries a policy that allows its own inline scripts
// by hash and nothing from elsewhere, and forbids framing. (web/e2e's
// docs.spec.ts renders it in Chromium under that policy.)
func TestDocsContentSecurityPolicy(t *testing.T) {
	_, base := startGateway(t)
	resp := do(t, "GET", base+"/docs", "", nil)
	csp := resp.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "'sha256-"} {
		if !strings.Contains(csp, want) {
			t.Errorf("policy %q lacks %s", csp, want)
		}
	}
	scripts := inlineScript.FindAllStringSubmatch(string(resp.body), -1)
	if len(scripts) == 0 || strings.Count(csp, "'sha256-") != len(scripts) {
		t.Errorf("%d inline scripts, policy %q", len(scripts), csp)
	}
	if strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
		t.Errorf("scripts allowed inline: %q", csp)
	}
	if got := resp.header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q", got)
	}
}
