package e2e

// Streams (docs/api.md "Streams"): watches see committed writes of any
// server, resume without loss, end a watcher that does not read; day replay
// is the union of the day's timelines in order, resumable, cut by the
// backtest clock; access rules as for the reads.

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

// uniqueDay is a random trading date (YYYY-MM-DD) far from other tests'.
func uniqueDay(t *testing.T) string {
	t.Helper()
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	n := binary.BigEndian.Uint32(b[:]) % (20 * 365)
	return time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(n)).Format("2006-01-02")
}

// istKey is an eventKey instant for an IST wall clock on day.
func istKey(t *testing.T, day, clock string) string {
	t.Helper()
	at, err := time.ParseInLocation("2006-01-02T15:04:05", day+"T"+clock, time.FixedZone("IST", 5*3600+1800))
	if err != nil {
		t.Fatal(err)
	}
	return at.UTC().Format(time.RFC3339)
}

func TestWatchSeesWritesOfAnotherServer(t *testing.T) {
	shared := SharedStack(t)
	other := secondServer(t, shared)
	_, token := shared.NewDeveloper(t, "developer")
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, shared))
	ctx := withToken(streamContext(t), token)
	day := uniqueDay(t)
	sym := uniqueSymbol(t, "W")

	quotes, err := client.WatchQuotes(ctx, &mdcv1.WatchQuotesRequest{Symbols: []string{sym, "NOT" + sym}})
	if err != nil {
		t.Fatal(err)
	}
	nifty, err := client.WatchNifty(ctx, &mdcv1.WatchNiftyRequest{})
	if err != nil {
		t.Fatal(err)
	}
	lists, err := client.WatchShortlists(ctx, &mdcv1.WatchShortlistsRequest{Type: "top-gainers", Scope: "FULL"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []watchStream{quotes, nifty, lists} {
		expectHello(t, s)
	}

	// Written through the other server (its gateway): only PostgreSQL
	// connects the two.
	postQuotes(t, other, token, uniqueSymbol(t, "X"), devQuote{at: day + "T09:15:00", price: 1})
	postQuotes(t, other, token, sym, devQuote{at: day + "T09:16:00", price: 10})
	got := recvEvents(t, quotes, 1)
	if want := "Q " + sym + " " + istKey(t, day, "09:16:00"); eventKey(got[0]) != want {
		t.Fatalf("quote watch got %s, want %s", eventKey(got[0]), want)
	}
	if p := got[0].GetQuote().GetQuoteData().GetPayload().GetLastPrice(); p != 10 {
		t.Errorf("last_price = %v, want 10", p)
	}

	postNifty(t, other, token, devQuote{at: day + "T09:17:00", price: 22000})
	if k := eventKey(firstMatching(t, nifty, "N "+istKey(t, day, "09:17:00"))); k == "" {
		t.Fatal("no NIFTY event")
	}
	postShortlist(t, other, token, "TOP_GAINERS", "TOP_5", day+"T09:18:00", "AAA")
	postShortlist(t, other, token, "TOP_GAINERS", "FULL", day+"T09:18:00", "BBB", "CCC")
	e := firstMatching(t, lists, "S TOP_GAINERS FULL "+istKey(t, day, "09:18:00"))
	if n := len(e.GetShortlist().GetEntries()); n != 2 {
		t.Errorf("shortlist event has %d entries, want 2", n)
	}
}

// secondServer starts another server (and gateway) on s's database. It
// bootstraps the same admin token, which would otherwise replace s's.
func secondServer(t *testing.T, s *Stack) *Stack {
	t.Helper()
	return StartStackWith(t, StackOptions{DatabaseURL: s.DatabaseURL(), Env: []string{"MDC_ADMIN_TOKEN=" + s.AdminToken()}})
}

// firstMatching reads a watch until an event with key want arrives; events
// of other tests on the shared stack may come first.
func firstMatching(t *testing.T, s watchStream, want string) *mdcv1.MarketEvent {
	t.Helper()
	for {
		for _, e := range recvEvents(t, s, 1) {
			if eventKey(e) == want {
				return e
			}
		}
	}
}

func TestWatchResumeMissesNothing(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))
	day := uniqueDay(t)
	sym := uniqueSymbol(t, "R")
	key := func(clock string) string { return "Q " + sym + " " + istKey(t, day, clock) }

	ctx, cancel := context.WithCancel(withToken(streamContext(t), token))
	first, err := client.WatchQuotes(ctx, &mdcv1.WatchQuotesRequest{Symbols: []string{sym}})
	if err != nil {
		t.Fatal(err)
	}
	hello := expectHello(t, first)
	postQuotes(t, s, token, sym, devQuote{at: day + "T09:15:00", price: 1})
	got := recvEvents(t, first, 1)
	cursor := got[0].GetCursor()
	cancel()

	// While nobody watches: two new quotes, and the first one replaced.
	postQuotes(t, s, token, sym, devQuote{at: day + "T09:16:00", price: 2}, devQuote{at: day + "T09:17:00", price: 3},
		devQuote{at: day + "T09:15:00", price: 4})

	resumed, err := client.WatchQuotes(withToken(streamContext(t), token), &mdcv1.WatchQuotesRequest{Symbols: []string{sym}, Cursor: cursor})
	if err != nil {
		t.Fatal(err)
	}
	if c := expectHello(t, resumed); c != cursor {
		t.Errorf("resumed watch starts at cursor %s, want %s", c, cursor)
	}
	missed := recvEvents(t, resumed, 3)
	postQuotes(t, s, token, sym, devQuote{at: day + "T09:18:00", price: 5})
	live := recvEvents(t, resumed, 1)
	want := []string{key("09:16:00"), key("09:17:00"), key("09:15:00"), key("09:18:00")}
	if gotKeys := keysOf(append(missed, live...)); !slices.Equal(gotKeys, want) {
		t.Fatalf("resumed watch got %v, want %v", gotKeys, want)
	}
	if p := missed[2].GetQuote().GetQuoteData().GetPayload().GetLastPrice(); p != 4 {
		t.Errorf("the replaced quote came back with last_price %v, want the latest, 4", p)
	}

	// From the very first cursor (before any event): everything, in commit
	// order.
	again, err := client.WatchQuotes(withToken(streamContext(t), token), &mdcv1.WatchQuotesRequest{Symbols: []string{sym}, Cursor: hello})
	if err != nil {
		t.Fatal(err)
	}
	expectHello(t, again)
	if gotKeys := keysOf(recvEvents(t, again, 4)); !slices.Equal(gotKeys, want) {
		t.Fatalf("watch from the first cursor got %v, want %v", gotKeys, want)
	}
}

// Concurrent writers on two servers while a watcher keeps disconnecting and
// resuming from the last cursor it received: it gets every quote once.
func TestWatchResumeUnderConcurrentWrites(t *testing.T) {
	shared := SharedStack(t)
	other := secondServer(t, shared)
	_, token := shared.NewDeveloper(t, "developer")
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, shared))
	day := uniqueDay(t)
	const writers, perWriter = 4, 40
	symbols := make([]string, writers)
	for w := range symbols {
		symbols[w] = uniqueSymbol(t, fmt.Sprintf("C%d", w))
	}

	stream, err := client.WatchQuotes(withToken(streamContext(t), token), &mdcv1.WatchQuotesRequest{Symbols: symbols})
	if err != nil {
		t.Fatal(err)
	}
	cursor := expectHello(t, stream)

	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			target := shared
			if w%2 == 1 {
				target = other
			}
			for i := 0; i < perWriter; i++ {
				at := fmt.Sprintf("%sT10:%02d:%02d", day, i/60, i%60)
				postQuotes(t, target, token, symbols[w], devQuote{at: at, price: i})
			}
		}(w)
	}

	seen := map[string]bool{}
	for len(seen) < writers*perWriter {
		// A few events, then hang up and resume from the last cursor.
		ctx, cancel := context.WithCancel(withToken(streamContext(t), token))
		stream, err := client.WatchQuotes(ctx, &mdcv1.WatchQuotesRequest{Symbols: symbols, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		expectHello(t, stream)
		for _, e := range recvEvents(t, stream, 1) {
			k := eventKey(e)
			if seen[k] {
				t.Fatalf("%s delivered twice", k)
			}
			seen[k] = true
			cursor = e.GetCursor()
		}
		cancel()
	}
	wg.Wait()
}

// replayDayData writes a small day with ties at one instant across kinds
// and returns the keys of its records in replay order.
func replayDayData(t *testing.T, s *Stack, token, day string) []string {
	t.Helper()
	a, b := "RA"+mustRandomHex(t, 3), "RB"+mustRandomHex(t, 3)
	a, b = uniqueSymbol(t, a), uniqueSymbol(t, b)
	if b < a {
		a, b = b, a
	}
	type rec struct {
		clock string
		kind  int
		key   string
		name  string
	}
	var recs []rec
	for _, c := range []string{"09:15:00", "09:16:00", "10:00:00", "15:29:59"} {
		postQuotes(t, s, token, b, devQuote{at: day + "T" + c, price: 2})
		postQuotes(t, s, token, a, devQuote{at: day + "T" + c, price: 1})
		postNifty(t, s, token, devQuote{at: day + "T" + c, price: 20000})
		recs = append(recs, rec{c, 1, a, "Q " + a}, rec{c, 1, b, "Q " + b}, rec{c, 0, "", "N"})
	}
	for _, c := range []string{"09:16:00", "12:00:00"} {
		postShortlist(t, s, token, "VOLUME_SHOCKERS", "TOP_5", day+"T"+c, a)
		postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", day+"T"+c, a, b)
		postShortlist(t, s, token, "TOP_GAINERS", "FULL", day+"T"+c, b)
		recs = append(recs, rec{c, 2, "TOP_GAINERS FULL", "S TOP_GAINERS FULL"},
			rec{c, 2, "TOP_GAINERS TOP_5", "S TOP_GAINERS TOP_5"},
			rec{c, 2, "VOLUME_SHOCKERS TOP_5", "S VOLUME_SHOCKERS TOP_5"})
	}
	// The day's first instant belongs to it.
	postQuotes(t, s, token, a, devQuote{at: day + "T00:00:00", price: 3})
	recs = append(recs, rec{"00:00:00", 1, a, "Q " + a})
	sort.SliceStable(recs, func(i, j int) bool {
		x, y := recs[i], recs[j]
		if x.clock != y.clock {
			return x.clock < y.clock
		}
		if x.kind != y.kind {
			return x.kind < y.kind
		}
		return x.key < y.key
	})
	keys := make([]string, len(recs))
	for i, r := range recs {
		keys[i] = r.name + " " + istKey(t, day, r.clock)
	}
	return keys
}

func TestReplayDayIsTheDayInOrder(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))
	day := uniqueDay(t)
	want := replayDayData(t, s, token, day)
	// The next day's first instant does not belong to it.
	next, _ := time.Parse("2006-01-02", day)
	postNifty(t, s, token, devQuote{at: next.AddDate(0, 0, 1).Format("2006-01-02") + "T00:00:00", price: 1})
	ctx := withToken(streamContext(t), token)

	events := replayAll(t, client, ctx, &mdcv1.ReplayDayRequest{Date: day})
	if got := keysOf(events); !slices.Equal(got, want) {
		t.Fatalf("replay of %s:\n got %v\nwant %v", day, got, want)
	}
	// The same records as the day's timelines read with the other API.
	var timeline []string
	for _, e := range events {
		if q := e.GetQuote(); q != nil {
			timeline = append(timeline, q.GetNseSymbol())
		}
	}
	for _, sym := range []string{timeline[0], timeline[1]} {
		stamps, _ := readTimeline(t, s, token, "/v1/developer/quote-timeline", map[string]string{
			"symbol": sym, "start_datetime": day + "T00:00:00", "end_datetime": day + "T23:59:59"})
		var fromReplay []string
		for _, e := range events {
			if q := e.GetQuote(); q != nil && q.GetNseSymbol() == sym {
				fromReplay = append(fromReplay, q.GetTimestamp().AsTime().UTC().Format(time.RFC3339))
			}
		}
		if !slices.Equal(stamps, fromReplay) {
			t.Errorf("%s: replay has %v, the timeline %v", sym, fromReplay, stamps)
		}
	}

	// Resumed after each event in turn: exactly the rest.
	for i, e := range events {
		rest := replayAll(t, client, ctx, &mdcv1.ReplayDayRequest{Date: day, Cursor: e.GetCursor()})
		if got := keysOf(rest); !slices.Equal(got, want[i+1:]) {
			t.Fatalf("replay after event %d (%s):\n got %v\nwant %v", i, eventKey(e), got, want[i+1:])
		}
	}

	// Kinds and symbols select.
	only := replayAll(t, client, ctx, &mdcv1.ReplayDayRequest{Date: day, Kinds: []string{"nifty", "shortlists"}})
	var wantOnly []string
	for _, k := range want {
		if k[0] != 'Q' {
			wantOnly = append(wantOnly, k)
		}
	}
	if got := keysOf(only); !slices.Equal(got, wantOnly) {
		t.Errorf("kinds=nifty&kinds=shortlists:\n got %v\nwant %v", got, wantOnly)
	}
	sym := timeline[0]
	one := replayAll(t, client, ctx, &mdcv1.ReplayDayRequest{Date: day, Symbols: []string{sym}, Kinds: []string{"quotes"}})
	var wantOne []string
	for _, k := range want {
		if len(k) > len(sym)+2 && k[:len(sym)+3] == "Q "+sym+" " {
			wantOne = append(wantOne, k)
		}
	}
	if got := keysOf(one); !slices.Equal(got, wantOne) {
		t.Errorf("symbols=%s kinds=quotes:\n got %v\nwant %v", sym, got, wantOne)
	}
}

func TestReplayDayHonoursTheBacktestClock(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))
	day := uniqueDay(t)
	want := replayDayData(t, s, token, day)

	clocked := withToken(streamContext(t), token, "x-current-timestamp", day+"T10:00:00")
	var before []string
	for _, k := range want {
		if k[len(k)-20:] < istKey(t, day, "10:00:00") {
			before = append(before, k)
		}
	}
	if got := keysOf(replayAll(t, client, clocked, &mdcv1.ReplayDayRequest{Date: day})); !slices.Equal(got, before) {
		t.Fatalf("replay with the clock at 10:00:\n got %v\nwant %v", got, before)
	}

	// A day that starts at or after the clock is the future.
	atStart := withToken(streamContext(t), token, "x-current-timestamp", day+"T00:00:00")
	stream, err := client.ReplayDay(atStart, &mdcv1.ReplayDayRequest{Date: day})
	if err != nil {
		t.Fatal(err)
	}
	st := expectStreamCode(t, "replay of the clock's day start", stream, codes.PermissionDenied)
	if !hasReason(st, "FUTURE_READ") {
		t.Errorf("no FUTURE_READ reason: %v", st.Details())
	}
	// A watch is live: the clock has no meaning for it.
	watch, err := client.WatchNifty(clocked, &mdcv1.WatchNiftyRequest{})
	if err != nil {
		t.Fatal(err)
	}
	expectStreamCode(t, "watch with the clock", watch, codes.FailedPrecondition)
}

func TestStreamsNeedADeveloperTokenAndGoodParameters(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))
	for _, tc := range []struct {
		name  string
		token string
		open  func(ctx context.Context) (watchStream, error)
		code  codes.Code
	}{
		{"no token", "", func(ctx context.Context) (watchStream, error) {
			return client.WatchNifty(ctx, &mdcv1.WatchNiftyRequest{})
		}, codes.Unauthenticated},
		{"unknown token", "mdc_unknown", func(ctx context.Context) (watchStream, error) {
			return client.ReplayDay(ctx, &mdcv1.ReplayDayRequest{Date: "2024-01-02"})
		}, codes.Unauthenticated},
		{"no symbols", token, func(ctx context.Context) (watchStream, error) {
			return client.WatchQuotes(ctx, &mdcv1.WatchQuotesRequest{})
		}, codes.InvalidArgument},
		{"bad symbol", token, func(ctx context.Context) (watchStream, error) {
			return client.WatchQuotes(ctx, &mdcv1.WatchQuotesRequest{Symbols: []string{"OK,NOT OK"}})
		}, codes.InvalidArgument},
		{"bad cursor", token, func(ctx context.Context) (watchStream, error) {
			return client.WatchNifty(ctx, &mdcv1.WatchNiftyRequest{Cursor: "x1"})
		}, codes.InvalidArgument},
		{"bad type", token, func(ctx context.Context) (watchStream, error) {
			return client.WatchShortlists(ctx, &mdcv1.WatchShortlistsRequest{Type: "TOP_LOSERS"})
		}, codes.InvalidArgument},
		{"bad date", token, func(ctx context.Context) (watchStream, error) {
			return client.ReplayDay(ctx, &mdcv1.ReplayDayRequest{Date: "2024-02-30"})
		}, codes.InvalidArgument},
		{"bad kind", token, func(ctx context.Context) (watchStream, error) {
			return client.ReplayDay(ctx, &mdcv1.ReplayDayRequest{Date: "2024-01-02", Kinds: []string{"quotes", "trades"}})
		}, codes.InvalidArgument},
		{"bad replay cursor", token, func(ctx context.Context) (watchStream, error) {
			return client.ReplayDay(ctx, &mdcv1.ReplayDayRequest{Date: "2024-01-02", Cursor: "12"})
		}, codes.InvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream, err := tc.open(withToken(streamContext(t), tc.token))
			if err != nil {
				t.Fatal(err)
			}
			expectStreamCode(t, tc.name, stream, tc.code)
		})
	}
}
