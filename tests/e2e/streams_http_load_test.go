package e2e

// A thousand HTTP watchers through one gateway (docs/api.md "Streams over
// HTTP"): the gateway carries streams on connections of their own, so they
// neither wait for each other beyond a server's per-connection call limit
// (MDC_MAX_THREADS/2) nor take the slots of the gateway's ordinary calls.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// readStreamMessage reads the next message of a stream answer: one NDJSON
// line, or one Server-Sent Event (its data line) when sse.
func readStreamMessage(r *bufio.Reader, sse bool) (streamLine, error) {
	var line streamLine
	var data string
	for {
		text, err := r.ReadString('\n')
		if err != nil {
			return line, err
		}
		text = strings.TrimSuffix(text, "\n")
		if !sse {
			data = text
			break
		}
		if d, ok := strings.CutPrefix(text, "data: "); ok {
			data = d
		} else if text == "" && data != "" {
			break
		}
	}
	if err := json.Unmarshal([]byte(data), &line); err != nil {
		return line, fmt.Errorf("message %q: %w", data, err)
	}
	if line.Error != nil {
		return line, fmt.Errorf("the stream failed: %+v", *line.Error)
	}
	if line.Result == nil {
		return line, fmt.Errorf("message %q has no result", data)
	}
	return line, nil
}

// needOpenFiles skips t when this process cannot hold n open files (Go
// raises the soft limit to the hard one at start; the gateway, a Go program
// too, does the same).
func needOpenFiles(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < n {
		t.Skipf("needs %d open files, the limit is %d (raise it with ulimit -n)", n, lim.Cur)
	}
}

func TestThousandHTTPWatchersThroughOneGateway(t *testing.T) {
	const watchers = 1000
	needOpenFiles(t, watchers+512)
	s := StartStack(t) // its own gateway: the thousand watchers are this test's alone
	// Watchers of many developers: one developer may have
	// MDC_MAX_WATCHES_PER_DEVELOPER (32) open on a server.
	tokens := newDevelopers(t, s, 40)
	token := tokens[0]
	day := uniqueDay(t)
	sym := uniqueSymbol(t, "HW")
	path := "/v1/developer/watch/quotes?symbols=" + sym

	// One TCP connection per watcher, as a thousand separate clients.
	transport := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(transport.CloseIdleConnections)
	client := &http.Client{Transport: transport}
	// The deadline only ends watchers that never get their first message
	// (on one shared gRPC connection, all but the first MDC_MAX_THREADS/2
	// waited for a free slot); nothing is measured.
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()

	type watcher struct {
		sse    bool
		reader *bufio.Reader
	}
	live := make([]*watcher, watchers)
	errs := make(chan error, watchers)
	var wg sync.WaitGroup
	for i := range live {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			w := &watcher{sse: i%2 == 1} // half NDJSON, half Server-Sent Events
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.BaseURL()+path, nil)
			if err != nil {
				errs <- err
				return
			}
			req.Header.Set("Authorization", "Bearer "+tokens[i%len(tokens)])
			wantType := "application/x-ndjson"
			if w.sse {
				req.Header.Set("Accept", "text/event-stream")
				wantType = "text/event-stream"
			}
			resp, err := client.Do(req)
			if err != nil {
				errs <- fmt.Errorf("watcher %d: %w", i, err)
				return
			}
			t.Cleanup(func() { resp.Body.Close() })
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != wantType {
				errs <- fmt.Errorf("watcher %d: HTTP %d %s, want 200 %s", i, resp.StatusCode, resp.Header.Get("Content-Type"), wantType)
				return
			}
			w.reader = bufio.NewReader(resp.Body)
			hello, err := readStreamMessage(w.reader, w.sse)
			if err == nil && (len(hello.Result.Events) != 0 || hello.Result.Cursor == "") {
				err = fmt.Errorf("first message %+v, want no events and a cursor", *hello.Result)
			}
			if err != nil {
				errs <- fmt.Errorf("watcher %d (sse %v): %w", i, w.sse, err)
				return
			}
			live[i] = w
		}(i)
	}
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if failed++; failed <= 5 {
			t.Error(err)
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d watchers did not go live", failed, watchers)
	}

	// With every watch open, the gateway's ordinary calls still answer:
	// a write, then reads, several at once.
	postQuotes(t, s, token, sym, devQuote{at: day + "T09:30:00", price: 7})
	var reads sync.WaitGroup
	for i := 0; i < 16; i++ {
		reads.Add(1)
		go func() {
			defer reads.Done()
			r := s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil)
			if r.Status != http.StatusOK {
				t.Errorf("a read with %d watchers open: %v", watchers, r)
			}
		}()
	}
	reads.Wait()

	// Every watcher receives the write made after it went live.
	want := "Q " + sym + " " + istKey(t, day, "09:30:00")
	got := make(chan string, watchers)
	for _, w := range live {
		go func(w *watcher) {
			msg, err := readStreamMessage(w.reader, w.sse)
			for err == nil && len(msg.Result.Events) == 0 { // a heartbeat
				msg, err = readStreamMessage(w.reader, w.sse)
			}
			switch {
			case err != nil:
				got <- err.Error()
			case len(msg.Result.Events) != 1:
				got <- fmt.Sprintf("%d events", len(msg.Result.Events))
			default:
				q, _ := msg.Result.Events[0]["quote"].(map[string]any)
				got <- fmt.Sprintf("Q %v %v", q["nseSymbol"], q["timestamp"])
			}
		}(w)
	}
	for i := 0; i < watchers; i++ {
		if g := <-got; g != want {
			t.Fatalf("a watcher got %s, want %s", g, want)
		}
	}
}
