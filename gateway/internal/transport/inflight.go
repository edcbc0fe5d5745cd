package transport

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// BodyWait is how long a request waits for budget for the bytes it has just
// read before it is refused with 503.
const BodyWait = time.Second

// BodyBudget bounds the request body bytes the gateway holds at once, across
// all requests (MDC_MAX_BODY_BYTES_IN_FLIGHT). A request takes budget for
// its bytes as they arrive, not for what its Content-Length announces, so
// a client that announces a large body and sends nothing holds nothing; it
// gives all of it back when its answer is written.
//
// Requests come in two classes. Those whose bearer token the gateway has
// seen the server accept (KnownTokens) may use the whole budget; all the
// others together ("strangers": unknown or made-up tokens, sign-in) at most
// half of it, so strangers can never hold what known clients need. Waiters
// are served first come, first served within their class, known ones first.
type BodyBudget struct {
	mu      sync.Mutex
	size    int64
	used    int64     // by both classes
	strange int64     // by strangers
	known   list.List // of *bodyWaiter
	others  list.List // of *bodyWaiter
}

type bodyWaiter struct {
	n        int64
	stranger bool
	ready    chan struct{}
}

func NewBodyBudget(size int64) *BodyBudget {
	return &BodyBudget{size: size}
}

// strangerLimit is the most all strangers together may hold.
func (b *BodyBudget) strangerLimit() int64 { return b.size / 2 }

// fitsLocked reports whether n more bytes fit for a request of the class.
func (b *BodyBudget) fitsLocked(n int64, stranger bool) bool {
	if b.size-b.used < n {
		return false
	}
	return !stranger || b.strangerLimit()-b.strange >= n
}

func (b *BodyBudget) takeLocked(n int64, stranger bool) {
	b.used += n
	if stranger {
		b.strange += n
	}
}

func (b *BodyBudget) queue(stranger bool) *list.List {
	if stranger {
		return &b.others
	}
	return &b.known
}

// tryAcquire takes n bytes for a request of the class if they are free
// now and nobody of the class waits; it reports whether it took them.
func (b *BodyBudget) tryAcquire(n int64, stranger bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.queue(stranger).Len() == 0 && b.fitsLocked(n, stranger) {
		b.takeLocked(n, stranger)
		return true
	}
	return false
}

// acquire takes n bytes for a request of the class, waiting until ctx is
// done. It reports whether it got them. n is at most what the class may
// hold (callers take budget a read at a time).
func (b *BodyBudget) acquire(ctx context.Context, n int64, stranger bool) bool {
	b.mu.Lock()
	if b.queue(stranger).Len() == 0 && b.fitsLocked(n, stranger) {
		b.takeLocked(n, stranger)
		b.mu.Unlock()
		return true
	}
	w := &bodyWaiter{n: n, stranger: stranger, ready: make(chan struct{})}
	q := b.queue(stranger)
	elem := q.PushBack(w)
	b.mu.Unlock()

	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
		b.mu.Lock()
		select {
		case <-w.ready:
			// Granted just now: give it back.
			b.mu.Unlock()
			b.release(n, stranger)
		default:
			isFront := q.Front() == elem
			q.Remove(elem)
			if isFront {
				// Those behind may fit now.
				b.grantLocked()
			}
			b.mu.Unlock()
		}
		return false
	}
}

// release gives back n bytes of a request of the class.
func (b *BodyBudget) release(n int64, stranger bool) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	if stranger {
		b.strange -= n
	}
	if b.used < 0 || b.strange < 0 {
		panic("gateway: body budget released more than acquired")
	}
	b.grantLocked()
	b.mu.Unlock()
}

// grantLocked wakes the waiters at the front of each queue that fit, known
// requests first.
func (b *BodyBudget) grantLocked() {
	for _, q := range []*list.List{&b.known, &b.others} {
		for {
			front := q.Front()
			if front == nil {
				break
			}
			w := front.Value.(*bodyWaiter)
			if !b.fitsLocked(w.n, w.stranger) {
				break
			}
			b.takeLocked(w.n, w.stranger)
			q.Remove(front)
			close(w.ready)
		}
	}
}

// InUse is the number of bytes taken, and the strangers' part of it (the
// gateway's metrics read it).
func (b *BodyBudget) InUse() (all, strangers int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.strange
}
