package routes

import (
	"net/http"
	"regexp"
	"testing"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/rpcpolicy"
)

// TestSignInIsPublic: sign-in reaches the server without a token.
func TestSignInIsPublic(t *testing.T) {
	routes := NewTable(Descriptors())
	if _, ok := routes.Protected(http.MethodPost, "/v1/dashboard/auth/sign-in"); ok {
		t.Error("POST /v1/dashboard/auth/sign-in is protected")
	}
	if _, ok := routes.Protected(http.MethodGet, "/v1/dashboard/runs"); !ok {
		t.Error("GET /v1/dashboard/runs is not protected")
	}
}

// TestPublicRoutesFollowTheirRPCsAccess: a route of an RPC needs a token
// exactly when the RPC's (mdc.v1.rpc) access is not ACCESS_PUBLIC, and the
// gateway's own documents need none.
func TestPublicRoutesFollowTheirRPCsAccess(t *testing.T) {
	routes := NewTable(Descriptors())
	routes.Add(http.MethodGet, OpenAPIPath)
	routes.Add(http.MethodGet, DocsPath)
	routes.Add(http.MethodGet, DocsPath+"/{asset}")
	public := 0
	rpcpolicy.Methods(func(md protoreflect.MethodDescriptor) {
		rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
		for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
			method, tmpl := HTTPRule(r)
			path := concretePath(tmpl)
			want := rpcpolicy.Of(md).GetAccess() != mdcv1.Access_ACCESS_PUBLIC
			if !want {
				public++
			}
			if _, got := routes.Protected(method, path); got != want {
				t.Errorf("%s %s (%s, %s): protected = %v, want %v", method, path, md.FullName(), rpcpolicy.Of(md).GetAccess(), got, want)
			}
		}
	})
	if public == 0 {
		t.Error("no RPC has a public route: the descriptors were not read")
	}
	for _, path := range []string{OpenAPIPath, DocsPath, DocsPath + "/swagger-ui.css"} {
		if _, ok := routes.Protected(http.MethodGet, path); ok {
			t.Errorf("GET %s is protected", path)
		}
	}
}

func TestTemplateMatches(t *testing.T) {
	tests := []struct {
		tmpl, path string
		want       bool
	}{
		{"/v1/health", "/v1/health", true},
		{"/v1/health", "/v1/health/x", false},
		{"/v1/dashboard/runs/{run_id}", "/v1/dashboard/runs/abc", true},
		{"/v1/dashboard/runs/{run_id}", "/v1/dashboard/runs", false},
		{"/v1/dashboard/runs/{run_id}/orders", "/v1/dashboard/runs/a/orders", true},
		{"/v1/dashboard/runs/{run_id}/orders", "/v1/dashboard/runs/a/b", false},
		{"/v1/{name=shelves/*}", "/v1/shelves/1", true},
		{"/v1/{name=shelves/*}", "/v1/books/1", false},
		{"/v1/{path=**}", "/v1/a/b/c", true},
	}
	for _, tt := range tests {
		if got := templateMatches(tt.tmpl, tt.path); got != tt.want {
			t.Errorf("templateMatches(%q, %q) = %v, want %v", tt.tmpl, tt.path, got, tt.want)
		}
	}
}

// TestStreamRoutesAreThoseOfStreamingRPCs: stream.Handler takes exactly the
// routes whose RPC streams its answer, as the descriptors say.
func TestStreamRoutesAreThoseOfStreamingRPCs(t *testing.T) {
	routes := NewTable(Descriptors())
	streaming := 0
	for _, r := range routes.routes {
		path := concretePath(r.Template)
		if r.stream {
			streaming++
		}
		if got := routes.Streams(r.Method, path); got != r.stream {
			t.Errorf("%s %s: streams = %v, want %v", r.Method, path, got, r.stream)
		}
	}
	if streaming == 0 {
		t.Error("no route streams: the descriptors were not read")
	}
	for _, path := range []string{"/v1/developer/watch/quotes", "/v1/developer/replay"} {
		if !routes.Streams(http.MethodGet, path) {
			t.Errorf("GET %s does not stream", path)
		}
		if routes.Streams(http.MethodPost, path) {
			t.Errorf("POST %s streams", path)
		}
	}
	if routes.Streams(http.MethodGet, "/v1/developer/quote") {
		t.Error("GET /v1/developer/quote streams")
	}
}

var templateVar = regexp.MustCompile(`\{[^}]*\}`)

// concretePath fills every variable of a template with "x1".
func concretePath(tmpl string) string { return templateVar.ReplaceAllString(tmpl, "x1") }

func TestRoutesAnsweredAsFilesDoNotStream(t *testing.T) {
	routes := NewTable(Descriptors())
	const export = "/v1/developer/export/quotes"
	if !routes.Streams(http.MethodGet, export) {
		t.Fatalf("GET %s: its RPC streams, so the table from the descriptors should say it streams", export)
	}
	routes.AnswersFiles(http.MethodGet, []string{export})
	if routes.Streams(http.MethodGet, export) {
		t.Errorf("GET %s streams after AnswersFiles", export)
	}
	if _, protected := routes.Protected(http.MethodGet, export); !protected {
		t.Errorf("GET %s no longer needs a token after AnswersFiles", export)
	}
	if !routes.Streams(http.MethodGet, "/v1/developer/watch/quotes") {
		t.Error("AnswersFiles of the export took the watch's stream with it")
	}
}
