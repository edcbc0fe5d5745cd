//go:build failover

package e2e

// The failover test (docs/deployment.md; the ctest test `failover`): mdc on
// a three-member Patroni cluster with synchronous replication, collectors
// writing through the gateway and a live watch, while the primary's
// database machine is lost (postmaster killed, data directory deleted),
// the lost member is rebuilt as a standby, and a planned switchover moves
// the primary back. Checked: every acknowledged write is on the primary in
// the end; every answer is 200 or 503; writes resume by themselves after
// each switch; the watch, opened before the loss and never reopened, sees
// every acknowledged write exactly once; a collector writing through the Go
// client's spool (failover_spool_test.go) ends with every observation
// stored.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestFailover(t *testing.T) {
	cluster := startHACluster(t)
	if _, err := psql(cluster.url("postgres"), "CREATE DATABASE mdc"); err != nil {
		t.Fatal(err)
	}
	s := StartStackWith(t, StackOptions{DatabaseURL: cluster.url("mdc")})
	_, token := s.NewDeveloper(t, "developer")

	w := newFailoverWriters(s, token, 4, uniqueDay(t))
	watch := openFailoverWatch(t, s, token, w.symbols)
	w.start()
	defer w.stop()
	spooling := startSpoolingCollector(t, s, token, w.day, "FOSP"+w.symbols[0][3:])

	w.waitAcked(t, "before the loss", 40, 60*time.Second)
	lost := leaderOf(mustStates(t, cluster))
	killedAt := cluster.loseDatabaseMachine(lost)
	t.Logf("lost the database machine of the leader %s", lost)
	cluster.waitFor("a new leader", 90*time.Second, func(ms []memberState) string {
		if l := leaderOf(ms); l == "" || l == lost {
			return fmt.Sprintf("leader %q", l)
		}
		return ""
	})
	elected := time.Since(killedAt)
	// Acknowledged after the new leader was seen: the pause is behind them.
	w.waitAckedAfter(t, "after the loss", time.Now(), 40, 90*time.Second)
	t.Logf("failover: a new leader within %v of the kill; writes paused for %v (longest time between two acknowledged writes)",
		elected.Round(time.Millisecond), w.longestGap().Round(time.Millisecond))

	// Its Patroni rebuilds the lost member from the new leader.
	leader := cluster.waitHealthy("the lost member rebuilt")
	var standby string
	for _, m := range mustStates(t, cluster) {
		if m.Role == "sync_standby" {
			standby = m.Name
		}
	}
	switchedAt := time.Now()
	cluster.patronictl("switchover", "--leader", leader, "--candidate", standby, "--force")
	cluster.waitFor("the switchover", 60*time.Second, func(ms []memberState) string {
		if l := leaderOf(ms); l != standby {
			return fmt.Sprintf("leader %q", l)
		}
		return ""
	})
	w.waitAckedAfter(t, "after the switchover", switchedAt, 40, 90*time.Second)
	w.stop()
	spooling.finish(t, s)

	answers := w.answerCounts()
	t.Logf("answers %v; %d writes acknowledged", answers, len(w.ackedKeys()))
	for answer, n := range answers {
		if answer != "200" && answer != "503" {
			t.Errorf("%d writes answered %s; only 200 and 503 are expected", n, answer)
		}
	}

	acked := w.ackedKeys()
	stored := map[string]bool{}
	out := s.SQL(t, "SELECT nse_symbol || ' ' || to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') "+
		"FROM stock_quotes WHERE nse_symbol IN ('"+strings.Join(w.symbols, "','")+"')")
	for _, line := range strings.Split(out, "\n") {
		if line != "" {
			stored[line] = true
		}
	}
	var missing []string
	for _, key := range acked {
		if !stored[key] {
			missing = append(missing, key)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d acknowledged writes are not on the primary, e.g. %v", len(missing), missing[:min(5, len(missing))])
	}

	// The watch: every acknowledged write once (and nothing but writes
	// that were sent).
	seen := watch.waitSeen(t, acked, 60*time.Second)
	sent := w.sentKeys()
	for key, n := range seen {
		if n != 1 {
			t.Errorf("the watch saw %s %d times, want once", key, n)
		}
		if !sent[key] {
			t.Errorf("the watch saw %s, which was never written", key)
		}
	}
}

// failoverWriters are collectors: each writes one quote of its own symbol
// per instant, sends a write again until it is answered 200 (as the
// collector spool does), and then moves to the next instant.
type failoverWriters struct {
	s       *Stack
	token   string
	symbols []string
	day     string
	client  *http.Client

	stopOnce sync.Once
	done     chan struct{}
	wg       sync.WaitGroup

	mu      sync.Mutex
	answers map[string]int
	acked   []ackedWrite
	sent    map[string]bool
}

type ackedWrite struct {
	key string
	at  time.Time
}

func newFailoverWriters(s *Stack, token string, n int, day string) *failoverWriters {
	w := &failoverWriters{
		s: s, token: token, day: day,
		// Longer than the gateway's call timeout: a write that hangs is
		// answered by the gateway, and that answer is checked.
		client:  &http.Client{Timeout: 60 * time.Second},
		done:    make(chan struct{}),
		answers: map[string]int{},
		sent:    map[string]bool{},
	}
	suffix := strings.ToUpper(strconv.FormatInt(time.Now().UnixNano()%1e6, 36))
	for i := 0; i < n; i++ {
		w.symbols = append(w.symbols, fmt.Sprintf("FO%d%s", i, suffix))
	}
	return w
}

func (w *failoverWriters) start() {
	ist := time.FixedZone("IST", 5*3600+1800)
	base, _ := time.ParseInLocation("2006-01-02T15:04:05", w.day+"T09:15:00", ist)
	for _, sym := range w.symbols {
		w.wg.Add(1)
		go func(sym string) {
			defer w.wg.Done()
			for i := 0; ; i++ {
				at := base.Add(time.Duration(i) * time.Second)
				key := sym + " " + at.UTC().Format(time.RFC3339)
				body, _ := json.Marshal(map[string]any{"data": map[string]any{
					"timestamp": at.Format("2006-01-02T15:04:05"), "timezone": "Asia/Kolkata",
					"quotes": []any{map[string]any{"nseSymbol": sym, "quoteData": map[string]any{
						"status": "SUCCESS", "payload": map[string]any{"last_price": 100 + i, "volume": i},
					}}},
				}})
				for {
					select {
					case <-w.done:
						return
					default:
					}
					w.mu.Lock()
					w.sent[key] = true
					w.mu.Unlock()
					answer := postQuotesOnce(w.client, w.s, w.token, body)
					w.mu.Lock()
					w.answers[answer]++
					if answer == "200" {
						w.acked = append(w.acked, ackedWrite{key, time.Now()})
					}
					w.mu.Unlock()
					if answer == "200" {
						break
					}
					// A collector's pause before sending again.
					time.Sleep(50 * time.Millisecond)
				}
			}
		}(sym)
	}
}

func (w *failoverWriters) stop() {
	w.stopOnce.Do(func() { close(w.done) })
	w.wg.Wait()
}

// waitAcked waits until n writes were acknowledged in all.
func (w *failoverWriters) waitAcked(t *testing.T, what string, n int, within time.Duration) {
	t.Helper()
	w.waitAckedAfter(t, what, time.Time{}, n, within)
}

// waitAckedAfter waits until n writes were acknowledged after since and
// returns when the first of them was.
func (w *failoverWriters) waitAckedAfter(t *testing.T, what string, since time.Time, n int, within time.Duration) time.Time {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		w.mu.Lock()
		var first time.Time
		count := 0
		for _, a := range w.acked {
			if a.at.After(since) {
				if count == 0 {
					first = a.at
				}
				count++
			}
		}
		answers := fmt.Sprint(w.answers)
		w.mu.Unlock()
		if count >= n {
			return first
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d writes acknowledged within %v, want %d (answers %s)", what, count, within, n, answers)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// longestGap is the longest time between two acknowledged writes.
func (w *failoverWriters) longestGap() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var gap time.Duration
	for i := 1; i < len(w.acked); i++ {
		gap = max(gap, w.acked[i].at.Sub(w.acked[i-1].at))
	}
	return gap
}

func (w *failoverWriters) answerCounts() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]int{}
	for k, v := range w.answers {
		out[k] = v
	}
	return out
}

func (w *failoverWriters) ackedKeys() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	keys := make([]string, 0, len(w.acked))
	for _, a := range w.acked {
		keys = append(keys, a.key)
	}
	sort.Strings(keys)
	return keys
}

func (w *failoverWriters) sentKeys() map[string]bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]bool{}
	for k := range w.sent {
		out[k] = true
	}
	return out
}

// failoverWatch is one HTTP watch of the writers' symbols, read by a
// goroutine that counts the records it receives by key.
type failoverWatch struct {
	mu     sync.Mutex
	seen   map[string]int
	failed string // why the stream ended, if it did
}

func openFailoverWatch(t *testing.T, s *Stack, token string, symbols []string) *failoverWatch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		s.BaseURL()+"/v1/developer/watch/quotes?symbols="+strings.Join(symbols, ","), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("watch: HTTP %d", resp.StatusCode)
	}
	watch := &failoverWatch{seen: map[string]int{}}
	scanner := bufio.NewScanner(resp.Body)
	scanner.Buffer(nil, 64<<20)
	// The first line says the watch is live: from here on every commit
	// reaches it.
	if !scanner.Scan() {
		t.Fatalf("watch: no first line: %v", scanner.Err())
	}
	go func() {
		defer resp.Body.Close()
		for scanner.Scan() {
			var line streamLine
			if err := json.Unmarshal(scanner.Bytes(), &line); err != nil || line.Error != nil || line.Result == nil {
				watch.fail(fmt.Sprintf("line %q", scanner.Text()))
				return
			}
			for _, e := range line.Result.Events {
				q, _ := e["quote"].(map[string]any)
				sym, _ := q["nseSymbol"].(string)
				ts, _ := q["timestamp"].(string)
				at, err := time.Parse(time.RFC3339, ts)
				if err != nil {
					watch.fail(fmt.Sprintf("event %v", e))
					return
				}
				watch.mu.Lock()
				watch.seen[sym+" "+at.UTC().Format(time.RFC3339)]++
				watch.mu.Unlock()
			}
		}
		watch.fail(fmt.Sprintf("the stream ended: %v", scanner.Err()))
	}()
	return watch
}

func (w *failoverWatch) fail(why string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed == "" {
		w.failed = why
	}
}

// waitSeen waits until the watch saw every key of want and returns what
// it saw, key by key.
func (w *failoverWatch) waitSeen(t *testing.T, want []string, within time.Duration) map[string]int {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		w.mu.Lock()
		var missing []string
		for _, key := range want {
			if w.seen[key] == 0 {
				missing = append(missing, key)
			}
		}
		failed := w.failed
		seen := map[string]int{}
		for k, v := range w.seen {
			seen[k] = v
		}
		w.mu.Unlock()
		if len(missing) == 0 {
			return seen
		}
		if failed != "" || time.Now().After(deadline) {
			t.Fatalf("the watch missed %d acknowledged writes, e.g. %v (stream: %q)", len(missing), missing[:min(5, len(missing))], failed)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func mustStates(t *testing.T, c *haCluster) []memberState {
	t.Helper()
	ms, err := c.states()
	if err != nil {
		t.Fatal(err)
	}
	return ms
}
