package e2e

// Streams under load: a thousand watchers at once, and a watcher that never
// reads (docs/api.md "Streams", slow watchers).

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestThousandWatchers(t *testing.T) {
	s := SharedStack(t)
	// Watchers of many developers: one developer may have
	// MDC_MAX_WATCHES_PER_DEVELOPER (32) open on a server.
	tokens := newDevelopers(t, s, 40)
	token := tokens[0]
	day := uniqueDay(t)
	sym := uniqueSymbol(t, "K")
	const watchers, perConn = 1000, 50
	// A connection carries at most MDC_MAX_THREADS/2 calls at once.
	conns := make([]*grpc.ClientConn, watchers/perConn)
	for i := range conns {
		conns[i] = dialGRPC(t, s)
	}
	streams := make([]mdcv1.StreamService_WatchQuotesClient, watchers)
	errs := make(chan error, watchers)
	var wg sync.WaitGroup
	for i := range streams {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			client := mdcv1.NewStreamServiceClient(conns[i/perConn])
			stream, err := client.WatchQuotes(withToken(streamContext(t), tokens[i%len(tokens)]), &mdcv1.WatchQuotesRequest{Symbols: []string{sym}})
			if err == nil {
				var first *mdcv1.MarketEvents
				if first, err = stream.Recv(); err == nil && len(first.GetEvents()) != 0 {
					err = fmt.Errorf("first message has events")
				}
			}
			if err != nil {
				errs <- fmt.Errorf("watcher %d: %w", i, err)
			}
			streams[i] = stream
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	postQuotes(t, s, token, sym, devQuote{at: day + "T09:30:00", price: 7})
	want := "Q " + sym + " " + istKey(t, day, "09:30:00")
	got := make(chan string, watchers)
	for _, stream := range streams {
		go func(stream mdcv1.StreamService_WatchQuotesClient) {
			msg, err := stream.Recv()
			switch {
			case err != nil:
				got <- err.Error()
			case len(msg.GetEvents()) != 1:
				got <- fmt.Sprintf("%d events", len(msg.GetEvents()))
			default:
				got <- eventKey(msg.GetEvents()[0])
			}
		}(stream)
	}
	for i := 0; i < watchers; i++ {
		if g := <-got; g != want {
			t.Fatalf("a watcher got %s, want %s", g, want)
		}
	}
}

// rssBytes is the resident memory of process pid (VmRSS).
func rssBytes(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb * 1024
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// A watcher that never reads: the server queues at most a bounded number of
// records for it, then ends the watch with RESOURCE_EXHAUSTED
// (WATCHER_FELL_BEHIND), while every write still succeeds. Its RSS grows by
// far less than what was written.
func TestWatcherThatNeverReadsStaysBounded(t *testing.T) {
	s := StartStack(t) // its own server: the RSS is this test's alone
	_, token := s.NewDeveloper(t, "developer")
	conn := dialGRPC(t, s)
	collector := mdcv1.NewCollectorServiceClient(conn)
	day := uniqueDay(t)
	const batches, perBatch = 100, 1000
	symbols := make([]string, perBatch)
	for i := range symbols {
		symbols[i] = fmt.Sprintf("B%04d", i)
	}
	// About 2 KB per quote: 100,000 quotes are ~200 MB of records.
	depth := &mdcv1.Depth{}
	for i := 0; i < 60; i++ {
		p, q := float64(100+i), float64(10*i)
		depth.Buy = append(depth.Buy, &mdcv1.DepthLevel{Price: &p, Quantity: &q})
		depth.Sell = append(depth.Sell, &mdcv1.DepthLevel{Price: &p, Quantity: &q})
	}
	write := func(n int) {
		quotes := make([]*mdcv1.QuoteItem, perBatch)
		for i, sym := range symbols {
			price := float64(n)
			quotes[i] = &mdcv1.QuoteItem{NseSymbol: sym, QuoteData: &mdcv1.QuoteData{
				Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: &price, Depth: depth}}}
		}
		at := fmt.Sprintf("%sT%02d:%02d:%02d", day, 9+n/3600, n/60%60, n%60)
		_, err := collector.SaveQuotes(withToken(streamContext(t), token), &mdcv1.SaveQuotesRequest{
			Data: &mdcv1.QuotesData{Timestamp: at, Quotes: quotes}})
		if err != nil {
			t.Fatalf("batch %d: %v", n, err)
		}
	}
	write(0) // warm up: pools, prepared statements, buffers
	base := rssBytes(t, s.server.pid())

	client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))
	stream, err := client.WatchQuotes(withToken(streamContext(t), token), &mdcv1.WatchQuotesRequest{Symbols: symbols})
	if err != nil {
		t.Fatal(err)
	}
	expectHello(t, stream)
	for n := 1; n <= batches; n++ {
		write(n)
	}
	grown := rssBytes(t, s.server.pid()) - base
	const written = batches * perBatch * 2000
	const bound = 64 << 20
	t.Logf("RSS grew by %d MiB while ~%d MiB of records were written for the watcher", grown>>20, written>>20)
	if grown > bound {
		t.Errorf("mdc-server's RSS grew by %d MiB with a watcher that never reads, want at most %d MiB", grown>>20, bound>>20)
	}
	// When it finally reads: what was sent, then the reason it ended.
	st := expectStreamCode(t, "the watcher that never read", stream, codes.ResourceExhausted)
	if !hasReason(st, "WATCHER_FELL_BEHIND") {
		t.Errorf("no WATCHER_FELL_BEHIND reason: %v", st.Details())
	}
	if !bytes.Contains([]byte(st.Message()), []byte("resume")) {
		t.Errorf("message %q does not say how to resume", st.Message())
	}
}
