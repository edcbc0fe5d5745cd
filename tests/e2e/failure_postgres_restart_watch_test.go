package e2e

// Watchers across a PostgreSQL restart (docs/api.md "Streams", watch
// semantics): a live watch stays open while the database restarts, and what
// commits once it is back reaches it, over gRPC and over HTTP, with nothing
// lost or repeated; a watcher that resumes from its last cursor afterwards
// gets the same. The cluster is private (startStoppableCluster,
// admin_health_test.go): this test stops and starts it under a running
// mdc-server.

import (
	"bufio"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestFailurePostgresRestartKeepsWatchersLive(t *testing.T) {
	for _, mode := range []string{
		"fast",      // sessions are ended, the hub's LISTEN connection with them
		"immediate", // a crash: WAL recovery on start
	} {
		t.Run(mode, func(t *testing.T) {
			cluster := startStoppableCluster(t)
			s := StartStackWith(t, StackOptions{DatabaseURL: cluster.url("mdc")})
			_, token := s.NewDeveloper(t, "developer")
			day := uniqueDay(t)
			sym := uniqueSymbol(t, "PG")
			key := func(clock string) string { return "Q " + sym + " " + istKey(t, day, clock) }

			client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))
			grpcWatch, err := client.WatchQuotes(withToken(streamContext(t), token), &mdcv1.WatchQuotesRequest{Symbols: []string{sym}})
			if err != nil {
				t.Fatal(err)
			}
			start := expectHello(t, grpcWatch)
			httpWatch := newNDJSONReader(t, openHTTPStream(t, s, "/v1/developer/watch/quotes?symbols="+sym, token, nil))
			if hello := httpWatch.next(); hello.Result == nil || len(hello.Result.Events) != 0 {
				t.Fatalf("HTTP watch: first line %+v, want a message without events", hello)
			}

			postQuotes(t, s, token, sym, devQuote{at: day + "T09:15:00", price: 1})
			before := recvEvents(t, grpcWatch, 1)
			if got := eventKey(before[0]); got != key("09:15:00") {
				t.Fatalf("before the restart: got %s, want %s", got, key("09:15:00"))
			}
			if got := httpWatch.quoteKeys(1); got[0] != key("09:15:00") {
				t.Fatalf("HTTP watch before the restart: got %s", got[0])
			}

			asPostgres(t, "pg_ctl", "-D", filepath.Join(cluster.dir, "data"), "-w", "stop", "-m", mode)
			cluster.start()
			if err := s.waitHealthy(); err != nil {
				t.Fatalf("after PostgreSQL came back: %v", err)
			}
			// Written after the restart, through a new pooled connection: the
			// watches opened before it receive them, in order, once each.
			postQuotes(t, s, token, sym, devQuote{at: day + "T09:16:00", price: 2}, devQuote{at: day + "T09:17:00", price: 3})
			want := []string{key("09:16:00"), key("09:17:00")}
			after := recvEvents(t, grpcWatch, 2)
			if got := keysOf(after); !slices.Equal(got, want) {
				t.Fatalf("gRPC watch after the restart: got %v, want %v", got, want)
			}
			if got := httpWatch.quoteKeys(2); !slices.Equal(got, want) {
				t.Fatalf("HTTP watch after the restart: got %v, want %v", got, want)
			}

			// Resumed from the cursors taken before the restart: nothing
			// missed, nothing twice.
			for _, from := range []struct {
				cursor string
				want   []string
			}{
				{start, append([]string{key("09:15:00")}, want...)},
				{before[0].GetCursor(), want},
			} {
				resumed, err := client.WatchQuotes(withToken(streamContext(t), token),
					&mdcv1.WatchQuotesRequest{Symbols: []string{sym}, Cursor: from.cursor})
				if err != nil {
					t.Fatal(err)
				}
				expectHello(t, resumed)
				if got := keysOf(recvEvents(t, resumed, len(from.want))); !slices.Equal(got, from.want) {
					t.Errorf("resumed from %s: got %v, want %v", from.cursor, got, from.want)
				}
			}
		})
	}
}

// ndjsonReader reads the lines of an NDJSON stream answer (one opened by
// openHTTPStream, which checks nothing; this checks status and type).
type ndjsonReader struct {
	t       *testing.T
	scanner *bufio.Scanner
}

func newNDJSONReader(t *testing.T, resp *http.Response) *ndjsonReader {
	t.Helper()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("stream answer: HTTP %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	scanner := bufio.NewScanner(resp.Body)
	scanner.Buffer(nil, 64<<20)
	return &ndjsonReader{t: t, scanner: scanner}
}

// next is the next line; the stream must not end or fail.
func (r *ndjsonReader) next() streamLine {
	r.t.Helper()
	if !r.scanner.Scan() {
		r.t.Fatalf("the stream ended: %v", r.scanner.Err())
	}
	var line streamLine
	if err := json.Unmarshal(r.scanner.Bytes(), &line); err != nil {
		r.t.Fatalf("line %q: %v", r.scanner.Text(), err)
	}
	if line.Error != nil {
		r.t.Fatalf("the stream failed: %+v", *line.Error)
	}
	return line
}

// quoteKeys reads lines until n events came and returns their eventKeys
// (quotes only).
func (r *ndjsonReader) quoteKeys(n int) []string {
	r.t.Helper()
	var keys []string
	for len(keys) < n {
		for _, e := range r.next().Result.Events {
			q, ok := e["quote"].(map[string]any)
			if !ok {
				r.t.Fatalf("event %v is not a quote", e)
			}
			keys = append(keys, "Q "+q["nseSymbol"].(string)+" "+q["timestamp"].(string))
		}
	}
	return keys
}
