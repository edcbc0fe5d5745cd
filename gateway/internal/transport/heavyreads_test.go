package transport

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"

	"mdc/gateway/internal/codec"
	"mdc/gateway/internal/routes"
)

// limitOf is the `limit` of the ErrorInfo of a refusal, and its retry delay.
func limitOf(t *testing.T, details []any) (string, time.Duration) {
	t.Helper()
	var limit string
	var delay time.Duration
	for _, d := range details {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			if d.Reason != "HEAVY_READS_LIMITED" || d.Domain != "mdc.v1" {
				t.Errorf("reason %s/%s, want HEAVY_READS_LIMITED/mdc.v1", d.Reason, d.Domain)
			}
			limit = d.Metadata["limit"]
		case *errdetails.RetryInfo:
			delay = d.RetryDelay.AsDuration()
		}
	}
	return limit, delay
}

// awaitWaiting returns once n heavy reads wait in h's queues: ordered by
// what h holds, never by sleeping.
func awaitWaiting(h *HeavyReads, n int) {
	for h.waiting() < n {
		runtime.Gosched()
	}
}

// A turn given back goes to the tokens in turn: bob's one read is served
// before alice's second, though she asked first.
func TestHeavyReadsServeTheTokensInTurn(t *testing.T) {
	h := NewHeavyReads(1, time.Hour)
	ctx := context.Background()
	held, _ := h.enter(ctx, "Bearer carol")
	order := make(chan string, 3)
	read := func(token, name string) {
		release, st := h.enter(ctx, "Bearer "+token)
		if st != nil || release == nil {
			order <- "refused " + name
			return
		}
		order <- name // noted while holding the turn: the next waits for it
		release()
	}
	go read("alice", "alice 1")
	awaitWaiting(h, 1)
	go read("alice", "alice 2")
	awaitWaiting(h, 2)
	go read("bob", "bob")
	awaitWaiting(h, 3)
	held()
	got := []string{<-order, <-order, <-order}
	want := []string{"alice 1", "bob", "alice 2"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// Many reads of one token all pass in time: a burst is never refused for
// its token alone.
func TestHeavyReadsQueueABurstOfOneToken(t *testing.T) {
	h := NewHeavyReads(1, time.Hour)
	ctx := context.Background()
	held, _ := h.enter(ctx, "Bearer alice")
	done := make(chan bool, 10)
	for range 10 {
		go func() {
			release, st := h.enter(ctx, "Bearer alice")
			if release != nil {
				release()
			}
			done <- st == nil && release != nil
		}()
	}
	awaitWaiting(h, 10)
	held()
	for range 10 {
		if !<-done {
			t.Fatal("a read of the burst was refused")
		}
	}
}

func TestHeavyReadsRefuseAfterTheWait(t *testing.T) {
	h := NewHeavyReads(1, time.Millisecond)
	ctx := context.Background()
	held, _ := h.enter(ctx, "Bearer a")
	release, st := h.enter(ctx, "Bearer b")
	if release != nil || st == nil || st.Code() != codes.ResourceExhausted {
		t.Fatalf("a heavy read finding no turn within its wait: %v, want RESOURCE_EXHAUSTED", st)
	}
	if limit, delay := limitOf(t, st.Details()); limit != "gateway" || delay != HeavyReadRetryDelay {
		t.Errorf("limit %q, delay %s; want gateway, %s", limit, delay, HeavyReadRetryDelay)
	}
	if h.waiting() != 0 {
		t.Errorf("%d still waiting, want 0", h.waiting())
	}
	held()
	if again, st := h.enter(ctx, "Bearer b"); st != nil || again == nil {
		t.Errorf("b must enter once the turn is free: %v", st)
	}
}

func TestHeavyReadsAClientThatLeavesGivesItsPlaceBack(t *testing.T) {
	h := NewHeavyReads(1, time.Hour)
	held, _ := h.enter(context.Background(), "Bearer a")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if release, st := h.enter(ctx, "Bearer b"); release != nil || st != nil {
		t.Fatalf("a client that left: release %v, status %v; want neither", release != nil, st)
	}
	if h.waiting() != 0 {
		t.Errorf("%d still waiting, want 0", h.waiting())
	}
	held()
	if again, st := h.enter(context.Background(), "Bearer b"); st != nil || again == nil {
		t.Errorf("b must enter: %v", st)
	}
}

func TestHeavyReadsWithoutALimitLetAllThrough(t *testing.T) {
	h := NewHeavyReads(0, 0)
	for i := range 100 {
		if release, st := h.enter(context.Background(), "Bearer a"); st != nil || release == nil {
			t.Fatalf("read %d: %v", i, st)
		}
	}
}

// The middleware: only heavy-read routes are limited, and a refusal is a
// 429 with Retry-After and the error body.
func TestLimitHeavyReadsAnswers429OnHeavyRoutesOnly(t *testing.T) {
	table := routes.NewTable(routes.Descriptors())
	if !table.Heavy(http.MethodGet, "/v1/developer/quotes") || !table.Heavy(http.MethodGet, "/v1/developer/candles") ||
		!table.Heavy(http.MethodGet, "/v1/dashboard/coverage") {
		t.Fatal("the cross-section, candles of symbols and coverage must be heavy reads")
	}
	if table.Heavy(http.MethodGet, "/v1/developer/quote") || table.Heavy(http.MethodPost, "/v1/developer/collector/quotes") {
		t.Fatal("a single quote and a write are not heavy reads")
	}
	h := NewHeavyReads(1, time.Millisecond)
	held, _ := h.enter(context.Background(), "Bearer alice")
	defer held()
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	handler := LimitHeavyReads(table, h, codec.NewMarshaler(), ok)

	for _, c := range []struct {
		path string
		want int
	}{{"/v1/developer/quotes?symbols=A", http.StatusTooManyRequests}, {"/v1/developer/quote?symbol=A", http.StatusOK}} {
		r := httptest.NewRequest(http.MethodGet, c.path, nil)
		r.Header.Set("Authorization", "Bearer alice")
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s: %d, want %d (%s)", c.path, w.Code, c.want, w.Body)
		}
		if c.want == http.StatusTooManyRequests && w.Header().Get("Retry-After") != "1" {
			t.Errorf("%s: Retry-After %q, want 1", c.path, w.Header().Get("Retry-After"))
		}
	}
}

// A heavy read's turn rests as long as the read took before it passes on
// (half of the slot's time for heavy reads), and the answer is not held
// meanwhile: the rest is a timer's (replaced here by a gate, and the
// clock by one the read moves on).
func TestHeavyReadTurnRestsAsLongAsTheReadTook(t *testing.T) {
	table := routes.NewTable(routes.Descriptors())
	h := NewHeavyReads(1, time.Minute)
	clock := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	h.now = func() time.Time { return clock }
	var rest time.Duration
	var pass func()
	h.after = func(d time.Duration, f func()) { rest, pass = d, f }
	const took = 20 * time.Millisecond
	read := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		clock = clock.Add(took) // the read's own work
		w.WriteHeader(http.StatusOK)
	})
	handler := LimitHeavyReads(table, h, codec.NewMarshaler(), read)
	r := httptest.NewRequest(http.MethodGet, "/v1/developer/quotes?symbols=A", nil)
	r.Header.Set("Authorization", "Bearer alice")
	w := httptest.NewRecorder()
	handler.ServeHTTP(w, r) // returns with the answer written
	if w.Code != http.StatusOK || pass == nil {
		t.Fatalf("answer %d, rest scheduled %v", w.Code, pass != nil)
	}
	if rest != took {
		t.Errorf("the turn rests %v after a read of %v", rest, took)
	}
	h.mu.Lock()
	running := h.running
	h.mu.Unlock()
	if running != 1 {
		t.Fatalf("the turn was given back before its rest: %d running", running)
	}
	pass()
	h.mu.Lock()
	running = h.running
	h.mu.Unlock()
	if running != 0 {
		t.Errorf("%d running after the rest", running)
	}
}
