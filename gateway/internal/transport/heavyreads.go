package transport

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/routes"
)

// HeavyReadRetryDelay is the retry delay of a refused heavy read (the
// server's kHeavyReadRetryDelay): a turn is likely free a second later.
const HeavyReadRetryDelay = time.Second

// HeavyReads bounds the heavy reads (the RPCs whose (mdc.v1.rpc) option
// says heavy_read: the 1,000-symbol cross-section, candles of many
// symbols, coverage) the gateway forwards at once. Each answer is up to
// ~1 MB of protobuf the gateway decodes and writes again as JSON: tens of
// milliseconds of CPU. Unbounded, 32 clients asking cross-sections kept 32
// such answers in the gateway at once, and the collectors' writes waited
// behind them for the gateway's two cores for seconds (docs/performance.md,
// "Read/write isolation"). The server's own gate (MDC_HEAVY_READS) cannot
// see this: it lets a read go once its answer is made, before the gateway
// has turned it into JSON.
//
// `slots` heavy reads are forwarded at once. A further one waits for at
// most `wait`, then is refused (429, reason HEAVY_READS_LIMITED, metadata
// `limit` "gateway", Retry-After: 1). The waiters queue per bearer token,
// and a turn given back goes to the tokens in turn (round robin), each
// token's own in the order they came: a client that sends many at once
// delays its own, not the others'. Nothing is refused for its token alone,
// so a burst of one client's calls is answered (bad ones 400) rather than
// refused; the server's per-developer limit applies to what is forwarded.
//
// Safe for concurrent use.
type HeavyReads struct {
	slots int // 0: no limit
	wait  time.Duration
	// now and after: the clock, and f run once d has passed
	// (time.AfterFunc); tests replace both.
	now     func() time.Time
	after   func(d time.Duration, f func())
	mu      sync.Mutex
	running int
	// queues holds each token's waiters, first come first; order the tokens
	// with waiters, the next to be served first.
	queues map[[32]byte][]chan struct{}
	order  [][32]byte
}

// NewHeavyReads returns the limit; slots 0: no limit.
func NewHeavyReads(slots int, wait time.Duration) *HeavyReads {
	return &HeavyReads{slots: slots, wait: wait, queues: map[[32]byte][]chan struct{}{},
		now: time.Now, after: func(d time.Duration, f func()) { time.AfterFunc(d, f) }}
}

// enter waits for a heavy read's turn. It returns the function that gives
// the turn back, or the refusal to answer with (nil, nil: the client left
// while waiting).
func (h *HeavyReads) enter(ctx context.Context, authorization string) (func(), *status.Status) {
	key, _ := tokenKey(authorization) // a malformed header never gets here (RequireBearer)
	h.mu.Lock()
	if h.slots <= 0 || (h.running < h.slots && len(h.order) == 0) {
		h.running++
		h.mu.Unlock()
		return h.leave, nil
	}
	turn := make(chan struct{})
	if len(h.queues[key]) == 0 {
		h.order = append(h.order, key)
	}
	h.queues[key] = append(h.queues[key], turn)
	h.mu.Unlock()

	timer := time.NewTimer(h.wait)
	defer timer.Stop()
	var refusal *status.Status
	select {
	case <-turn:
		return h.leave, nil
	case <-timer.C:
		refusal = heavyRefusal("gateway", fmt.Sprintf("the gateway is busy with heavy reads: %d are forwarded at once "+
			"(MDC_GATEWAY_HEAVY_READS) and this one waited %s for its turn; nothing was read, retry", h.slots, h.wait))
	case <-ctx.Done():
	}
	if h.dequeue(key, turn) {
		return nil, refusal
	}
	// The turn came as the wait ended: give it to the next.
	h.leave()
	return nil, refusal
}

// dequeue takes turn out of key's queue; false when it is not there (it
// was given the turn).
func (h *HeavyReads) dequeue(key [32]byte, turn chan struct{}) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[key]
	i := slices.Index(q, turn)
	if i < 0 {
		return false
	}
	if q = slices.Delete(q, i, i+1); len(q) > 0 {
		h.queues[key] = q
		return true
	}
	delete(h.queues, key)
	h.order = slices.DeleteFunc(h.order, func(k [32]byte) bool { return k == key })
	return true
}

// leave gives a turn back: to the first waiter of the next token in turn,
// which then goes to the back of the order; with no waiter, to the pool.
func (h *HeavyReads) leave() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.order) == 0 {
		h.running--
		return
	}
	key := h.order[0]
	h.order = h.order[1:]
	q := h.queues[key]
	close(q[0]) // the turn passes on; running stays
	if q = q[1:]; len(q) > 0 {
		h.queues[key] = q
		h.order = append(h.order, key)
	} else {
		delete(h.queues, key)
	}
}

// waiting is how many wait for a turn (tests).
func (h *HeavyReads) waiting() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, q := range h.queues {
		n += len(q)
	}
	return n
}

// heavyRefusal is the 429 of a refused heavy read, in the shape of the
// server's (reason HEAVY_READS_LIMITED, a RetryInfo).
func heavyRefusal(limit, msg string) *status.Status {
	st, err := status.New(codes.ResourceExhausted, msg).WithDetails(
		&errdetails.ErrorInfo{Reason: "HEAVY_READS_LIMITED", Domain: "mdc.v1", Metadata: map[string]string{"limit": limit}},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(HeavyReadRetryDelay)})
	if err != nil {
		return status.New(codes.ResourceExhausted, msg)
	}
	return st
}

// LimitHeavyReads applies h to the requests of heavy-read routes; others
// pass untouched. It runs after RequireBearer, so the token's form is right.
func LimitHeavyReads(table *routes.Table, h *HeavyReads, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h == nil || !table.Heavy(r.Method, r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		release, refusal := h.enter(r.Context(), r.Header.Get("Authorization"))
		if refusal != nil {
			if info := reqinfo.From(r.Context()); info != nil {
				info.Route, _ = table.Match(r.Method, r.URL.Path)
			}
			apierror.Write(w, m, http.StatusTooManyRequests, refusal)
			return
		}
		if release == nil {
			apierror.Write(w, m, apierror.HTTPStatus(codes.Canceled),
				status.New(codes.Canceled, "the client left while its heavy read waited for its turn"))
			return
		}
		started := h.now()
		next.ServeHTTP(w, r)
		// The turn rests as long as the read took before it passes on, so
		// heavy reads take at most half of a slot's time: on two cores, one
		// read answered back to back still left the collectors' writes a p99
		// 4x their own (docs/performance.md, "Read/write isolation"). The
		// answer is not held: the turn is given back after the handler.
		h.after(h.now().Sub(started), release)
	})
}
