package gateway

import (
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/routes"
	"mdc/gateway/internal/transport"
)

func TestMethodNotAllowedListsAllow(t *testing.T) {
	_, base := startGateway(t)
	tests := []struct {
		method, path string
		wantAllow    string
	}{
		{"DELETE", "/v1/developer/lists", "GET"},
		{"GET", "/v1/developer/collector/shortlists", "POST"},
		{"PUT", "/v1/dashboard/runs/run-1", "DELETE, PATCH"},
		{"GET", "/v1/dashboard/runs/run-1", "DELETE, PATCH"},
		{"DELETE", "/v1/dashboard/runs", "GET, POST"},
		{"POST", "/v1/admin/broker", "GET, PUT"},
		{"PATCH", "/v1/admin/holidays", "DELETE, GET, POST"},
		{"POST", "/health", "GET"},
		{"POST", "/openapi.json", "GET"},
		{"POST", "/docs", "GET"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			resp := do(t, tt.method, base+tt.path, "", nil)
			if resp.status != http.StatusMethodNotAllowed {
				t.Fatalf("status = %d, want 405", resp.status)
			}
			if got := resp.header.Get("Allow"); got != tt.wantAllow {
				t.Errorf("Allow = %q, want %q", got, tt.wantAllow)
			}
			if st := errorBody(t, resp.body); codes.Code(st.GetCode()) != codes.Unimplemented {
				t.Errorf("body = %s", resp.body)
			}
		})
	}
}

// TestAllowMatchesTheMux checks, for the path of every route, that a method
// no route has answers 405 with an Allow header, and that every method it
// lists is routed (no routing 404 or 405).
func TestAllowMatchesTheMux(t *testing.T) {
	_, base := startGateway(t)
	seen := map[string]bool{}
	for _, r := range routes.Descriptors() {
		path := concretePath(r.Template)
		if seen[path] {
			continue
		}
		seen[path] = true
		t.Run(path, func(t *testing.T) {
			resp := do(t, "TRACE", base+path, "", nil)
			allow := resp.header.Get("Allow")
			if resp.status != http.StatusMethodNotAllowed || allow == "" {
				t.Fatalf("TRACE: status %d, Allow %q", resp.status, allow)
			}
			methods := strings.Split(allow, ", ")
			if !slices.Contains(methods, r.Method) {
				t.Errorf("Allow %q lacks %s", allow, r.Method)
			}
			for _, m := range methods {
				resp := do(t, m, base+path, "", nil)
				if resp.status == http.StatusMethodNotAllowed || strings.Contains(string(resp.body), "no route for") {
					t.Errorf("%s listed in Allow but answered %d %s", m, resp.status, resp.body)
				}
			}
		})
	}
}

func TestOversizedHeaders(t *testing.T) {
	rec, base := startGateway(t)
	many := map[string]string{}
	for i := range 10 {
		many["X-Filler-"+string(rune('A'+i))] = strings.Repeat("f", 7<<10) // 10 x 7 KiB: over 64 KiB in total
	}
	tests := []struct {
		name       string
		header     map[string]string
		wantStatus int
	}{
		{"small", map[string]string{"X-Note": "hi"}, 200},
		{"one header at the limit", map[string]string{"X-Note": strings.Repeat("n", transport.MaxHeaderFieldBytes-len("X-Note"))}, 200},
		{"one header over the limit", map[string]string{"X-Note": strings.Repeat("n", transport.MaxHeaderFieldBytes-len("X-Note")+1)}, 431},
		{"forwarded header of 9 KB", map[string]string{"User-Agent": strings.Repeat("u", 9000)}, 431},
		{"authorization of 9 KB", map[string]string{"Authorization": "Bearer " + strings.Repeat("t", 9000)}, 431},
		{"too many bytes in total", many, 431},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.reset()
			resp := do(t, "GET", base+"/v1/developer/nifty", "", tt.header)
			if resp.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", resp.status, tt.wantStatus, resp.body)
			}
			if tt.wantStatus != 431 {
				return
			}
			if st := errorBody(t, resp.body); codes.Code(st.GetCode()) != codes.InvalidArgument || !strings.Contains(st.GetMessage(), "larger than") {
				t.Errorf("body = %s", resp.body)
			}
			if m, _, _ := rec.last(); m != "" {
				t.Errorf("the request reached the server (%s)", m)
			}
		})
	}
}

// TestHeaderListTooLargeForServer: headers within the gateway's limits but
// beyond the header list size the gRPC server advertises get 431, not 500.
func TestHeaderListTooLargeForServer(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{health: mdcv1.HealthCheckResponse_SERVING}
	s := grpc.NewServer(grpc.MaxHeaderListSize(4 << 10))
	mdcv1.RegisterDeveloperServiceServer(s, fakeDeveloper{recorder: rec})
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	ts := httptest.NewServer(newTestHandler(t, lis.Addr().String()))
	t.Cleanup(ts.Close)

	// The first call brings the server's settings to the client.
	if resp := do(t, "GET", ts.URL+"/v1/developer/nifty", "", nil); resp.status != 200 {
		t.Fatalf("small request: %d %s", resp.status, resp.body)
	}
	resp := do(t, "GET", ts.URL+"/v1/developer/nifty", "", map[string]string{"User-Agent": strings.Repeat("u", 6000)})
	if resp.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status = %d, want 431; body %s", resp.status, resp.body)
	}
	if st := errorBody(t, resp.body); codes.Code(st.GetCode()) != codes.InvalidArgument || !strings.Contains(st.GetMessage(), "(4096 bytes in all)") {
		t.Errorf("body = %s", resp.body)
	}
}
