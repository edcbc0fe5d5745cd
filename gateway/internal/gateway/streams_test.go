package gateway

import (
	"net/http"
	"testing"
)

// TestStreamRoutesAreThoseOfStreamingRPCs: withStreams takes exactly the
// routes whose RPC streams its answer, as the descriptors say.
func TestStreamRoutesAreThoseOfStreamingRPCs(t *testing.T) {
	routes := newRouteTable(descriptorRoutes())
	streaming := 0
	for _, r := range routes.routes {
		path := concretePath(r.template)
		if r.stream {
			streaming++
		}
		if got := routes.streams(r.method, path); got != r.stream {
			t.Errorf("%s %s: streams = %v, want %v", r.method, path, got, r.stream)
		}
	}
	if streaming == 0 {
		t.Error("no route streams: the descriptors were not read")
	}
	for _, path := range []string{"/v1/developer/watch/quotes", "/v1/developer/replay"} {
		if !routes.streams(http.MethodGet, path) {
			t.Errorf("GET %s does not stream", path)
		}
		if routes.streams(http.MethodPost, path) {
			t.Errorf("POST %s streams", path)
		}
	}
	if routes.streams(http.MethodGet, "/v1/developer/quote") {
		t.Error("GET /v1/developer/quote streams")
	}
}
