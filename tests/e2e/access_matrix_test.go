package e2e

// The access rules of API.md section 1, checked on every route of the API.
// The routes come from the OpenAPI document the gateway serves (generated
// from the google.api.http options of proto/mdc/v1), cross-checked against
// the proto files themselves, so a new route cannot be left out.

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

type route struct {
	method, path string // path with {params} filled in
	template     string
	admin        bool // AdminService
	public       bool // security: [] in the document
	hasBody      bool
}

func (r route) String() string { return r.method + " " + r.template }

// samplePathValues fill path parameters with values that name nothing, so
// calls that pass the access check change nothing.
var samplePathValues = map[string]string{"id": "999999", "runId": "999999", "date": "2031-01-01"}

func routesFromOpenAPI(t *testing.T, s *adminStack) []route {
	t.Helper()
	resp, err := http.Get(s.base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Paths map[string]map[string]struct {
			Tags       []string          `json:"tags"`
			Security   *[]map[string]any `json:"security"`
			Parameters []struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatalf("/openapi.json: %v", err)
	}
	var routes []route
	param := regexp.MustCompile(`\{([^}]+)\}`)
	for template, methods := range doc.Paths {
		for method, op := range methods {
			r := route{method: strings.ToUpper(method), template: template}
			r.path = param.ReplaceAllStringFunc(template, func(m string) string {
				v, ok := samplePathValues[strings.Trim(m, "{}")]
				if !ok {
					t.Fatalf("%s: no sample value for path parameter %s; add one", template, m)
				}
				return v
			})
			for _, tag := range op.Tags {
				r.admin = r.admin || tag == "AdminService"
			}
			// "security: []" (or only empty requirements) marks a route that
			// needs no token; absent, the document's Bearer requirement holds.
			if op.Security != nil {
				r.public = true
				for _, requirement := range *op.Security {
					r.public = r.public && len(requirement) == 0
				}
			}
			for _, p := range op.Parameters {
				r.hasBody = r.hasBody || p.In == "body"
			}
			routes = append(routes, r)
		}
	}
	sort.Slice(routes, func(i, j int) bool { return routes[i].String() < routes[j].String() })
	return routes
}

// protoBindings counts the HTTP bindings written in proto/mdc/v1/*.proto.
func protoBindings(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "proto", "mdc", "v1", "*.proto"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no proto files: %v", err)
	}
	binding := regexp.MustCompile(`\b(get|post|put|patch|delete)\s*:\s*"([^"]+)"`)
	pathParam := regexp.MustCompile(`\{[^}]+\}`)
	snakeLetter := regexp.MustCompile(`_[a-z]`)
	found := map[string]bool{}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range binding.FindAllStringSubmatch(string(text), -1) {
			// OpenAPI names path parameters by their JSON names: run_id → runId.
			path := pathParam.ReplaceAllStringFunc(m[2], func(p string) string {
				return snakeLetter.ReplaceAllStringFunc(p, func(l string) string {
					return strings.ToUpper(l[1:])
				})
			})
			found[strings.ToUpper(m[1])+" "+path] = true
		}
	}
	return found
}

func TestAccessMatrixCoversEveryRoute(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	routes := routesFromOpenAPI(t, s)
	want := protoBindings(t)
	got := map[string]bool{}
	for _, r := range routes {
		got[r.String()] = true
	}
	for b := range want {
		if !got[b] {
			t.Errorf("proto binding %s missing from /openapi.json", b)
		}
	}
	for b := range got {
		if !want[b] {
			t.Errorf("/openapi.json route %s has no proto binding", b)
		}
	}
	if len(routes) < 30 {
		t.Fatalf("only %d routes found", len(routes))
	}

	_, devToken := s.newDeveloper("matrix-dev", "developer")
	refreshedID, refreshedAway := s.newDeveloper("matrix-refreshed", "developer")
	adminExpectStatus(t, "refresh", s.admin("PATCH", "/v1/admin/developers/"+refreshedID+"/refresh-key", nil), 200)
	deletedID, deletedToken := s.newDeveloper("matrix-deleted", "admin")
	adminExpectStatus(t, "delete", s.admin("DELETE", "/v1/admin/developers/"+deletedID, nil), 200)

	call := func(r route, authorization string) reply {
		var body any
		if r.hasBody {
			body = "{}"
		}
		return s.call(r.method, r.path, authorization, body)
	}
	refused := []struct {
		name, header string
	}{
		{"no header", ""},
		{"malformed header (no scheme)", devToken},
		{"malformed header (Basic)", "Basic " + devToken},
		{"malformed header (Bearer only)", "Bearer"},
		{"unknown token", "Bearer mdc_" + adminRandomHex(32)},
		{"refreshed-away token", "Bearer " + refreshedAway},
		{"deleted developer's token", "Bearer " + deletedToken},
	}
	for _, r := range routes {
		r := r
		t.Run(r.String(), func(t *testing.T) {
			if r.public {
				checkPublicRoute(t, s, r, devToken)
				return
			}
			for _, c := range refused {
				if got := call(r, c.header); got.status != 401 {
					t.Errorf("%s: want 401, got %v", c.name, got)
				}
			}
			dev := call(r, "Bearer "+devToken)
			if r.admin && dev.status != 403 {
				t.Errorf("developer token on an admin route: want 403, got %v", dev)
			}
			if !r.admin && (dev.status == 401 || dev.status == 403) {
				t.Errorf("developer token on a developer route: refused with %v", dev)
			}
			if admin := call(r, "Bearer "+s.adminToken); admin.status == 401 || admin.status == 403 {
				t.Errorf("admin token: refused with %v", admin)
			}
		})
	}
}

// Public routes answer without any header.
func checkPublicRoute(t *testing.T, s *adminStack, r route, devToken string) {
	t.Helper()
	switch {
	case strings.HasSuffix(r.template, "/health"):
		adminExpectStatus(t, "health without a token", s.call(r.method, r.path, "", nil), 200)
	case r.template == "/v1/dashboard/auth/sign-in":
		adminExpectStatus(t, "sign-in without a header", s.call(r.method, r.path, "",
			map[string]any{"developerToken": devToken}), 200)
	default:
		t.Errorf("public route %s is not one of API.md's: /health, /v1/health, sign-in", r)
	}
}

func TestAccessNoTokenOrSecretIsStoredInClearText(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{secretKey: adminRandomHex(32)})
	secrets := []string{s.adminToken}
	for _, name := range []string{"clear-a", "clear-b"} {
		id, token := s.newDeveloper(name, "developer")
		secrets = append(secrets, token)
		r := s.admin("PATCH", "/v1/admin/developers/"+id+"/refresh-key", nil)
		secrets = append(secrets, r.body["token"].(string))
	}
	apiKey, apiSecret := "brokerkey"+adminRandomHex(8), "brokersecret"+adminRandomHex(8)
	adminExpectStatus(t, "store broker credentials", s.admin("PUT", "/v1/admin/broker",
		map[string]any{"apiKey": apiKey, "apiSecret": apiSecret}), 200)
	secrets = append(secrets, apiKey, apiSecret)

	tables := strings.Fields(s.sql("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))
	if len(tables) < 5 {
		t.Fatalf("tables: %v", tables)
	}
	var dump strings.Builder
	for _, table := range tables {
		// Row text shows bytea as hex, searched for below as well.
		dump.WriteString(s.sql("SELECT coalesce(string_agg(t::text, E'\\n'), '') FROM " + table + " t"))
	}
	// The bytea columns also as raw bytes (escaped), so plain text is found.
	dump.WriteString(s.sql("SELECT coalesce(string_agg(encode(token_hash, 'escape'), ''), '') FROM developers"))
	dump.WriteString(s.sql("SELECT coalesce(string_agg(encode(api_key_sealed, 'escape') || " +
		"encode(api_secret_sealed, 'escape'), ''), '') FROM broker_credentials"))
	text := strings.ToLower(dump.String())
	if !strings.Contains(text, "clear-a") {
		t.Fatal("the dump does not hold the developers table")
	}
	for _, secret := range secrets {
		if strings.Contains(text, strings.ToLower(secret)) || strings.Contains(text, hexOf(secret)) {
			t.Errorf("a token or secret is stored in clear text (%s...)", secret[:6])
		}
	}
}

func hexOf(s string) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		out = append(out, digits[s[i]>>4], digits[s[i]&15])
	}
	return string(out)
}
