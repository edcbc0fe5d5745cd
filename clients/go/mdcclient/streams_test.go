package mdcclient_test

// The stream helpers (streams.go) against a real mdc-server (stack_test.go):
// a watch sees a write made after it opened, a resumed watch misses nothing
// (by cursor, and by itself across a server restart), a replay yields the day
// in order, and failures are gRPC statuses.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// streamsFixture is a server, a developer's connection and a day of its own.
type streamsFixture struct {
	server *mdcServer
	conn   *grpc.ClientConn
	token  string
	day    string
}

func newStreamsFixture(t *testing.T) *streamsFixture {
	t.Helper()
	s := startMdcServer(t)
	token := s.newDeveloper(t, "go-streams-")
	conn := s.dial(t, token)
	return &streamsFixture{server: s, conn: conn, token: token, day: "2043-03-02"}
}

// testContext ends with the test (and after two minutes in any case, so a
// broken server fails the test instead of hanging it).
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// saveQuote stores one quote of symbol at the IST wall clock hh:mm of the
// day. The writes wait for the connection to be ready: after a server
// restart it may be between attempts to reconnect.
func (f *streamsFixture) saveQuote(t *testing.T, symbol, clock string, price float64) {
	t.Helper()
	_, err := mdcv1.NewCollectorServiceClient(f.conn).SaveQuotes(testContext(t), &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
		Timestamp: f.day + "T" + clock + ":00", Timezone: "Asia/Kolkata",
		Quotes: []*mdcv1.QuoteItem{{NseSymbol: symbol, QuoteData: &mdcv1.QuoteData{
			Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(price)}}}},
	}}, grpc.WaitForReady(true))
	if err != nil {
		t.Fatalf("SaveQuotes %s %s: %v", symbol, clock, err)
	}
}

func (f *streamsFixture) saveNifty(t *testing.T, clock string) {
	t.Helper()
	_, err := mdcv1.NewCollectorServiceClient(f.conn).SaveNifty(testContext(t), &mdcv1.SaveNiftyRequest{Data: &mdcv1.NiftyData{
		Timestamp: f.day + "T" + clock + ":00", Timezone: "Asia/Kolkata", DayChangePerc: proto.Float64(0.5),
		QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(22000)}},
	}}, grpc.WaitForReady(true))
	if err != nil {
		t.Fatalf("SaveNifty %s: %v", clock, err)
	}
}

// key names an event's record: "Q SYMBOL hh:mm" or "N hh:mm" (IST).
func key(e *mdcv1.MarketEvent) string {
	ist := time.FixedZone("IST", 5*3600+1800)
	switch {
	case e.GetQuote() != nil:
		return "Q " + e.GetQuote().GetNseSymbol() + " " + e.GetQuote().GetTimestamp().AsTime().In(ist).Format("15:04")
	case e.GetNifty() != nil:
		return "N " + e.GetNifty().GetTimestamp().AsTime().In(ist).Format("15:04")
	}
	return fmt.Sprintf("? %v", e)
}

// take reads n events, failing when the stream ends before.
func take(t *testing.T, s *mdcclient.EventStream, n int) []string {
	t.Helper()
	var keys []string
	for len(keys) < n {
		if !s.Next() {
			t.Fatalf("the stream ended after %d of %d events: %v", len(keys), n, s.Err())
		}
		if s.Event().GetCursor() == "" {
			t.Fatalf("event %s has no cursor", key(s.Event()))
		}
		keys = append(keys, key(s.Event()))
	}
	return keys
}

// replayed reads a replay to its end.
func replayed(t *testing.T, s *mdcclient.EventStream) []string {
	t.Helper()
	var keys []string
	for s.Next() {
		keys = append(keys, key(s.Event()))
	}
	if err := s.Err(); err != nil {
		t.Fatalf("replay after %d events: %v", len(keys), err)
	}
	return keys
}

func TestWatchReceivesAWriteMadeAfterItOpened(t *testing.T) {
	f := newStreamsFixture(t)
	sym := "W" + strings.ToUpper(randomHex(t, 3))
	watch, err := mdcclient.WatchQuotes(testContext(t), f.conn, &mdcv1.WatchQuotesRequest{Symbols: []string{sym, "NOT" + sym}})
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	opened := watch.Cursor()
	if opened == "" {
		t.Fatal("an open watch has no cursor")
	}
	f.saveQuote(t, "X"+sym, "09:14", 1)
	f.saveQuote(t, sym, "09:15", 101.5)
	if got := take(t, watch, 1); got[0] != "Q "+sym+" 09:15" {
		t.Fatalf("got %v", got)
	}
	if p := watch.Event().GetQuote().GetQuoteData().GetPayload().GetLastPrice(); p != 101.5 {
		t.Errorf("last_price %v, want 101.5", p)
	}
	if watch.Cursor() != watch.Event().GetCursor() || watch.Cursor() == opened {
		t.Errorf("cursor %q after event %q (opened at %q)", watch.Cursor(), watch.Event().GetCursor(), opened)
	}
	// Close ends the iteration without an error.
	watch.Close()
	if watch.Next() || watch.Err() != nil {
		t.Errorf("after Close: Next true or Err %v", watch.Err())
	}
}

func TestWatchResumedFromACursorMissesNothing(t *testing.T) {
	f := newStreamsFixture(t)
	sym := "R" + strings.ToUpper(randomHex(t, 3))
	first, err := mdcclient.WatchQuotes(testContext(t), f.conn, &mdcv1.WatchQuotesRequest{Symbols: []string{sym}})
	if err != nil {
		t.Fatal(err)
	}
	f.saveQuote(t, sym, "09:15", 1)
	take(t, first, 1)
	cursor := first.Cursor()
	first.Close()
	// While nobody watches: two new quotes, and the first one replaced.
	f.saveQuote(t, sym, "09:16", 2)
	f.saveQuote(t, sym, "09:17", 3)
	f.saveQuote(t, sym, "09:15", 4)

	resumed, err := mdcclient.WatchQuotes(testContext(t), f.conn, &mdcv1.WatchQuotesRequest{Symbols: []string{sym}, Cursor: cursor})
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	got := take(t, resumed, 3)
	if p := resumed.Event().GetQuote().GetQuoteData().GetPayload().GetLastPrice(); p != 4 {
		t.Errorf("the replaced quote came with last_price %v, want the latest, 4", p)
	}
	f.saveQuote(t, sym, "09:18", 5)
	got = append(got, take(t, resumed, 1)...)
	want := []string{"Q " + sym + " 09:16", "Q " + sym + " 09:17", "Q " + sym + " 09:15", "Q " + sym + " 09:18"}
	if !slices.Equal(got, want) {
		t.Fatalf("resumed watch got %v, want %v", got, want)
	}
}

func TestWatchResumesByItselfAcrossAServerRestart(t *testing.T) {
	f := newStreamsFixture(t)
	sym := "S" + strings.ToUpper(randomHex(t, 3))
	ctx := testContext(t)
	// Patient enough to outlast the server's restart.
	watch, err := mdcclient.WatchQuotes(ctx, f.conn, &mdcv1.WatchQuotesRequest{Symbols: []string{sym}},
		mdcclient.ResumeRetries(50), mdcclient.ResumeBackoff(50*time.Millisecond, 500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	broken, err := mdcclient.WatchQuotes(ctx, f.conn, &mdcv1.WatchQuotesRequest{Symbols: []string{sym}}, mdcclient.ResumeRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	defer broken.Close()
	f.saveQuote(t, sym, "10:00", 1)
	take(t, watch, 1)
	take(t, broken, 1)

	// The server shuts down (its watches end UNAVAILABLE) and comes back; the
	// quotes written meanwhile, before either stream reads on, reach the
	// resuming one from the database.
	f.server.stop()
	f.server.start()
	f.saveQuote(t, sym, "10:01", 2)
	f.saveQuote(t, sym, "10:02", 3)
	if got, want := take(t, watch, 2), []string{"Q " + sym + " 10:01", "Q " + sym + " 10:02"}; !slices.Equal(got, want) {
		t.Fatalf("after the restart: got %v, want %v", got, want)
	}
	f.saveQuote(t, sym, "10:03", 4)
	if got := take(t, watch, 1); got[0] != "Q "+sym+" 10:03" {
		t.Fatalf("live after the restart: got %v", got)
	}

	// Without resuming, the stream ends with the server's status.
	if broken.Next() {
		t.Fatalf("the watch without resuming went on: %s", key(broken.Event()))
	}
	if st := status.Convert(broken.Err()); st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "shutting down") {
		t.Fatalf("Err() = %v, want Unavailable (shutting down)", broken.Err())
	}
}

// A proxy between the client and the server black-holes the watches'
// connections (no reset, no error: nothing). Only the idle timeout can
// notice; the watch then closes its connection and resumes on a new one
// through the proxy from its cursor, getting what was written meanwhile,
// once each.
func TestWatchWhoseConnectionDiesSilentlyReconnectsAfterItsIdleTimeout(t *testing.T) {
	f := newStreamsFixture(t)
	sym := "H" + strings.ToUpper(randomHex(t, 3))
	proxy := startBlackHoleProxy(t, f.server.addr)
	// A stream blocked for ever fails the test instead of hanging it.
	ctx, cancel := context.WithTimeout(testContext(t), time.Minute)
	defer cancel()
	// Heartbeats keep a healthy watch under its idle timeout.
	idle := mdcclient.IdleTimeout(2 * watchHeartbeat)
	req := &mdcv1.WatchQuotesRequest{Symbols: []string{sym}}
	// Each watch on a connection of its own: closing one's does not cut the other.
	watchOver := func(opts ...mdcclient.StreamOption) *mdcclient.EventStream {
		t.Helper()
		conn, err := mdcclient.Dial(proxy.addr(), f.token)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		s, err := mdcclient.WatchQuotes(ctx, conn, req, append(opts, idle)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	watch := watchOver(mdcclient.ResumeRetries(5), mdcclient.ResumeBackoff(100*time.Millisecond, 500*time.Millisecond))
	fragile := watchOver(mdcclient.ResumeRetries(0))
	f.saveQuote(t, sym, "11:00", 1) // writes bypass the proxy
	take(t, watch, 1)
	take(t, fragile, 1)

	proxy.blackHole()
	accepted := proxy.accepted.Load()
	f.saveQuote(t, sym, "11:01", 2)
	f.saveQuote(t, sym, "11:02", 3)
	if got, want := take(t, watch, 2), []string{"Q " + sym + " 11:01", "Q " + sym + " 11:02"}; !slices.Equal(got, want) {
		t.Fatalf("after the black hole: got %v, want %v", got, want)
	}
	if proxy.accepted.Load() <= accepted {
		t.Errorf("the watch went on without a new connection through the proxy")
	}
	f.saveQuote(t, sym, "11:03", 4)
	if got := take(t, watch, 1); got[0] != "Q "+sym+" 11:03" {
		t.Fatalf("live after reconnecting: got %v", got)
	}

	// Without resuming, the silence is the error that ends the stream.
	if fragile.Next() {
		t.Fatalf("the watch without resuming went on: %s", key(fragile.Event()))
	}
	if st := status.Convert(fragile.Err()); st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "no message for") {
		t.Fatalf("Err() = %v, want Unavailable (no message for ...)", fragile.Err())
	}
}

func TestReplayDayYieldsTheDayInOrder(t *testing.T) {
	f := newStreamsFixture(t)
	a, b := "RA"+strings.ToUpper(randomHex(t, 3)), "RB"+strings.ToUpper(randomHex(t, 3))
	for _, clock := range []string{"09:15", "10:00"} {
		f.saveQuote(t, b, clock, 2)
		f.saveQuote(t, a, clock, 1)
		f.saveNifty(t, clock)
	}
	want := []string{"N 09:15", "Q " + a + " 09:15", "Q " + b + " 09:15", "N 10:00", "Q " + a + " 10:00", "Q " + b + " 10:00"}
	replay := func(ctx context.Context, cursor string) *mdcclient.EventStream {
		t.Helper()
		s, err := mdcclient.ReplayDay(ctx, f.conn, &mdcv1.ReplayDayRequest{Date: f.day, Symbols: []string{a, b}, Kinds: []string{"quotes", "nifty"}, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ctx := testContext(t)
	whole := replay(ctx, "")
	var cursors []string
	var got []string
	for whole.Next() {
		got = append(got, key(whole.Event()))
		cursors = append(cursors, whole.Event().GetCursor())
	}
	if whole.Err() != nil || !slices.Equal(got, want) {
		t.Fatalf("replay of %s: %v (err %v), want %v", f.day, got, whole.Err(), want)
	}
	for i, c := range cursors {
		if rest := replayed(t, replay(ctx, c)); !slices.Equal(rest, want[i+1:]) {
			t.Errorf("after event %d: %v, want %v", i, rest, want[i+1:])
		}
	}
	clock, err := time.ParseInLocation("2006-01-02T15:04", f.day+"T10:00", time.FixedZone("IST", 5*3600+1800))
	if err != nil {
		t.Fatal(err)
	}
	if cut := replayed(t, replay(mdcclient.WithBacktestClock(ctx, clock), "")); !slices.Equal(cut, want[:3]) {
		t.Errorf("under the backtest clock at 10:00: %v, want %v", cut, want[:3])
	}
}

func TestStreamFailuresAreGRPCStatuses(t *testing.T) {
	f := newStreamsFixture(t)
	ctx := testContext(t)
	stranger, err := mdcclient.Dial(f.server.addr, randomToken(t))
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	if _, err := mdcclient.WatchNifty(ctx, stranger, &mdcv1.WatchNiftyRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("watch with an unknown token: %v, want Unauthenticated", err)
	}
	if _, err := mdcclient.ReplayDay(ctx, stranger, &mdcv1.ReplayDayRequest{Date: f.day}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("replay with an unknown token: %v, want Unauthenticated", err)
	}
	if _, err := mdcclient.WatchQuotes(ctx, f.conn, &mdcv1.WatchQuotesRequest{Symbols: []string{"NOT A SYMBOL"}}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("bad symbol: %v, want InvalidArgument", err)
	}
	if _, err := mdcclient.ReplayDay(ctx, f.conn, &mdcv1.ReplayDayRequest{Date: "2024-02-30"}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("bad date: %v, want InvalidArgument", err)
	}
	clocked := mdcclient.WithBacktestClock(ctx, time.Date(2024, 1, 2, 5, 0, 0, 0, time.UTC))
	if _, err := mdcclient.WatchNifty(clocked, f.conn, &mdcv1.WatchNiftyRequest{}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("watch under the backtest clock: %v, want FailedPrecondition", err)
	}
}
