package upstream

// The connections that carry the streaming calls (StreamService: watches
// and day replay), apart from the one connection of the unary calls.
//
// An HTTP/2 connection carries a bounded number of calls at once: each
// mdc-server allows MDC_MAX_THREADS/2 per connection (64 by default), to
// keep its synchronous handlers from running out of threads. A watch holds
// its call for as long as the client watches, so on the shared connection
// some sixty HTTP watchers would take every slot and every other request of
// the gateway would wait behind them. Streams therefore go to a pool of
// connections of their own: each carries at most perConn streams (below the
// servers' limit, MDC_GATEWAY_STREAMS_PER_CONNECTION), a new one is opened
// when all are full, and an extra one that carried no stream for
// streamConnIdleTimeout is closed. Every pooled connection is dialed like
// the unary one (Dial: the same servers, round robin over the healthy ones,
// the same interceptors), so streams spread over the servers too.

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultStreamsPerConnection is the default of
// MDC_GATEWAY_STREAMS_PER_CONNECTION: half the servers' default limit of 64
// calls per connection, so a server started with fewer threads (as few as
// MDC_MAX_THREADS 66: 33 calls, 32 streams and the health checks) still
// takes every stream at once.
const DefaultStreamsPerConnection = 32

// MaxStreamsPerConnection bounds MDC_GATEWAY_STREAMS_PER_CONNECTION: below
// the largest per-connection limit a server can have (512, with
// MDC_MAX_THREADS 1024), as each connection also carries one stream of
// health checks per server (servers.go).
const MaxStreamsPerConnection = 511

// streamConnIdleTimeout is how long an extra stream connection stays open
// without a stream; the first one stays open, so the next watch does not
// wait for a connection and a health check.
const streamConnIdleTimeout = time.Minute

// streamConn is what the pool needs of a connection (*grpc.ClientConn).
type streamConn interface {
	grpc.ClientConnInterface
	Close() error
}

// pooledConn is one connection of the pool and the streams it carries.
type pooledConn struct {
	conn      streamConn
	active    int       // streams open on it
	idleSince time.Time // when active last fell to 0
}

// StreamPool hands each streaming call a connection with a free slot. It
// implements grpc.ClientConnInterface, so the generated StreamService
// client runs on it.
type StreamPool struct {
	dial        func() (streamConn, error)
	perConn     int
	idleTimeout time.Duration
	now         func() time.Time
	afterFunc   func(time.Duration, func()) // schedules the idle check

	mu     sync.Mutex
	conns  []*pooledConn // oldest first; conns[0] is never closed for idleness
	closed bool
}

// newStreamPool returns a pool that opens connections with dial, at most
// perConn streams on each.
func newStreamPool(dial func() (streamConn, error), perConn int) *StreamPool {
	return &StreamPool{
		dial:        dial,
		perConn:     perConn,
		idleTimeout: streamConnIdleTimeout,
		now:         time.Now,
		afterFunc:   func(d time.Duration, f func()) { time.AfterFunc(d, f) },
	}
}

// DialStreamPool is the pool of the gateway's Run: connections dialed as
// Dial does, with opts (credentials).
func DialStreamPool(addr string, callTimeout time.Duration, perConn int, opts ...grpc.DialOption) (*StreamPool, error) {
	dial := func() (streamConn, error) { return Dial(addr, callTimeout, opts...) }
	// A malformed address fails here, at start-up, rather than at the
	// first watch.
	if _, _, err := serverTarget(addr); err != nil {
		return nil, err
	}
	return newStreamPool(dial, perConn), nil
}

// acquire takes a slot on the oldest connection that has one, opening a new
// connection when every one is full. Filling the oldest first leaves the
// newer ones to empty out and close when the load falls.
func (p *StreamPool) acquire() (*pooledConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, status.Error(codes.Unavailable, "the gateway is shutting down")
	}
	for _, c := range p.conns {
		if c.active < p.perConn {
			c.active++
			return c, nil
		}
	}
	// grpc.NewClient does not connect: dialing under the lock is cheap.
	conn, err := p.dial()
	if err != nil {
		return nil, status.Error(codes.Unavailable, "the mdc server is unavailable; try again later")
	}
	c := &pooledConn{conn: conn, active: 1}
	p.conns = append(p.conns, c)
	return c, nil
}

// release gives back the slot of a stream that ended. A connection left
// without streams is checked again once it could have been idle for
// idleTimeout.
func (p *StreamPool) release(c *pooledConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c.active--
	if c.active == 0 && !p.closed {
		c.idleSince = p.now()
		p.afterFunc(p.idleTimeout, p.closeIdle)
	}
}

// closeIdle closes every connection but the first that has carried no
// stream for idleTimeout.
func (p *StreamPool) closeIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.conns) == 0 {
		return
	}
	now := p.now()
	kept := p.conns[:1]
	for _, c := range p.conns[1:] {
		if c.active == 0 && now.Sub(c.idleSince) >= p.idleTimeout {
			_ = c.conn.Close()
			continue
		}
		kept = append(kept, c)
	}
	clear(p.conns[len(kept):])
	p.conns = kept
}

// Close closes every connection; streams still open on them end with
// CANCELED, and later calls fail with UNAVAILABLE.
func (p *StreamPool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, c := range p.conns {
		_ = c.conn.Close()
	}
	p.conns = nil
	return nil
}

// Stats are the pool's connections and the streams open on them (metrics).
func (p *StreamPool) Stats() (conns, streams int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		streams += c.active
	}
	return len(p.conns), streams
}

// Invoke runs a unary call on a pooled connection (StreamService has none;
// here so the pool is a whole grpc.ClientConnInterface).
func (p *StreamPool) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	c, err := p.acquire()
	if err != nil {
		return err
	}
	defer p.release(c)
	return c.conn.Invoke(ctx, method, args, reply, opts...)
}

// NewStream opens a stream on a pooled connection. Its slot is given back
// when the stream ends: when a receive fails (io.EOF included) or ctx is
// done, the two ways gRPC ends a client stream.
func (p *StreamPool) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	c, err := p.acquire()
	if err != nil {
		return nil, err
	}
	cs, err := c.conn.NewStream(ctx, desc, method, opts...)
	if err != nil {
		p.release(c)
		return nil, err
	}
	s := &pooledStream{ClientStream: cs, end: sync.OnceFunc(func() { p.release(c) })}
	// ctx is the HTTP request's: it is done at the latest when the handler
	// returns, which also drops this registration.
	context.AfterFunc(ctx, s.end)
	return s, nil
}

// pooledStream gives its slot back once, when it ends.
type pooledStream struct {
	grpc.ClientStream
	end func()
}

func (s *pooledStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err != nil {
		s.end()
	}
	return err
}
