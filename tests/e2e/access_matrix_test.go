package e2e

// The access rules of API.md section 1, checked on every route of the API.
// The routes come from the OpenAPI document the gateway serves (generated
// from the google.api.http options of proto/mdc/v1), cross-checked against
// the proto files themselves, so a new route cannot be left out.

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

type route struct {
	method, path string // path with {params} filled in
	template     string
	admin        bool // AdminService
	public       bool // security: [] in the document
	hasBody      bool
	body         string // a body the gateway forwards: "{}" plus each required list, empty
	// contentType of body when it is not JSON (text/csv: the file imports).
	contentType string
	// stream: a streaming route (its 200 answer is NDJSON or Server-Sent Events),
	// whose path carries a sample of each required query parameter so an
	// authorized call opens the stream.
	stream bool
}

func (r route) String() string { return r.method + " " + r.template }

// samplePathValues fill path parameters with values that name nothing, so
// calls that pass the access check change nothing.
var samplePathValues = map[string]string{"id": "999999", "runId": "999999", "date": "2031-01-01"}

// sampleStreamQuery fills the required query parameters of the streaming
// routes (a watch without symbols would be a 400 and never open).
// TestAccessMatrixCoversEveryRoute stores a NIFTY quote on the date, so the
// replay has a first message too.
var sampleStreamQuery = map[string]string{"symbols": "SAMPLE", "type": "TOP_GAINERS", "date": "2031-01-01"}

func routesFromOpenAPI(t *testing.T, s *Stack) []route {
	t.Helper()
	r := s.Do(t, "GET", "/openapi.json", "", nil)
	expectStatus(t, r, 200)
	var doc struct {
		Paths map[string]map[string]struct {
			Tags       []string          `json:"tags"`
			Security   *[]map[string]any `json:"security"`
			Parameters []struct {
				Name     string `json:"name"`
				In       string `json:"in"`
				Required bool   `json:"required"`
			} `json:"parameters"`
			Responses map[string]struct {
				Content map[string]any `json:"content"`
			} `json:"responses"`
			RequestBody *struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Required   []string `json:"required"`
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(r.Body, &doc); err != nil {
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
			// The services whose every RPC needs an admin token (their
			// options say ACCESS_ADMIN; the imports: docs/api.md "Import").
			for _, tag := range op.Tags {
				r.admin = r.admin || tag == "AdminService" || tag == "ImportService"
			}
			// The streams also answer Server-Sent Events; the exports'
			// files (NDJSON among them) are ordinary answers.
			if _, ok := op.Responses["200"].Content["text/event-stream"]; ok {
				r.stream = true
				var query []string
				for _, p := range op.Parameters {
					if p.In != "query" || !p.Required {
						continue
					}
					v, ok := sampleStreamQuery[p.Name]
					if !ok {
						t.Fatalf("%s: no sample value for required query parameter %s; add one", template, p.Name)
					}
					query = append(query, p.Name+"="+v)
				}
				if len(query) > 0 {
					sort.Strings(query)
					r.path += "?" + strings.Join(query, "&")
				}
			}
			// "security: []" (or only empty requirements) marks a route that
			// needs no token; absent, the document's Bearer requirement holds.
			if op.Security != nil {
				r.public = true
				for _, requirement := range *op.Security {
					r.public = r.public && len(requirement) == 0
				}
			}
			if op.RequestBody != nil && hasMedia(op.RequestBody.Content, "text/csv") {
				// A file route: a CSV file (a header alone) as its body.
				r.hasBody, r.body, r.contentType = true, "SYMBOL\n", "text/csv"
			} else if op.RequestBody != nil {
				r.hasBody = true
				// The gateway itself refuses a body that lacks a required
				// list (proto3 cannot tell absent from empty), before the
				// server sees the token; the matrix is about the server's
				// answers, so each required list is sent, empty.
				ref := op.RequestBody.Content["application/json"].Schema.Ref
				schema := doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
				body := map[string]any{}
				for _, name := range schema.Required {
					if schema.Properties[name].Type == "array" {
						body[name] = []any{}
					}
				}
				encoded, err := json.Marshal(body)
				if err != nil {
					t.Fatal(err)
				}
				r.body = string(encoded)
			}
			routes = append(routes, r)
		}
	}
	sort.Slice(routes, func(i, j int) bool { return routes[i].String() < routes[j].String() })
	return routes
}

// hasMedia reports whether a request body's content has the media type.
func hasMedia[V any](content map[string]V, media string) bool {
	_, ok := content[media]
	return ok
}

// repoRoot is the repository's top folder (the tests run in tests/e2e).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
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

// A private stack: the calls with the admin token reach every admin route.
func TestAccessMatrixCoversEveryRoute(t *testing.T) {
	s := StartStack(t)
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

	_, devToken := s.NewDeveloper(t, "developer")
	refreshedID, refreshedAway := s.NewDeveloper(t, "developer")
	checkStatus(t, "refresh", s.Do(t, "PATCH", "/v1/admin/developers/"+refreshedID+"/refresh-key", s.AdminToken(), nil), 200)
	deletedID, deletedToken := s.NewDeveloper(t, "admin")
	checkStatus(t, "delete", s.Do(t, "DELETE", "/v1/admin/developers/"+deletedID, s.AdminToken(), nil), 200)

	// The replay of the sample date has a record to send.
	postNifty(t, s, devToken, devQuote{at: sampleStreamQuery["date"] + "T10:00:00", price: 1})

	// Each refused call comes from a client address of its own: the
	// failed-token throttle would otherwise lock this test's one address out
	// after 100 unknown tokens, and answer 429 instead of the 401 checked.
	clients := 0
	call := func(t *testing.T, r route, authorization string) *Response {
		t.Helper()
		clients++
		client := map[string]string{"X-Forwarded-For": fmt.Sprintf("198.18.%d.%d", clients/250, clients%250+1)}
		if r.stream {
			return openStreamOnce(t, s, r.path, authorization, client)
		}
		var body any
		if r.hasBody {
			body = r.body
		}
		if r.contentType != "" {
			client["Content-Type"] = r.contentType
		}
		return s.DoWithAuthorization(t, r.method, r.path, authorization, body, client)
	}
	refused := []struct {
		name, header string
	}{
		{"no header", ""},
		{"malformed header (no scheme)", devToken},
		{"malformed header (Basic)", "Basic " + devToken},
		{"malformed header (Bearer only)", "Bearer"},
		{"unknown token", "Bearer mdc_" + mustRandomHex(t, 32)},
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
				if got := call(t, r, c.header); got.Status != 401 {
					t.Errorf("%s: want 401, got %v", c.name, got)
				}
			}
			dev := call(t, r, "Bearer "+devToken)
			if r.admin && dev.Status != 403 {
				t.Errorf("developer token on an admin route: want 403, got %v", dev)
			}
			if !r.admin && (dev.Status == 401 || dev.Status == 403) {
				t.Errorf("developer token on a developer route: refused with %v", dev)
			}
			admin := call(t, r, "Bearer "+s.AdminToken())
			if admin.Status == 401 || admin.Status == 403 {
				t.Errorf("admin token: refused with %v", admin)
			}
			// A stream a token may open does open: 200 and a first message.
			if r.stream && !r.admin {
				for who, got := range map[string]*Response{"developer": dev, "admin": admin} {
					if got.Status != 200 || got.JSON == nil || got.JSON["result"] == nil {
						t.Errorf("%s token: want the stream's first message, got %v", who, got)
					}
				}
			}
		})
	}
}

// openStreamOnce opens a streaming route (GET path) with the Authorization
// header as given ("" sends none). A refused stream is an ordinary answer,
// returned whole. An opened one (200) is read up to its first line, which is
// returned as the body, and then closed: a watch never ends by itself.
func openStreamOnce(t *testing.T, s *Stack, path, authorization string, headers ...map[string]string) *Response {
	t.Helper()
	// Only a server that never sends the first message meets this bound.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.BaseURL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	for _, h := range headers {
		for k, v := range h {
			req.Header.Set(k, v)
		}
	}
	// The stack's client has an overall timeout, which would cut a stream.
	resp, err := (&http.Client{Transport: s.client.Transport}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	var data []byte
	if resp.StatusCode == http.StatusOK {
		if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
			t.Errorf("GET %s: 200 with Content-Type %q, want application/x-ndjson", path, ct)
		}
		data, err = bufio.NewReader(resp.Body).ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			t.Fatalf("GET %s: reading the first line: %v", path, err)
		}
	} else if data, err = io.ReadAll(resp.Body); err != nil {
		t.Fatalf("GET %s: reading the answer: %v", path, err)
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
	var obj map[string]any
	if json.Unmarshal(data, &obj) == nil {
		r.JSON = obj
	}
	return r
}

// Public routes answer without any header.
func checkPublicRoute(t *testing.T, s *Stack, r route, devToken string) {
	t.Helper()
	switch {
	case strings.HasSuffix(r.template, "/health"):
		checkStatus(t, "health without a token", s.Do(t, r.method, r.path, "", nil), 200)
	case r.template == "/v1/dashboard/auth/sign-in":
		checkStatus(t, "sign-in without a header", s.Do(t, r.method, r.path, "",
			map[string]any{"developerToken": devToken}), 200)
	default:
		t.Errorf("public route %s is not one of API.md's: /health, /v1/health, sign-in", r)
	}
}

// Dumps every table: a private stack, with a key to store broker
// credentials.
func TestAccessNoTokenOrSecretIsStoredInClearText(t *testing.T) {
	s := StartStackWith(t, StackOptions{Env: []string{"MDC_SECRET_KEY=" + mustRandomHex(t, 32)}})
	secrets := []string{s.AdminToken()}
	for _, name := range []string{"clear-a", "clear-b"} {
		id, token := s.NewNamedDeveloper(t, name, "developer")
		secrets = append(secrets, token)
		r := s.Do(t, "PATCH", "/v1/admin/developers/"+id+"/refresh-key", s.AdminToken(), nil)
		secrets = append(secrets, r.JSON["token"].(string))
	}
	apiKey, apiSecret := "brokerkey"+mustRandomHex(t, 8), "brokersecret"+mustRandomHex(t, 8)
	checkStatus(t, "store broker credentials", s.Do(t, "PUT", "/v1/admin/broker", s.AdminToken(),
		map[string]any{"apiKey": apiKey, "apiSecret": apiSecret}), 200)
	secrets = append(secrets, apiKey, apiSecret)

	tables := strings.Fields(s.SQL(t, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))
	if len(tables) < 5 {
		t.Fatalf("tables: %v", tables)
	}
	var dump strings.Builder
	for _, table := range tables {
		// Row text shows bytea as hex, searched for below as well.
		dump.WriteString(s.SQL(t, "SELECT coalesce(string_agg(t::text, E'\\n'), '') FROM "+table+" t"))
	}
	// The bytea columns also as raw bytes (escaped), so plain text is found.
	dump.WriteString(s.SQL(t, "SELECT coalesce(string_agg(encode(token_hash, 'escape'), ''), '') FROM developers"))
	dump.WriteString(s.SQL(t, "SELECT coalesce(string_agg(encode(api_key_sealed, 'escape') || "+
		"encode(api_secret_sealed, 'escape'), ''), '') FROM broker_credentials"))
	text := strings.ToLower(dump.String())
	if !strings.Contains(text, "clear-a") {
		t.Fatal("the dump does not hold the developers table")
	}
	for _, secret := range secrets {
		if strings.Contains(text, strings.ToLower(secret)) || strings.Contains(text, hex.EncodeToString([]byte(secret))) {
			t.Errorf("a token or secret is stored in clear text (%s...)", secret[:6])
		}
	}
}
