package gateway

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"mdc/gateway/internal/openapi"
	"mdc/gateway/internal/openapigen"
)

func TestOpenAPIServed(t *testing.T) {
	_, base := startGateway(t)
	resp := do(t, "GET", base+"/openapi.json", "", nil)
	if resp.status != http.StatusOK {
		t.Fatalf("status = %d", resp.status)
	}
	if ct := resp.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
	}
	if err := json.Unmarshal(resp.body, &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("openapi = %q, want 3.x", doc.OpenAPI)
	}
}

// methodRecorder is a gRPC server with no services: every call lands in its
// unknown-service handler, which records the full method name.
type methodRecorder struct {
	mu   sync.Mutex
	last string
}

func (m *methodRecorder) handle(_ any, stream grpc.ServerStream) error {
	name, _ := grpc.MethodFromServerStream(stream)
	m.mu.Lock()
	m.last = name
	m.mu.Unlock()
	return status.Error(codes.Unimplemented, "recorded")
}

func (m *methodRecorder) take() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	name := m.last
	m.last = ""
	return name
}

// pathParam matches a path template parameter of the document ({runId}).
var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// TestOpenAPIOperationsReachTheirRPC sends a request to every operation of
// the served document and checks the gateway forwards it to the RPC its
// operationId names.
func TestOpenAPIOperationsReachTheirRPC(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := &methodRecorder{}
	s := grpc.NewServer(grpc.UnknownServiceHandler(rec.handle))
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	srv := httptest.NewServer(newTestHandler(t, lis.Addr().String()))
	t.Cleanup(srv.Close)

	doc := loadDocument(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			// Every path parameter is a date or an id; a date passes for both.
			url := srv.URL + pathParam.ReplaceAllString(path, "2025-01-02")
			body := ""
			headers := map[string]string{"Authorization": "Bearer t"}
			if op.RequestBody != nil {
				if op.RequestBody.Value.Content.Get("text/csv") != nil {
					// A route taking a file (the admin imports of NSE's files and
					// of exported data; the latter calls its RPC before it reads).
					body, headers["Content-Type"] = "A,B\n", "text/csv"
				} else {
					b, err := json.Marshal(minimalBody(op.RequestBody.Value.Content.Get("application/json").Schema))
					if err != nil {
						t.Fatal(err)
					}
					body = string(b)
				}
			}
			resp := do(t, method, url, body, headers)
			rpc := openapigen.RPCName(op.OperationID)
			i := strings.LastIndex(rpc, ".")
			want := "/" + rpc[:i] + "/" + rpc[i+1:]
			if got := rec.take(); got != want {
				t.Errorf("%s %s (%s): reached %q (HTTP %d %s), want %q", method, path, op.OperationID, got, resp.status, resp.body, want)
			}
		}
	}
}

// TestOpenAPIHasEveryRoute checks that the document lists exactly the
// routes the gateway registers: the google.api.http rules (with their
// additional bindings) of every mdc.v1 RPC, which the generated
// Register*Handler functions serve.
func TestOpenAPIHasEveryRoute(t *testing.T) {
	documented := map[string]bool{}
	for path, item := range loadDocument(t).Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+pathParam.ReplaceAllString(path, "{}")] = true
		}
	}
	registered := map[string]bool{}
	protoregistry.GlobalFiles.RangeFilesByPackage("mdc.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			methods := fd.Services().Get(i).Methods()
			for j := 0; j < methods.Len(); j++ {
				rule, _ := proto.GetExtension(methods.Get(j).Options(), annotations.E_Http).(*annotations.HttpRule)
				if rule == nil {
					continue
				}
				for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
					method, path := httpRoute(r)
					registered[method+" "+pathParam.ReplaceAllString(path, "{}")] = true
				}
			}
		}
		return true
	})
	if len(registered) == 0 {
		t.Fatal("no HTTP rules found in the registry")
	}
	for _, r := range sortedSet(registered) {
		if !documented[r] {
			t.Errorf("route %s is served but not in the document", r)
		}
	}
	for _, r := range sortedSet(documented) {
		if !registered[r] {
			t.Errorf("route %s is in the document but not served", r)
		}
	}
}

// minimalBody is the smallest body the gateway itself lets through to the
// server: each required list present (empty), each required message
// holding its own; the rest is left for the server to check.
func minimalBody(ref *openapi3.SchemaRef) map[string]any {
	body := map[string]any{}
	if ref == nil || ref.Value == nil {
		return body
	}
	for _, name := range ref.Value.Required {
		p := ref.Value.Properties[name]
		switch {
		case p == nil || p.Value == nil:
		case p.Value.Type.Is("array"):
			body[name] = []any{}
		case p.Value.Type.Is("object"):
			body[name] = minimalBody(p)
		}
	}
	return body
}

func httpRoute(r *annotations.HttpRule) (method, path string) {
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return http.MethodGet, p.Get
	case *annotations.HttpRule_Post:
		return http.MethodPost, p.Post
	case *annotations.HttpRule_Put:
		return http.MethodPut, p.Put
	case *annotations.HttpRule_Patch:
		return http.MethodPatch, p.Patch
	case *annotations.HttpRule_Delete:
		return http.MethodDelete, p.Delete
	case *annotations.HttpRule_Custom:
		return p.Custom.GetKind(), p.Custom.GetPath()
	}
	return "", ""
}

func sortedSet(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func loadDocument(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapigen.Load(openapi.Document)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
