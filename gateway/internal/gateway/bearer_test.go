package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/rpcpolicy"
)

func TestBearerProblem(t *testing.T) {
	tests := []struct {
		header string
		want   string
	}{
		{"", missingAuthMessage},
		{"t0ken", malformedAuthMessage},
		{"Basic dXNlcjpwYXNz", malformedAuthMessage},
		{"Bearer", malformedAuthMessage},
		{"Bearer ", malformedAuthMessage},
		{"Bearertoken", malformedAuthMessage},
		{"Bearer   ", badTokenMessage},
		{"Bearer " + strings.Repeat("t", 513), badTokenMessage},
		{"Bearer " + strings.Repeat("t", 512), ""},
		{"Bearer t", ""},
		{"bearer t", ""},
		{"BEARER  t ", ""},
	}
	for _, tt := range tests {
		if got := bearerProblem(tt.header); got != tt.want {
			t.Errorf("bearerProblem(%.40q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

// TestBearerBeforeBody: a protected route without a well-formed bearer header
// is 401 before a byte of the body is read; public routes and unknown paths
// are not checked.
func TestBearerBeforeBody(t *testing.T) {
	rec, addr := startFakeServer(t)
	h := newTestHandler(t, addr)
	tests := []struct {
		name, method, path, auth string
		wantStatus               int
		wantMessage              string
	}{
		{"missing", "POST", "/v1/developer/collector/shortlists", "", 401, missingAuthMessage},
		{"no scheme", "POST", "/v1/developer/collector/quotes", "abc", 401, malformedAuthMessage},
		{"basic", "PATCH", "/v1/dashboard/runs/r1", "Basic abc", 401, malformedAuthMessage},
		{"bearer only", "GET", "/v1/dashboard/runs", "Bearer", 401, malformedAuthMessage},
		{"token too long", "POST", "/v1/dashboard/runs", "Bearer " + strings.Repeat("x", 513), 401, badTokenMessage},
		{"admin route", "GET", "/v1/admin/broker", "", 401, missingAuthMessage},
		{"well-formed", "GET", "/v1/developer/collector/check-holiday", "bearer abc", 200, ""},
		{"health", "GET", "/health", "", 200, ""},
		{"v1 health", "GET", "/v1/health", "", 200, ""},
		{"openapi", "GET", "/openapi.json", "", 200, ""},
		{"docs", "GET", "/docs", "", 200, ""},
		{"unknown path", "POST", "/v2/nothing", "", 404, ""},
		{"other method", "PUT", "/v1/developer/collector/shortlists", "", 405, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.setError(nil)
			body := &countingReader{r: strings.NewReader(`{"data":{}}`)}
			req := httptest.NewRequest(tt.method, tt.path, body)
			req.ContentLength = -1
			if tt.method == "GET" {
				req = httptest.NewRequest(tt.method, tt.path, nil)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %.300s", w.Code, tt.wantStatus, w.Body.String())
			}
			if tt.wantStatus != 401 {
				return
			}
			if body.n != 0 {
				t.Errorf("read %d body bytes before the 401", body.n)
			}
			if got := w.Header().Get("WWW-Authenticate"); got != "Bearer" {
				t.Errorf("WWW-Authenticate = %q", got)
			}
			st := errorBody(t, w.Body.Bytes())
			if codes.Code(st.GetCode()) != codes.Unauthenticated || st.GetMessage() != tt.wantMessage {
				t.Errorf("body = %s, want message %q", w.Body.Bytes(), tt.wantMessage)
			}
		})
	}
}

// TestSignInIsPublic: sign-in reaches the server without a token.
func TestSignInIsPublic(t *testing.T) {
	routes := newRouteTable(descriptorRoutes())
	if _, ok := routes.protected(http.MethodPost, "/v1/dashboard/auth/sign-in"); ok {
		t.Error("POST /v1/dashboard/auth/sign-in is protected")
	}
	if _, ok := routes.protected(http.MethodGet, "/v1/dashboard/runs"); !ok {
		t.Error("GET /v1/dashboard/runs is not protected")
	}
}

// TestPublicRoutesFollowTheirRPCsAccess: a route of an RPC needs a token
// exactly when the RPC's (mdc.v1.rpc) access is not ACCESS_PUBLIC, and the
// gateway's own documents need none.
func TestPublicRoutesFollowTheirRPCsAccess(t *testing.T) {
	routes := newRouteTable(descriptorRoutes())
	routes.add(http.MethodGet, openAPIPath)
	routes.add(http.MethodGet, docsPath)
	routes.add(http.MethodGet, docsPath+"/{asset}")
	public := 0
	rpcpolicy.Methods(func(md protoreflect.MethodDescriptor) {
		rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
		for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
			method, tmpl := httpRuleRoute(r)
			path := concretePath(tmpl)
			want := rpcpolicy.Of(md).GetAccess() != mdcv1.Access_ACCESS_PUBLIC
			if !want {
				public++
			}
			if _, got := routes.protected(method, path); got != want {
				t.Errorf("%s %s (%s, %s): protected = %v, want %v", method, path, md.FullName(), rpcpolicy.Of(md).GetAccess(), got, want)
			}
		}
	})
	if public == 0 {
		t.Error("no RPC has a public route: the descriptors were not read")
	}
	for _, path := range []string{openAPIPath, docsPath, docsPath + "/swagger-ui.css"} {
		if _, ok := routes.protected(http.MethodGet, path); ok {
			t.Errorf("GET %s is protected", path)
		}
	}
}
