package e2e

// Harness for the failure tests (failure_*_test.go): killing and restarting
// a private stack's processes, and a bounded load of 20-quote batches whose
// answers are counted and whose storage is checked batch by batch.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// KillServer sends SIGKILL to mdc-server (no drain, no clean shutdown) and
// waits until it is gone. The gateway keeps running. Only for private stacks;
// StartServer brings it back on the same address and database.
func (s *Stack) KillServer(t *testing.T) {
	t.Helper()
	s.mustBePrivate(t)
	s.server.kill(t)
}

// KillGateway sends SIGKILL to mdc-gateway and waits until it is gone. Only
// for private stacks; StartGateway brings it back on the same address.
func (s *Stack) KillGateway(t *testing.T) {
	t.Helper()
	s.mustBePrivate(t)
	s.gateway.kill(t)
}

// StartGateway starts mdc-gateway again on the same address, talking to the
// same server, and waits until GET /health answers 200 through it.
func (s *Stack) StartGateway(t *testing.T) {
	t.Helper()
	s.mustBePrivate(t)
	if err := s.gateway.start(); err != nil {
		t.Fatalf("starting mdc-gateway: %v", err)
	}
	if err := s.waitHealthy(); err != nil {
		t.Fatalf("after restarting mdc-gateway: %v", err)
	}
}

// kill sends SIGKILL and waits (bounded) for the process to be reaped.
func (p *process) kill(t *testing.T) {
	t.Helper()
	if !p.running() {
		t.Fatalf("%s is not running; nothing to kill", p.name)
	}
	if p.stack != nil {
		if err := p.stack.Kill(p.role); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatalf("killing %s: %v", p.name, err)
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not exit within 10 s of SIGKILL", p.name)
	}
}

// Load ---------------------------------------------------------------------

const (
	batchQuotes   = 20 // quotes in one batch, one per symbol, one instant
	connErrAnswer = "connection error"
)

// batchLoad is writers posting 20-quote batches to /v1/developer/collector/
// quotes. Batch n (writer w, sequence i: n = w*perWriter + i) is stamped
// base + n seconds, so each batch is its own set of natural keys (symbol,
// instant), and its instant names it in the database.
type batchLoad struct {
	s         *Stack
	token     string
	writers   int
	perWriter int           // count bound of one writer
	maxTime   time.Duration // time bound of the whole load
	base      time.Time

	client *http.Client
	phase  atomic.Int32 // the phase answers are counted in (see setPhase)
	stop   chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex
	counts   []map[string]int // per phase: answer (status or connErrAnswer) -> count
	acked    map[int]bool     // batches answered 200
	attempts int
	started  time.Time
}

// newBatchLoad prepares the load; phases names the phases, counted apart.
func newBatchLoad(s *Stack, token string, writers, perWriter int, maxTime time.Duration, base time.Time, phases int) *batchLoad {
	l := &batchLoad{
		s: s, token: token, writers: writers, perWriter: perWriter, maxTime: maxTime, base: base,
		// Short enough that a hung call ends the test in bound; long
		// enough for a batch to commit on a slow machine.
		client: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{
			MaxIdleConnsPerHost: writers,
		}},
		stop:  make(chan struct{}),
		acked: map[int]bool{},
	}
	for i := 0; i < phases; i++ {
		l.counts = append(l.counts, map[string]int{})
	}
	return l
}

func (l *batchLoad) body(n int) []byte {
	at := l.base.Add(time.Duration(n) * time.Second).Format("2006-01-02T15:04:05")
	quotes := make([]any, batchQuotes)
	for q := range quotes {
		quotes[q] = map[string]any{
			"nseSymbol": fmt.Sprintf("FAIL%02d", q),
			"quoteData": map[string]any{"status": "SUCCESS", "payload": map[string]any{
				"last_price": 100 + q, "volume": n,
			}},
		}
	}
	data, _ := json.Marshal(map[string]any{"data": map[string]any{
		"timestamp": at, "timezone": "UTC", "quotes": quotes,
	}})
	return data
}

// post sends batch n once and returns the answer: the status, or
// connErrAnswer when no HTTP answer came.
func (l *batchLoad) post(n int) string {
	return postQuotesOnce(l.client, l.s, l.token, l.body(n))
}

// postQuotesOnce sends one Save Quote body through the gateway and returns
// the answer: the status, or connErrAnswer when no HTTP answer came.
func postQuotesOnce(client *http.Client, s *Stack, token string, body []byte) string {
	req, err := http.NewRequest("POST", s.BaseURL()+"/v1/developer/collector/quotes", bytes.NewReader(body))
	if err != nil {
		return connErrAnswer
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return connErrAnswer
	}
	resp.Body.Close()
	return strconv.Itoa(resp.StatusCode)
}

// start launches the writers. Each stops after perWriter batches, at
// maxTime, or when stopAll is called, whichever comes first. A writer that
// was refused pauses briefly, as a collector would, so a stack that is down
// is not hammered in a tight loop.
func (l *batchLoad) start() {
	l.started = time.Now()
	deadline := l.started.Add(l.maxTime)
	for w := 0; w < l.writers; w++ {
		l.wg.Add(1)
		go func(w int) {
			defer l.wg.Done()
			for i := 0; i < l.perWriter && time.Now().Before(deadline); i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				n := w*l.perWriter + i
				phase := l.phase.Load()
				answer := l.post(n)
				l.mu.Lock()
				l.attempts++
				l.counts[phase][answer]++
				if answer == "200" {
					l.acked[n] = true
				}
				l.mu.Unlock()
				if answer != "200" {
					time.Sleep(20 * time.Millisecond)
				}
			}
		}(w)
	}
}

// setPhase makes the answers from now on count in phase p (a call is
// counted in the phase it started in).
func (l *batchLoad) setPhase(p int) { l.phase.Store(int32(p)) }

// count is how many answers of phase p were answer.
func (l *batchLoad) count(p int, answer string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.counts[p][answer]
}

// waitFor waits until phase p has at least n answers `answer`, or the time
// bound passes; it reports whether it got them.
func (l *batchLoad) waitFor(p int, answer string, n int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if l.count(p, answer) >= n {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// hold keeps phase p going until it has at least n answers `answer` and
// at least minTime has passed, or maxTime has; it reports whether phase p got
// its n answers.
func (l *batchLoad) hold(p int, answer string, n int, minTime, maxTime time.Duration) bool {
	start := time.Now()
	got := l.waitFor(p, answer, n, maxTime)
	// Not ordering: the n answers are what the next step waits for. minTime
	// is the phase's length as a soak: the writers keep writing under the
	// phase's condition (a server away, a gateway back) for that long, so
	// that what happens only over time (health checks, reconnects, pool
	// churn) happens under load before the phase is judged.
	if rest := minTime - time.Since(start); rest > 0 {
		time.Sleep(rest)
	}
	return got
}

// stopAll stops the writers and waits for the calls under way.
func (l *batchLoad) stopAll() {
	close(l.stop)
	l.wg.Wait()
}

// summary describes the answers phase by phase.
func (l *batchLoad) summary(names ...string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var parts []string
	for p, c := range l.counts {
		name := fmt.Sprint(p)
		if p < len(names) {
			name = names[p]
		}
		parts = append(parts, fmt.Sprintf("%s %v", name, c))
	}
	return fmt.Sprintf("%d calls in %v, %d acknowledged; %s", l.attempts,
		time.Since(l.started).Round(time.Millisecond), len(l.acked), strings.Join(parts, "; "))
}

// checkAnswers fails t on any answer outside allowed (HTTP statuses, or
// connErrAnswer), in any phase.
func (l *batchLoad) checkAnswers(t *testing.T, allowed ...string) {
	t.Helper()
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for p, c := range l.counts {
		for answer, n := range c {
			if !ok[answer] {
				t.Errorf("phase %d: %d writes answered %q; only %v are expected", p, n, answer, allowed)
			}
		}
	}
}

// verifyStored checks, in the stack's database, that every acknowledged
// batch is stored whole and that no batch is stored in part. It returns how
// many batches and rows are stored.
func (l *batchLoad) verifyStored(t *testing.T) (batches, rows int) {
	t.Helper()
	end := l.base.Add(time.Duration(l.writers*l.perWriter) * time.Second)
	out := l.s.SQL(t, fmt.Sprintf("SELECT extract(epoch FROM observed_at - '%s'::timestamptz)::bigint, count(*), "+
		"count(DISTINCT nse_symbol) FROM stock_quotes WHERE observed_at >= '%s' AND observed_at < '%s' GROUP BY 1",
		l.base.Format(time.RFC3339), l.base.Format(time.RFC3339), end.Format(time.RFC3339)))
	stored := map[int]int{}
	for _, line := range strings.Split(out, "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("unexpected row %q", line)
		}
		n, _ := strconv.Atoi(f[0])
		count, _ := strconv.Atoi(f[1])
		distinct, _ := strconv.Atoi(f[2])
		stored[n] = count
		rows += count
		if count != batchQuotes || distinct != batchQuotes {
			t.Errorf("batch %d is stored in part: %d rows (%d symbols), want 0 or %d", n, count, distinct, batchQuotes)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var lost []int
	for n := range l.acked {
		if stored[n] != batchQuotes {
			lost = append(lost, n)
		}
	}
	sort.Ints(lost)
	if len(lost) > 0 {
		t.Errorf("%d acknowledged batches are not stored whole, e.g. %v", len(lost), lost[:min(len(lost), 10)])
	}
	return len(stored), rows
}
