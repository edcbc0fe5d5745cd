package e2e

// mdc-server answers the collector writes asynchronously (gRPC callback API,
// storage/async_batcher.h): a write is answered only once its batch has
// committed. These tests stop the server in the middle of a stream of writes.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Every write under way when mdc-server gets SIGTERM is answered, either 200
// (and then stored) or 503 (the server is going or gone); none hangs, none
// fails otherwise, and the server exits cleanly.
func TestWritesUnderWayAtShutdownAreAnsweredAndKept(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	// Each writer keeps writing until the stopped server refuses it (503),
	// so the stop always lands mid-stream however fast the machine is; `each`
	// only bounds a writer that is never refused.
	const writers, each = 16, 20000
	first := time.Date(2032, 1, 5, 4, 0, 0, 0, time.UTC)
	client := &http.Client{Timeout: 30 * time.Second}
	const stamp = "@TIMESTAMP@"
	template, _ := json.Marshal(seedBody(t, "nifty_short.json", "UTC", stamp))

	var mu sync.Mutex
	stored := map[string]bool{} // instants answered 200
	counts := map[string]int{}  // answers by status (or transport error)
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				n := w*each + i
				at := first.Add(time.Duration(n) * time.Second)
				body := bytes.Replace(template, []byte(stamp), []byte(at.Format("2006-01-02T15:04:05")), 1)
				req, _ := http.NewRequest("POST", s.BaseURL()+"/v1/developer/collector/nifty", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/json")
				answer := "transport error"
				if resp, err := client.Do(req); err == nil {
					resp.Body.Close()
					answer = fmt.Sprint(resp.StatusCode)
				}
				mu.Lock()
				counts[answer]++
				if answer == "200" {
					stored[at.Format(time.RFC3339)] = true
				}
				mu.Unlock()
				if answer != "200" {
					return // refused (the server is gone) or failed
				}
			}
		}(w)
	}
	// The writes are flowing: as many answered 200 as there are writers.
	waitFor(t, "a write answered 200 to each writer", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return counts["200"] >= writers
	})
	s.StopServer(t) // fails the test unless it exits 0
	wg.Wait()

	t.Logf("answers: %v", counts)
	for answer, n := range counts {
		if answer != "200" && answer != "503" {
			t.Errorf("%d writes answered %s; want only 200 or 503", n, answer)
		}
	}
	if counts["200"] == 0 || counts["503"] == 0 {
		t.Fatalf("the server was not stopped mid-stream (answers %v); the test proves nothing", counts)
	}
	rows := s.SQL(t, fmt.Sprintf("SELECT string_agg(to_char(observed_at AT TIME ZONE 'UTC', "+
		"'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), ',') FROM nifty_quotes WHERE observed_at >= '%s' "+
		"AND observed_at < '%s'", first.Format(time.RFC3339),
		first.Add(writers*each*time.Second).Format(time.RFC3339)))
	inDatabase := map[string]bool{}
	for _, at := range bytes.Split([]byte(rows), []byte(",")) {
		inDatabase[string(at)] = true
	}
	for at := range stored {
		if !inDatabase[at] {
			t.Errorf("write at %s was answered 200 but is not stored", at)
		}
	}
}
