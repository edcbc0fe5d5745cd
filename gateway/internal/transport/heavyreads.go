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
// Two limits, like the server's: `slots` heavy reads forwarded at once (a
// further one waits, first come first served, for at most `wait`), and
// `perToken` heavy reads of one bearer token running or waiting (a further
// one is refused at once, so one client's burst cannot fill the queue).
// A refusal is 429 with reason HEAVY_READS_LIMITED (metadata `limit`:
// "gateway" or "developer") and Retry-After: 1.
//
// Safe for concurrent use.
type HeavyReads struct {
	slots    int // 0: no limit
	perToken int // 0: no limit
	wait     time.Duration
	mu       sync.Mutex
	running  int
	// queue holds the waiters, first come first: a turn given back goes to
	// the first.
	queue  []chan struct{}
	tokens map[[32]byte]int
}

// NewHeavyReads returns the limits; slots or perToken 0: that limit is off.
func NewHeavyReads(slots, perToken int, wait time.Duration) *HeavyReads {
	return &HeavyReads{slots: slots, perToken: perToken, wait: wait, tokens: map[[32]byte]int{}}
}

// enter waits for a heavy read's turn. It returns the function that gives
// the turn back, or the refusal to answer with (nil, nil: the client left
// while waiting).
func (h *HeavyReads) enter(ctx context.Context, authorization string) (func(), *status.Status) {
	key, keyed := tokenKey(authorization)
	keyed = keyed && h.perToken > 0
	h.mu.Lock()
	if keyed && h.tokens[key] >= h.perToken {
		h.mu.Unlock()
		return nil, heavyRefusal("developer", fmt.Sprintf("too many heavy reads at once: a client may have %d "+
			"cross-sections, candles of many symbols or coverage reads running or waiting in a gateway "+
			"(MDC_GATEWAY_HEAVY_READS_PER_TOKEN); retry once one of them is answered", h.perToken))
	}
	if keyed {
		h.tokens[key]++
	}
	release := func() { h.leave(key, keyed) }
	if h.slots <= 0 || (h.running < h.slots && len(h.queue) == 0) {
		h.running++
		h.mu.Unlock()
		return release, nil
	}
	turn := make(chan struct{})
	h.queue = append(h.queue, turn)
	h.mu.Unlock()

	timer := time.NewTimer(h.wait)
	defer timer.Stop()
	var refusal *status.Status
	select {
	case <-turn:
		return release, nil
	case <-timer.C:
		refusal = heavyRefusal("gateway", fmt.Sprintf("the gateway is busy with heavy reads: %d are forwarded at once "+
			"(MDC_GATEWAY_HEAVY_READS) and this one waited %s for its turn; nothing was read, retry", h.slots, h.wait))
	case <-ctx.Done():
	}
	h.mu.Lock()
	if i := slices.Index(h.queue, turn); i >= 0 {
		h.queue = slices.Delete(h.queue, i, i+1)
		if keyed {
			h.forget(key)
		}
		h.mu.Unlock()
		return nil, refusal
	}
	h.mu.Unlock()
	// The turn came as the wait ended: given back to the next.
	release()
	return nil, refusal
}

// leave gives a turn back: to the first waiter, else to the pool.
func (h *HeavyReads) leave(key [32]byte, keyed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if keyed {
		h.forget(key)
	}
	if len(h.queue) > 0 {
		close(h.queue[0]) // the turn passes on; running stays
		h.queue = h.queue[1:]
		return
	}
	h.running--
}

// forget counts one heavy read of key fewer. h.mu is held.
func (h *HeavyReads) forget(key [32]byte) {
	if h.tokens[key]--; h.tokens[key] <= 0 {
		delete(h.tokens, key)
	}
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
		defer release()
		next.ServeHTTP(w, r)
	})
}
