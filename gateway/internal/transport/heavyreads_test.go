package transport

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
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

func TestHeavyReadsPerTokenRefusesAtOnce(t *testing.T) {
	h := NewHeavyReads(0, 2, time.Hour)
	ctx := context.Background()
	a, st := h.enter(ctx, "Bearer alice")
	b, st2 := h.enter(ctx, "Bearer alice")
	if st != nil || st2 != nil || a == nil || b == nil {
		t.Fatalf("the first two of a token must enter: %v %v", st, st2)
	}
	release, st := h.enter(ctx, "Bearer alice")
	if release != nil || st == nil || st.Code() != codes.ResourceExhausted {
		t.Fatalf("the third of a token: %v, want RESOURCE_EXHAUSTED", st)
	}
	if limit, delay := limitOf(t, st.Details()); limit != "developer" || delay != HeavyReadRetryDelay {
		t.Errorf("limit %q, delay %s; want developer, %s", limit, delay, HeavyReadRetryDelay)
	}
	if other, st := h.enter(ctx, "Bearer bob"); st != nil || other == nil {
		t.Errorf("another token must enter: %v", st)
	}
	a()
	if again, st := h.enter(ctx, "Bearer alice"); st != nil || again == nil {
		t.Errorf("after one of hers is answered, alice must enter: %v", st)
	}
}

func TestHeavyReadsWaitForATurnFirstComeFirstServed(t *testing.T) {
	h := NewHeavyReads(1, 0, time.Hour)
	ctx := context.Background()
	held, _ := h.enter(ctx, "Bearer a")
	order := make(chan string, 2)
	waiting := func(n int) { // until n have taken their place in the queue
		for waiters(h) < n {
			runtime.Gosched()
		}
	}
	go func() {
		release, _ := h.enter(ctx, "Bearer b")
		order <- "b"
		release()
	}()
	waiting(1)
	go func() {
		release, _ := h.enter(ctx, "Bearer c")
		order <- "c"
		release()
	}()
	waiting(2)
	held()
	if first, second := <-order, <-order; first != "b" || second != "c" {
		t.Errorf("order %s, %s; want b, c", first, second)
	}
}

func TestHeavyReadsRefuseAfterTheWait(t *testing.T) {
	h := NewHeavyReads(1, 1, time.Millisecond)
	ctx := context.Background()
	held, _ := h.enter(ctx, "Bearer a")
	release, st := h.enter(ctx, "Bearer b")
	if release != nil || st == nil {
		t.Fatal("a heavy read finding no turn within its wait must be refused")
	}
	if limit, _ := limitOf(t, st.Details()); limit != "gateway" {
		t.Errorf("limit %q, want gateway", limit)
	}
	held()
	// The refused one no longer counts against its token's limit of one.
	if again, st := h.enter(ctx, "Bearer b"); st != nil || again == nil {
		t.Errorf("b must enter once a turn is free: %v", st)
	}
}

func TestHeavyReadsAClientThatLeavesGivesItsPlaceBack(t *testing.T) {
	h := NewHeavyReads(1, 1, time.Hour)
	held, _ := h.enter(context.Background(), "Bearer a")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if release, st := h.enter(ctx, "Bearer b"); release != nil || st != nil {
		t.Fatalf("a client that left: release %v, status %v; want neither", release != nil, st)
	}
	held()
	if again, st := h.enter(context.Background(), "Bearer b"); st != nil || again == nil {
		t.Errorf("b must enter: %v", st)
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
	h := NewHeavyReads(1, 1, time.Hour)
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

// waiters is how many wait in h's queue.
func waiters(h *HeavyReads) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queue)
}
