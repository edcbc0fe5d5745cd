package gateway

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/upstream"
)

// recorder is the shared state of the fake mdc services: what they answer
// and the last request and metadata they received.
type recorder struct {
	mu     sync.Mutex
	err    error         // when set, every method returns it
	delay  time.Duration // every method waits this long (or until canceled)
	health mdcv1.HealthCheckResponse_ServingStatus
	method string
	req    proto.Message
	md     metadata.MD
}

func (r *recorder) record(ctx context.Context, method string, req proto.Message) error {
	md, _ := metadata.FromIncomingContext(ctx)
	r.mu.Lock()
	r.method, r.req, r.md = method, req, md
	err, delay := r.err, r.delay
	r.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}

// reset forgets the last call.
func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.method, r.req, r.md = "", nil, nil
}

func (r *recorder) setError(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.err = err
}

// last returns the last call the fake server received ("" if none).
func (r *recorder) last() (string, proto.Message, metadata.MD) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.method, r.req, r.md
}

type fakeCollector struct {
	mdcv1.UnimplementedCollectorServiceServer
	*recorder
}

func (f fakeCollector) SaveShortlist(ctx context.Context, req *mdcv1.SaveShortlistRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, f.record(ctx, "SaveShortlist", req)
}

func (f fakeCollector) SaveQuotes(ctx context.Context, req *mdcv1.SaveQuotesRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, f.record(ctx, "SaveQuotes", req)
}

func (f fakeCollector) SaveNifty(ctx context.Context, req *mdcv1.SaveNiftyRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, f.record(ctx, "SaveNifty", req)
}

func (f fakeCollector) CheckHoliday(ctx context.Context, req *mdcv1.CheckHolidayRequest) (*mdcv1.CheckHolidayResponse, error) {
	return &mdcv1.CheckHolidayResponse{Date: req.GetDate(), IsTradingDay: true}, f.record(ctx, "CheckHoliday", req)
}

type fakeDeveloper struct {
	mdcv1.UnimplementedDeveloperServiceServer
	*recorder
}

func (f fakeDeveloper) GetQuoteTimeline(ctx context.Context, req *mdcv1.GetQuoteTimelineRequest) (*mdcv1.QuoteTimeline, error) {
	return &mdcv1.QuoteTimeline{NseSymbol: req.GetSymbol()}, f.record(ctx, "GetQuoteTimeline", req)
}

func (f fakeDeveloper) GetNifty(ctx context.Context, req *mdcv1.GetNiftyRequest) (*mdcv1.NiftyQuote, error) {
	resp := &mdcv1.NiftyQuote{QuoteData: &mdcv1.QuoteData{
		Status:  mdcv1.QuoteStatus_SUCCESS,
		Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(24500.5), Volume: proto.Float64(0)},
	}}
	return resp, f.record(ctx, "GetNifty", req)
}

type fakeDashboard struct {
	mdcv1.UnimplementedDashboardServiceServer
	*recorder
}

// SignIn is the gateway's token check (transport.SignInTokenCheck): tokens
// "refused..." are unknown, "throttled..." come from a throttled address,
// and every other token is left to the route (UNIMPLEMENTED: the check
// could not be made), as before the check existed.
// It records nothing: the recorder keeps the route's call.
func (f fakeDashboard) SignIn(_ context.Context, req *mdcv1.SignInRequest) (*mdcv1.Developer, error) {
	switch {
	case strings.HasPrefix(req.GetDeveloperToken(), "refused"):
		return nil, status.Error(codes.Unauthenticated, "unknown or revoked token")
	case strings.HasPrefix(req.GetDeveloperToken(), "throttled"):
		st, _ := status.New(codes.ResourceExhausted, "too many failed tokens from this address").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(7 * time.Second)})
		return nil, st.Err()
	}
	return nil, status.Error(codes.Unimplemented, "not a known fake token")
}

func (f fakeDashboard) UpdateRun(ctx context.Context, req *mdcv1.UpdateRunRequest) (*mdcv1.Run, error) {
	return &mdcv1.Run{Id: req.GetRunId()}, f.record(ctx, "UpdateRun", req)
}

type fakeHealth struct {
	mdcv1.UnimplementedHealthServiceServer
	*recorder
}

func (f fakeHealth) Check(ctx context.Context, req *mdcv1.HealthCheckRequest) (*mdcv1.HealthCheckResponse, error) {
	f.mu.Lock()
	st := f.health
	f.mu.Unlock()
	db := "ok"
	if st != mdcv1.HealthCheckResponse_SERVING {
		db = "unreachable"
	}
	return &mdcv1.HealthCheckResponse{Status: st, Database: db, Version: "test"}, f.record(ctx, "Check", req)
}

// testOptions keep test output free of access log lines.
func testOptions() Options {
	return Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), CallTimeout: 30 * time.Second}
}

// startFakeServer serves the fake mdc services on 127.0.0.1 and returns
// their recorder and address.
func startFakeServer(t testing.TB) (*recorder, string) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{health: mdcv1.HealthCheckResponse_SERVING}
	s := grpc.NewServer()
	mdcv1.RegisterCollectorServiceServer(s, fakeCollector{recorder: rec})
	mdcv1.RegisterDeveloperServiceServer(s, fakeDeveloper{recorder: rec})
	mdcv1.RegisterDashboardServiceServer(s, fakeDashboard{recorder: rec})
	mdcv1.RegisterHealthServiceServer(s, fakeHealth{recorder: rec})
	// grpc.health.v1 says SERVING, as mdc-server's does while it reaches
	// its database: the gateway checks it before sending calls (upstream/servers.go).
	healthpb.RegisterHealthServer(s, health.NewServer())
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	return rec, lis.Addr().String()
}

// newTestHandler returns the gateway handler forwarding to grpcAddr.
func newTestHandler(t *testing.T, grpcAddr string) http.Handler {
	t.Helper()
	return newTestHandlerWith(t, grpcAddr, testOptions())
}

func newTestHandlerWith(t *testing.T, grpcAddr string, o Options) http.Handler {
	t.Helper()
	h, _ := newPooledTestHandler(t, grpcAddr, o)
	return h
}

// newPooledTestHandler is the handler Run builds: unary calls on one
// connection, streaming calls on a pool of their own (returned too).
func newPooledTestHandler(t testing.TB, grpcAddr string, o Options) (http.Handler, *upstream.StreamPool) {
	t.Helper()
	o = o.withDefaults()
	conn, err := upstream.Dial(grpcAddr, o.CallTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	streams, err := upstream.DialStreamPool(grpcAddr, o.CallTimeout, o.StreamsPerConnection)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { streams.Close() })
	h, err := newHandler(context.Background(), conn, nil, streams, o)
	if err != nil {
		t.Fatal(err)
	}
	return h, streams
}

// startGateway runs the gateway over real HTTP in front of a fake server.
func startGateway(t *testing.T) (*recorder, string) {
	t.Helper()
	rec, addr := startFakeServer(t)
	ts := httptest.NewServer(newTestHandler(t, addr))
	t.Cleanup(ts.Close)
	return rec, ts.URL
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends one HTTP request and reads the whole answer.
func do(t *testing.T, method, url, body string, header map[string]string) response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	// Protected routes need a well-formed bearer header (transport/bearer.go); a
	// test that sets "Authorization" (to "" for none) decides itself.
	if _, ok := header["Authorization"]; !ok {
		req.Header.Set("Authorization", "Bearer test-token")
	}
	for k, v := range header {
		if v == "" && k == "Authorization" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}
