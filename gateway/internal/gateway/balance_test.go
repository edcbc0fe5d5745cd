package gateway

// Several servers behind one gateway, in process: real gRPC servers on
// loopback ports with grpc.health.v1, the gateway's real Dial and handler.

import (
	"context"
	"crypto/tls"
	"fmt"
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
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/testcert"
	"mdc/gateway/internal/upstream"
)

// member is one fake mdc server: it counts the calls it answers and fails
// those of a method when told to.
type member struct {
	addr   string
	srv    *grpc.Server
	health *health.Server

	mu       sync.Mutex
	calls    map[string]int
	failWith map[string]error
	// checkSays, when set, is what mdc.v1 HealthService.Check answers
	// whatever grpc.health.v1 says.
	checkSays *mdcv1.HealthCheckResponse_ServingStatus
	hanging   sync.Once
	ready     chan struct{} // closed when a CheckHoliday call hangs
}

func (m *member) answer(method string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls[method]++
	return m.failWith[method]
}

func (m *member) count(method string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls[method]
}

func (m *member) fail(method string, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failWith[method] = err
}

type memberCollector struct {
	mdcv1.UnimplementedCollectorServiceServer
	m *member
}

func (c memberCollector) SaveQuotes(context.Context, *mdcv1.SaveQuotesRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, c.m.answer("SaveQuotes")
}

// CheckHoliday answers only when the call is cut: it stands for a call in
// flight when its server dies.
func (c memberCollector) CheckHoliday(ctx context.Context, req *mdcv1.CheckHolidayRequest) (*mdcv1.CheckHolidayResponse, error) {
	if err := c.m.answer("CheckHoliday"); err != nil {
		if status.Code(err) == codes.Aborted { // the signal to hang
			c.m.hanging.Do(func() { close(c.m.ready) })
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return nil, err
	}
	return &mdcv1.CheckHolidayResponse{Date: req.GetDate(), IsTradingDay: true}, nil
}

type memberDashboard struct {
	mdcv1.UnimplementedDashboardServiceServer
	m *member
}

func (d memberDashboard) CreateRun(context.Context, *mdcv1.CreateRunRequest) (*mdcv1.Run, error) {
	return &mdcv1.Run{Id: "1"}, d.m.answer("CreateRun")
}

type memberHealth struct {
	mdcv1.UnimplementedHealthServiceServer
	m *member
}

func (h memberHealth) Check(context.Context, *mdcv1.HealthCheckRequest) (*mdcv1.HealthCheckResponse, error) {
	_ = h.m.answer("Check")
	h.m.mu.Lock()
	says := h.m.checkSays
	h.m.mu.Unlock()
	resp, _ := h.m.health.Check(context.Background(), &healthpb.HealthCheckRequest{})
	if says != nil && *says == mdcv1.HealthCheckResponse_SERVING ||
		says == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
		return &mdcv1.HealthCheckResponse{Status: mdcv1.HealthCheckResponse_SERVING, Database: "ok"}, nil
	}
	return &mdcv1.HealthCheckResponse{Status: mdcv1.HealthCheckResponse_NOT_SERVING, Database: "unreachable"}, nil
}

// startMember serves a fake mdc server on addr ("": a free port).
func startMember(t *testing.T, addr string, opts ...grpc.ServerOption) *member {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	m := &member{addr: lis.Addr().String(), srv: grpc.NewServer(opts...), health: health.NewServer(),
		calls: map[string]int{}, failWith: map[string]error{}, ready: make(chan struct{})}
	mdcv1.RegisterCollectorServiceServer(m.srv, memberCollector{m: m})
	mdcv1.RegisterDashboardServiceServer(m.srv, memberDashboard{m: m})
	mdcv1.RegisterHealthServiceServer(m.srv, memberHealth{m: m})
	healthpb.RegisterHealthServer(m.srv, m.health)
	go func() { _ = m.srv.Serve(lis) }()
	t.Cleanup(m.srv.Stop)
	return m
}

// setServing publishes the server's grpc.health.v1 status for "".
func (m *member) setServing(serving bool) {
	st := healthpb.HealthCheckResponse_NOT_SERVING
	if serving {
		st = healthpb.HealthCheckResponse_SERVING
	}
	m.health.SetServingStatus("", st)
}

// startBalancedGateway serves the gateway in front of members, given as
// one comma-separated MDC_GRPC_ADDR, with /health's probe as Run has it.
func startBalancedGateway(t *testing.T, members ...*member) string {
	t.Helper()
	var addrs []string
	for _, m := range members {
		addrs = append(addrs, m.addr)
	}
	return startGatewayFor(t, strings.Join(addrs, ","))
}

// startGatewayFor serves the gateway for MDC_GRPC_ADDR list, dialing with
// opts.
func startGatewayFor(t *testing.T, list string, opts ...grpc.DialOption) string {
	t.Helper()
	o := testOptions()
	conn, err := upstream.Dial(list, o.CallTimeout, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	probe, err := upstream.Dial(list, o.CallTimeout, append(opts, grpc.WithDefaultServiceConfig(upstream.AnyServerServiceConfig))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { probe.Close() })
	h, err := newHandler(context.Background(), conn, probe, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

const quotesBody = `{"data":{"timestamp":"2025-01-02T10:00:00","timezone":"UTC","quotes":[{"nseSymbol":"A","quoteData":{"status":"SUCCESS","payload":{"last_price":1}}}]}}`

func postQuotes(t *testing.T, base string) int {
	t.Helper()
	return do(t, "POST", base+"/v1/developer/collector/quotes", quotesBody, nil).status
}

// waitUntil polls cond every 10 ms for at most 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
	}
}

// bothServing sends writes until each member has answered one: both
// connections are up and healthy.
func bothServing(t *testing.T, base string, a, b *member) {
	t.Helper()
	waitUntil(t, "both servers get calls", func() bool {
		if s := postQuotes(t, base); s != http.StatusOK {
			t.Fatalf("write: %d", s)
		}
		return a.count("SaveQuotes") > 0 && b.count("SaveQuotes") > 0
	})
}

// untilNoCallsTo sends writes until m gets none: the gateway heard m's
// NOT_SERVING over the health watch (until then a call may still go to m).
func untilNoCallsTo(t *testing.T, base string, m *member) {
	t.Helper()
	waitUntil(t, "the NOT_SERVING reaches the gateway", func() bool {
		before := m.count("SaveQuotes")
		for i := 0; i < 4; i++ {
			postQuotes(t, base)
		}
		return m.count("SaveQuotes") == before
	})
}

func TestCallsAreSpreadOverTheServers(t *testing.T) {
	a, b := startMember(t, ""), startMember(t, "")
	base := startBalancedGateway(t, a, b)
	bothServing(t, base, a, b)
	a0, b0 := a.count("SaveQuotes"), b.count("SaveQuotes")
	const n = 40
	for i := 0; i < n; i++ {
		if s := postQuotes(t, base); s != http.StatusOK {
			t.Fatalf("write %d: %d", i, s)
		}
	}
	// Round robin: one call each in turn.
	if da, db := a.count("SaveQuotes")-a0, b.count("SaveQuotes")-b0; da != n/2 || db != n/2 {
		t.Errorf("%d calls went %d / %d; want %d each", n, da, db, n/2)
	}
}

// A server that reports NOT_SERVING (its database is gone, or it drains)
// gets no calls; when it serves again it gets them again.
func TestAnUnhealthyServerGetsNoCalls(t *testing.T) {
	a, b := startMember(t, ""), startMember(t, "")
	base := startBalancedGateway(t, a, b)
	bothServing(t, base, a, b)

	a.setServing(false)
	untilNoCallsTo(t, base, a)
	a0 := a.count("SaveQuotes")
	for i := 0; i < 20; i++ {
		if s := postQuotes(t, base); s != http.StatusOK {
			t.Fatalf("write %d: %d", i, s)
		}
	}
	if n := a.count("SaveQuotes") - a0; n != 0 {
		t.Errorf("the NOT_SERVING server got %d calls", n)
	}

	a.setServing(true)
	waitUntil(t, "a gets calls again", func() bool {
		postQuotes(t, base)
		return a.count("SaveQuotes") > a0
	})
}

// An idempotent call the server cancels (as a draining server does with the
// calls it has not started) is answered by the other server; a create is
// not sent again, its client gets 503.
func TestCancelledByTheServerIsRetriedOnAnotherServerForIdempotentCallsOnly(t *testing.T) {
	a, b := startMember(t, ""), startMember(t, "")
	base := startBalancedGateway(t, a, b)
	bothServing(t, base, a, b)
	cancelled := status.Error(codes.Canceled, "cancelled while shutting down")
	a.fail("SaveQuotes", cancelled)
	a.fail("CreateRun", cancelled)

	a0, b0 := a.count("SaveQuotes"), b.count("SaveQuotes")
	for i := 0; i < 20; i++ {
		if s := postQuotes(t, base); s != http.StatusOK {
			t.Fatalf("write %d: %d, want 200 (retried on the other server)", i, s)
		}
	}
	if da, db := a.count("SaveQuotes")-a0, b.count("SaveQuotes")-b0; da == 0 || db != 20 {
		t.Errorf("a cancelled %d attempts, b answered %d of 20; want b all 20 after a's cancellations", da, db)
	}

	refused := 0
	for i := 0; i < 20; i++ {
		r := do(t, "POST", base+"/v1/dashboard/runs", `{"startDatetime":"2025-01-02T10:00:00","endDatetime":"2025-01-02T11:00:00"}`, nil)
		switch r.status {
		case http.StatusOK:
		case http.StatusServiceUnavailable:
			refused++
		default:
			t.Fatalf("create run: %d %s", r.status, r.body)
		}
	}
	if got := a.count("CreateRun"); refused != got || refused == 0 {
		t.Errorf("%d creates answered 503, a cancelled %d: each must reach the client, none be retried", refused, got)
	}
}

// An UNAVAILABLE the server answers itself (its database is unreachable,
// or timed out) is about the database every server shares: not sent again.
func TestAServersOwnUnavailableIsNotRetried(t *testing.T) {
	a, b := startMember(t, ""), startMember(t, "")
	base := startBalancedGateway(t, a, b)
	bothServing(t, base, a, b)
	for _, answer := range []error{
		status.Error(codes.Unavailable, "database unavailable"),
		withReason(codes.Unavailable, "DATABASE_TIMEOUT"),
	} {
		a.fail("SaveQuotes", answer)
		b.fail("SaveQuotes", answer)
		a0, b0 := a.count("SaveQuotes"), b.count("SaveQuotes")
		if s := postQuotes(t, base); s != http.StatusServiceUnavailable {
			t.Fatalf("%v: status %d, want 503", answer, s)
		}
		if n := a.count("SaveQuotes") - a0 + b.count("SaveQuotes") - b0; n != 1 {
			t.Errorf("%v: %d attempts, want 1", answer, n)
		}
	}
}

// A call in flight on a server that stops (its connection is cut) is
// answered by the other server.
func TestACallCutByItsServersDeathIsRetried(t *testing.T) {
	a, b := startMember(t, ""), startMember(t, "")
	base := startBalancedGateway(t, a, b)
	bothServing(t, base, a, b)
	hang := status.Error(codes.Aborted, "hang")
	a.fail("CheckHoliday", hang)
	b.fail("CheckHoliday", hang)

	// The call hangs on whichever server it reached; that server is then
	// stopped hard and the other answers.
	type result struct {
		status int
		body   string
	}
	results := make(chan result, 1)
	go func() {
		r := do(t, "GET", base+"/v1/developer/collector/check-holiday?date=2025-01-02", "", nil)
		results <- result{r.status, string(r.body)}
	}()
	var dying, other *member
	select {
	case <-a.ready:
		dying, other = a, b
	case <-b.ready:
		dying, other = b, a
	case <-time.After(10 * time.Second):
		t.Fatal("no call reached a server")
	}
	other.fail("CheckHoliday", nil)
	dying.srv.Stop() // closes its connections: the call in flight is cut
	select {
	case r := <-results:
		if r.status != http.StatusOK || other.count("CheckHoliday") != 1 {
			t.Errorf("%d %s (the other server answered %d), want 200 from the other server",
				r.status, r.body, other.count("CheckHoliday"))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end")
	}
}

// /health is 200 while any server is healthy; with none, 503 with the body
// of a server that answers (why it is not serving).
func TestHealthAnswersForAnyHealthyServer(t *testing.T) {
	a, b := startMember(t, ""), startMember(t, "")
	base := startBalancedGateway(t, a, b)
	bothServing(t, base, a, b)

	// a has lost its database but not told the gateway yet: b answers.
	notServing := mdcv1.HealthCheckResponse_NOT_SERVING
	a.mu.Lock()
	a.checkSays = &notServing
	a.mu.Unlock()
	for i := 0; i < 6; i++ {
		if r := do(t, "GET", base+"/health", "", nil); r.status != http.StatusOK || !strings.Contains(string(r.body), `"SERVING"`) {
			t.Fatalf("a NOT_SERVING to Check, b healthy: %d %s", r.status, r.body)
		}
	}
	a.mu.Lock()
	a.checkSays = nil
	a.mu.Unlock()

	a.setServing(false)
	untilNoCallsTo(t, base, a)
	for i := 0; i < 6; i++ {
		if r := do(t, "GET", base+"/health", "", nil); r.status != http.StatusOK || !strings.Contains(string(r.body), `"SERVING"`) {
			t.Fatalf("one server healthy: %d %s", r.status, r.body)
		}
	}

	b.setServing(false)
	// Until the balancer itself has taken b out: before that, a 503 can come
	// from b's own Check, and the Check-only SERVING below would reach b.
	untilNoCallsTo(t, base, b)
	waitUntil(t, "health follows both servers", func() bool {
		r := do(t, "GET", base+"/health", "", nil)
		return r.status == http.StatusServiceUnavailable
	})
	r := do(t, "GET", base+"/health", "", nil)
	if r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), `"NOT_SERVING"`) ||
		!strings.Contains(string(r.body), `"unreachable"`) {
		t.Errorf("no server healthy: %d %s; want 503 with a server's NOT_SERVING answer", r.status, r.body)
	}

	// A server that reaches its database again but has not said so over
	// grpc.health.v1 yet: still 503, since no call would reach it.
	serving := mdcv1.HealthCheckResponse_SERVING
	a.mu.Lock()
	a.checkSays = &serving
	a.mu.Unlock()
	b.mu.Lock()
	b.checkSays = &serving
	b.mu.Unlock()
	r = do(t, "GET", base+"/health", "", nil)
	if r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "no mdc server reports itself healthy yet") {
		t.Errorf("servers say SERVING to Check only: %d %s; want 503", r.status, r.body)
	}

	// No server answers at all.
	a.srv.Stop()
	b.srv.Stop()
	r = do(t, "GET", base+"/health", "", nil)
	if r.status != http.StatusServiceUnavailable || strings.Contains(string(r.body), "127.0.0.1") {
		t.Errorf("no server at all: %d %s; want 503 without transport details", r.status, r.body)
	}
}

// With a list the gateway keeps working on the servers that are up, and a
// server that comes back on its address gets calls again.
func TestAServerThatComesBackRejoins(t *testing.T) {
	a, b := startMember(t, ""), startMember(t, "")
	base := startBalancedGateway(t, a, b)
	bothServing(t, base, a, b)
	addr := a.addr
	a.srv.Stop()
	for i := 0; i < 20; i++ {
		if s := postQuotes(t, base); s != http.StatusOK {
			t.Fatalf("write %d with one server down: %d", i, s)
		}
	}
	back := startMember(t, addr)
	waitUntil(t, fmt.Sprintf("the server back on %s gets calls (reconnect within %v)", addr, upstream.MaxReconnectDelay), func() bool {
		postQuotes(t, base)
		return back.count("SaveQuotes") > 0
	})
}

// Over TLS, each server of a list is checked against its own host name
// (the certificates here name localhost only, not 127.0.0.1).
func TestAListOverTLSChecksEachServersName(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := testcert.WriteKeyPair(t, dir, "server")
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	creds := grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	a, b := startMember(t, "", creds), startMember(t, "", creds)
	transport, err := upstream.Credentials(certFile, "")
	if err != nil {
		t.Fatal(err)
	}
	byName := func(m *member) string { return strings.Replace(m.addr, "127.0.0.1", "localhost", 1) }

	base := startGatewayFor(t, byName(a)+","+byName(b), transport)
	bothServing(t, base, a, b)

	// The same servers by address: no certificate names 127.0.0.1.
	base = startGatewayFor(t, a.addr+","+b.addr, transport)
	if s := postQuotes(t, base); s != http.StatusServiceUnavailable {
		t.Errorf("servers whose certificates do not name them: %d, want 503", s)
	}
}

// withReason is an error of code with a google.rpc.ErrorInfo reason.
func withReason(code codes.Code, reason string) error {
	st, err := status.New(code, "x").WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: "mdc.v1"})
	if err != nil {
		panic(err)
	}
	return st.Err()
}
