package upstream

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// fakeConn is a connection whose streams end when the test says so.
type fakeConn struct {
	id     int
	closed bool
	// failNext makes the next NewStream fail.
	failNext bool
}

func (c *fakeConn) Invoke(context.Context, string, any, any, ...grpc.CallOption) error {
	return nil
}

func (c *fakeConn) NewStream(ctx context.Context, _ *grpc.StreamDesc, _ string, _ ...grpc.CallOption) (grpc.ClientStream, error) {
	if c.failNext {
		c.failNext = false
		return nil, status.Error(codes.Unavailable, "no")
	}
	return &fakeClientStream{ctx: ctx, recv: make(chan error, 4)}, nil
}

func (c *fakeConn) Close() error {
	c.closed = true
	return nil
}

// fakeClientStream answers each RecvMsg with what recv gives.
type fakeClientStream struct {
	grpc.ClientStream
	ctx  context.Context
	recv chan error
}

func (s *fakeClientStream) RecvMsg(any) error { return <-s.recv }

// fakePool is a pool over fakeConns with a clock the test moves and idle
// checks it runs itself.
type fakePool struct {
	*StreamPool
	dialed  []*fakeConn
	clock   time.Time
	pending int // idle checks scheduled
}

func newFakePool(perConn int) *fakePool {
	f := &fakePool{clock: time.Unix(1_700_000_000, 0)}
	f.StreamPool = newStreamPool(func() (streamConn, error) {
		c := &fakeConn{id: len(f.dialed)}
		f.dialed = append(f.dialed, c)
		return c, nil
	}, perConn)
	f.now = func() time.Time { return f.clock }
	f.afterFunc = func(time.Duration, func()) { f.pending++ }
	return f
}

// open opens a stream and tells which connection carries it.
func (f *fakePool) open(t *testing.T, ctx context.Context) (*pooledStream, *fakeClientStream) {
	t.Helper()
	cs, err := f.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/mdc.v1.StreamService/WatchNifty")
	if err != nil {
		t.Fatal(err)
	}
	ps := cs.(*pooledStream)
	return ps, ps.ClientStream.(*fakeClientStream)
}

func (f *fakePool) wantStats(t *testing.T, conns, streams int) {
	t.Helper()
	if c, s := f.Stats(); c != conns || s != streams {
		t.Fatalf("pool has %d connections carrying %d streams, want %d and %d", c, s, conns, streams)
	}
}

func TestStreamPoolOpensAConnectionWhenEveryOneIsFull(t *testing.T) {
	p := newFakePool(2)
	ctx := context.Background()
	var streams []*pooledStream
	for i := 0; i < 5; i++ {
		s, _ := p.open(t, ctx)
		streams = append(streams, s)
	}
	p.wantStats(t, 3, 5)
	if len(p.dialed) != 3 {
		t.Fatalf("dialed %d connections, want 3", len(p.dialed))
	}
	// A slot freed on the first connection is taken before any other.
	streams[1].end()
	s, _ := p.open(t, ctx)
	if p.conns[0].active != 2 || len(p.dialed) != 3 {
		t.Fatalf("the freed slot of connection 0 was not reused: active %d, dialed %d", p.conns[0].active, len(p.dialed))
	}
	streams[1] = s
}

func TestStreamPoolFreesTheSlotOnceWhenTheStreamEnds(t *testing.T) {
	p := newFakePool(4)
	s, fake := p.open(t, context.Background())
	fake.recv <- nil // a message
	if err := s.RecvMsg(nil); err != nil {
		t.Fatal(err)
	}
	p.wantStats(t, 1, 1)
	fake.recv <- io.EOF
	fake.recv <- io.EOF
	if err := s.RecvMsg(nil); !errors.Is(err, io.EOF) {
		t.Fatalf("RecvMsg = %v, want io.EOF", err)
	}
	_ = s.RecvMsg(nil) // a second end gives nothing back twice
	p.wantStats(t, 1, 0)

	// A stream whose request goes away (the HTTP client left) frees its
	// slot without another receive.
	ctx, cancel := context.WithCancel(context.Background())
	p.open(t, ctx)
	p.wantStats(t, 1, 1)
	cancel()
	waitFor(t, "the slot of a canceled stream", func() bool { _, n := p.Stats(); return n == 0 })

	// A stream that could not be opened holds no slot.
	p.dialed[0].failNext = true
	if _, err := p.NewStream(context.Background(), &grpc.StreamDesc{ServerStreams: true}, "/m"); status.Code(err) != codes.Unavailable {
		t.Fatalf("NewStream = %v, want UNAVAILABLE", err)
	}
	p.wantStats(t, 1, 0)
}

func TestStreamPoolClosesExtraConnectionsLeftIdle(t *testing.T) {
	p := newFakePool(1)
	ctx := context.Background()
	a, _ := p.open(t, ctx)
	b, _ := p.open(t, ctx)
	c, _ := p.open(t, ctx)
	p.wantStats(t, 3, 3)

	a.end() // the first connection: kept however long it is idle
	b.end()
	if p.pending != 2 {
		t.Fatalf("%d idle checks scheduled, want 2", p.pending)
	}
	p.clock = p.clock.Add(p.idleTimeout - time.Second)
	p.closeIdle()
	p.wantStats(t, 3, 1) // not idle for long enough yet
	p.clock = p.clock.Add(time.Second)
	p.closeIdle()
	p.wantStats(t, 2, 1)
	if p.dialed[0].closed || !p.dialed[1].closed || p.dialed[2].closed {
		t.Fatalf("closed %v %v %v, want only connection 1", p.dialed[0].closed, p.dialed[1].closed, p.dialed[2].closed)
	}

	// A connection used again since it was last idle is idle anew.
	c.end()
	p.clock = p.clock.Add(p.idleTimeout / 2)
	d, _ := p.open(t, ctx) // takes connection 0
	e, _ := p.open(t, ctx) // takes connection 2
	e.end()
	p.clock = p.clock.Add(p.idleTimeout / 2)
	p.closeIdle()
	p.wantStats(t, 2, 1)
	p.clock = p.clock.Add(p.idleTimeout / 2)
	p.closeIdle()
	p.wantStats(t, 1, 1)
	d.end()

	// Closed: every connection goes, and no stream opens any more.
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !p.dialed[0].closed {
		t.Fatal("Close left connection 0 open")
	}
	if _, err := p.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/m"); status.Code(err) != codes.Unavailable {
		t.Fatalf("NewStream after Close = %v, want UNAVAILABLE", err)
	}
}

// waitFor polls cond until it holds (the test's own deadline ends a hang).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-t.Context().Done():
			t.Fatalf("%s: the test ended first", what)
		case <-time.After(5 * time.Millisecond):
		}
	}
}
