package gateway

import (
	"container/list"
	"context"
	"io"
	"sync"
	"time"
)

// bodyWait is how long a request waits for its share of the body budget
// before it is refused with 503.
const bodyWait = time.Second

// bodyBudget bounds the request body bytes the gateway holds at once, across
// all requests (MDC_MAX_BODY_BYTES_IN_FLIGHT). A request takes its share
// before its body is read and gives it back when its answer is written.
// Waiters are served first come, first served.
type bodyBudget struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters list.List // of *bodyWaiter
}

type bodyWaiter struct {
	n     int64
	ready chan struct{}
}

func newBodyBudget(size int64) *bodyBudget {
	return &bodyBudget{size: size}
}

// share is what a request for n bytes takes: never more than the whole
// budget, so one request alone always fits.
func (b *bodyBudget) share(n int64) int64 {
	return min(n, b.size)
}

// acquire takes n bytes (n <= b.size), waiting until ctx is done. It reports
// whether it got them.
func (b *bodyBudget) acquire(ctx context.Context, n int64) bool {
	b.mu.Lock()
	if b.size-b.used >= n && b.waiters.Len() == 0 {
		b.used += n
		b.mu.Unlock()
		return true
	}
	w := &bodyWaiter{n: n, ready: make(chan struct{})}
	elem := b.waiters.PushBack(w)
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
			b.release(n)
		default:
			isFront := b.waiters.Front() == elem
			b.waiters.Remove(elem)
			if isFront {
				// Those behind may fit now.
				b.grantLocked()
			}
			b.mu.Unlock()
		}
		return false
	}
}

// release gives back n bytes.
func (b *bodyBudget) release(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	if b.used < 0 {
		panic("gateway: body budget released more than acquired")
	}
	b.grantLocked()
	b.mu.Unlock()
}

// grantLocked wakes the waiters at the front that fit.
func (b *bodyBudget) grantLocked() {
	for {
		front := b.waiters.Front()
		if front == nil {
			return
		}
		w := front.Value.(*bodyWaiter)
		if b.size-b.used < w.n {
			return
		}
		b.used += w.n
		b.waiters.Remove(front)
		close(w.ready)
	}
}

// inUse is the number of bytes taken (tests).
func (b *bodyBudget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// bodyChunkSize is the size of the buffers a body of unknown length is read
// into. They are pooled: the memory of bodies that come and go is reused
// instead of left to the garbage collector.
const bodyChunkSize = 32 << 10

var bodyChunks = sync.Pool{New: func() any { return new([bodyChunkSize]byte) }}

// chunkedBody is a body read into pooled chunks.
type chunkedBody struct {
	chunks []*[bodyChunkSize]byte
	n      int64
}

// readChunked reads at most max bytes of r.
func readChunked(r io.Reader, max int64) (*chunkedBody, error) {
	b := &chunkedBody{}
	for b.n < max {
		c := bodyChunks.Get().(*[bodyChunkSize]byte)
		b.chunks = append(b.chunks, c)
		want := int64(bodyChunkSize)
		if max-b.n < want {
			want = max - b.n
		}
		got, err := io.ReadFull(r, c[:want])
		b.n += int64(got)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return b, nil
		}
		if err != nil {
			b.free()
			return nil, err
		}
	}
	return b, nil
}

// reader reads the body. It must not be used after free.
func (b *chunkedBody) reader() io.Reader {
	readers := make([]io.Reader, 0, len(b.chunks))
	left := b.n
	for _, c := range b.chunks {
		n := min(left, bodyChunkSize)
		readers = append(readers, &chunkReader{buf: c[:n]})
		left -= n
	}
	return io.MultiReader(readers...)
}

// free returns the chunks to the pool.
func (b *chunkedBody) free() {
	for i, c := range b.chunks {
		bodyChunks.Put(c)
		b.chunks[i] = nil
	}
	b.chunks = nil
}

// chunkReader reads buf once.
type chunkReader struct{ buf []byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}
