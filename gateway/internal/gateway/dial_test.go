package gateway

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	mdcv1 "mdc/gateway/gen/mdcv1"
)

// fakeStreams answers WatchNifty with one message.
type fakeStreams struct {
	mdcv1.UnimplementedStreamServiceServer
}

func (fakeStreams) WatchNifty(_ *mdcv1.WatchNiftyRequest, s grpc.ServerStreamingServer[mdcv1.MarketEvents]) error {
	return s.Send(&mdcv1.MarketEvents{Cursor: "c1"})
}

// TestStreamHeaderListTooLargeForServer: the streaming routes, like the
// others, answer 431 to headers within the gateway's limits but beyond the
// server's header list size. They answered 500 with grpc-go's own text
// ("header list size to send violates the maximum size") before the stream
// interceptor (found by the e2e sweep).
func TestStreamHeaderListTooLargeForServer(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(grpc.MaxHeaderListSize(4 << 10))
	mdcv1.RegisterStreamServiceServer(s, fakeStreams{})
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	ts := httptest.NewServer(newTestHandler(t, lis.Addr().String()))
	t.Cleanup(ts.Close)

	// The first call brings the server's settings to the client.
	if resp := do(t, "GET", ts.URL+"/v1/developer/watch/nifty", "", nil); resp.status != http.StatusOK || !strings.Contains(string(resp.body), `"c1"`) {
		t.Fatalf("small request: %d %s", resp.status, resp.body)
	}
	resp := do(t, "GET", ts.URL+"/v1/developer/watch/nifty", "", map[string]string{"User-Agent": strings.Repeat("u", 6000)})
	if resp.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status = %d, want 431; body %s", resp.status, resp.body)
	}
	if st := errorBody(t, resp.body); codes.Code(st.GetCode()) != codes.InvalidArgument || !strings.Contains(st.GetMessage(), "(4096 bytes in all)") {
		t.Errorf("body = %s", resp.body)
	}
}

// TestStreamToAnAbsentServerHidesTransportText: a stream the gRPC client
// cannot open is 503 with the gateway's words, not grpc-go's (which name
// the address and the dial error).
func TestStreamToAnAbsentServerHidesTransportText(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close() // nothing listens there now
	ts := httptest.NewServer(newTestHandler(t, addr))
	t.Cleanup(ts.Close)

	resp := do(t, "GET", ts.URL+"/v1/developer/watch/nifty", "", nil)
	if resp.status != http.StatusServiceUnavailable {
		t.Fatalf("status = %d, want 503; body %s", resp.status, resp.body)
	}
	st := errorBody(t, resp.body)
	if st.GetMessage() != "the mdc server is unavailable; try again later" || strings.Contains(string(resp.body), addr) {
		t.Errorf("body = %s", resp.body)
	}
}
