package static

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"mdc/gateway/internal/codec"
)

// gzipped is body gzip-compressed, as web/build.sh writes the .gz copies.
func gzipped(t *testing.T, body string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const testIndex = `<!doctype html><title>mdc</title><script type="module" src="/assets/index-abc123.js"></script>`

// dashboardServer serves files as the dashboard in front of a stand-in for
// the API that answers 299 to everything, so a test sees which side answered.
func dashboardServer(t *testing.T, files fstest.MapFS) string {
	t.Helper()
	ui, err := NewDashboard(files)
	if err != nil {
		t.Fatal(err)
	}
	api := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(299) })
	srv := httptest.NewServer(WithDashboard(ui, codec.NewMarshaler(), api))
	t.Cleanup(srv.Close)
	return srv.URL
}

func builtDashboard(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		".gitkeep":                  {Data: nil},
		"index.html":                {Data: []byte(testIndex)},
		"favicon.svg":               {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
		"assets/index-abc123.js":    {Data: []byte(`console.log("mdc")`)},
		"assets/index-abc123.js.gz": {Data: gzipped(t, `console.log("mdc")`)},
		"assets/index-abc123.css":   {Data: []byte(`body{margin:0}`)},
	}
}

func TestDashboardPaths(t *testing.T) {
	base := dashboardServer(t, builtDashboard(t))
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantType           string // prefix of Content-Type; "" for the API side
		wantBody           string // substring
		wantCache          string
	}{
		{"root is index.html", "GET", "/", 200, "text/html", "<title>mdc</title>", "no-cache"},
		{"a page is index.html", "GET", "/runs/12", 200, "text/html", "<title>mdc</title>", "no-cache"},
		{"a page with a query", "GET", "/chart?symbol=TCS&date=2025-01-02", 200, "text/html", "<title>mdc</title>", "no-cache"},
		{"index.html by name", "GET", "/index.html", 200, "text/html", "<title>mdc</title>", "no-cache"},
		{"HEAD of a page", "HEAD", "/admin/developers", 200, "text/html", "", "no-cache"},
		{"hashed script", "GET", "/assets/index-abc123.js", 200, "text/javascript", `console.log("mdc")`, immutableCache},
		{"hashed stylesheet", "GET", "/assets/index-abc123.css", 200, "text/css", "margin:0", immutableCache},
		{"unhashed file", "GET", "/favicon.svg", 200, "image/svg+xml", "<svg", "no-cache"},
		{"missing asset is 404, not index.html", "GET", "/assets/gone-123.js", 404, "application/json", `"code":5`, ""},
		{"missing file at the root", "GET", "/robots.txt", 404, "application/json", "no route for GET /robots.txt", ""},
		{"dot files are not served", "GET", "/.gitkeep", 404, "application/json", `"code":5`, ""},
		{"dot folders are not served", "GET", "/.vite/manifest.json", 404, "application/json", `"code":5`, ""},
		{"path traversal stays inside", "GET", "/assets/../index.html", 200, "text/html", "<title>mdc</title>", "no-cache"},
		// The API's namespaces never reach the dashboard.
		{"API route", "GET", "/v1/dashboard/runs", 299, "", "", ""},
		{"unknown API version", "GET", "/v2/nothing", 299, "", "", ""},
		{"bare version", "GET", "/v1", 299, "", "", ""},
		{"health", "GET", "/health", 299, "", "", ""},
		{"openapi", "GET", "/openapi.json", 299, "", "", ""},
		{"swagger ui", "GET", "/docs/index.css", 299, "", "", ""},
		{"metrics", "GET", "/metrics", 299, "", "", ""},
		{"other methods", "POST", "/runs", 299, "", "", ""},
		{"DELETE of a page path", "DELETE", "/", 299, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, base+tc.path, nil)
			req.Header.Set("Accept-Encoding", "identity")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, tc.wantStatus, body)
			}
			if tc.wantType != "" && !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.wantType) {
				t.Errorf("Content-Type = %q, want %s...", resp.Header.Get("Content-Type"), tc.wantType)
			}
			if !strings.Contains(string(body), tc.wantBody) {
				t.Errorf("body %q lacks %q", body, tc.wantBody)
			}
			if got := resp.Header.Get("Cache-Control"); tc.wantCache != "" && got != tc.wantCache {
				t.Errorf("Cache-Control = %q, want %q", got, tc.wantCache)
			}
			if tc.wantStatus == 200 {
				csp := resp.Header.Get("Content-Security-Policy")
				if !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "http") {
					t.Errorf("Content-Security-Policy = %q, want same-origin only", csp)
				}
				if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("X-Content-Type-Options = %q", resp.Header.Get("X-Content-Type-Options"))
				}
			}
		})
	}
}

// TestDashboardGzip checks the build's .gz copy is sent to clients that
// accept gzip, and the plain file to the others, with distinct ETags.
func TestDashboardGzip(t *testing.T) {
	base := dashboardServer(t, builtDashboard(t))
	get := func(acceptEncoding string) *http.Response {
		req, _ := http.NewRequest("GET", base+"/assets/index-abc123.js", nil)
		req.Header.Set("Accept-Encoding", acceptEncoding) // set by hand: the transport does not decode it
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	zipped := get("gzip, deflate, br")
	if zipped.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(zipped.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("gzip: Content-Encoding %q, Vary %q", zipped.Header.Get("Content-Encoding"), zipped.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := io.ReadAll(zr); string(text) != `console.log("mdc")` {
		t.Errorf("gzip body decodes to %q", text)
	}
	for _, ae := range []string{"identity", "gzip;q=0", "br", "compress"} {
		plain := get(ae)
		body, _ := io.ReadAll(plain.Body)
		if plain.Header.Get("Content-Encoding") != "" || string(body) != `console.log("mdc")` {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, body %q", ae, plain.Header.Get("Content-Encoding"), body)
		}
		if plain.Header.Get("ETag") == zipped.Header.Get("ETag") {
			t.Errorf("Accept-Encoding %q: the plain and gzip answers share ETag %s", ae, plain.Header.Get("ETag"))
		}
	}
}

// TestDashboardRevalidates checks index.html answers 304 to its own ETag.
func TestDashboardRevalidates(t *testing.T) {
	base := dashboardServer(t, builtDashboard(t))
	first, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	first.Body.Close()
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag on index.html")
	}
	req, _ := http.NewRequest("GET", base+"/runs", nil)
	req.Header.Set("If-None-Match", etag)
	again, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	again.Body.Close()
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: status %d, want 304", etag, again.StatusCode)
	}
}

// TestDashboardNotBuilt checks a gateway built without the dashboard (a
// fresh clone's dist/ holds only .gitkeep) says so in the API's 404.
func TestDashboardNotBuilt(t *testing.T) {
	base := dashboardServer(t, fstest.MapFS{".gitkeep": {Data: nil}})
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 404 || st.Code != 5 || !strings.Contains(st.Message, "dashboard is not part of this build") {
		t.Errorf("status %d, body %+v", resp.StatusCode, st)
	}
}

func TestAcceptsGzip(t *testing.T) {
	tests := []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"deflate, GZIP;q=0.5"}, true},
		{[]string{"br", "gzip"}, true},
		{[]string{"*"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"identity, br;q=1"}, false},
		{[]string{"x-gzip"}, false},
	}
	for _, tc := range tests {
		if got := acceptsGzip(tc.values); got != tc.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tc.values, got, tc.want)
		}
	}
}
