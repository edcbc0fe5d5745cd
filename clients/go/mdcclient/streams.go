package mdcclient

// The streams of docs/api.md section 10 (mdc.v1.StreamService) as iterators
// in the style of bufio.Scanner:
//
//	stream, err := mdcclient.WatchQuotes(ctx, conn, &mdcv1.WatchQuotesRequest{Symbols: []string{"TCS"}})
//	if err != nil { ... }           // a gRPC status: Unauthenticated, InvalidArgument, ...
//	defer stream.Close()
//	for stream.Next() {
//		e := stream.Event()         // e.GetQuote(), e.GetCursor()
//	}
//	err = stream.Err()              // nil after a replay's last record or Close
//
// Each gRPC message carries up to a few hundred events and a cursor; the
// stream hands them out one at a time and remembers the cursor of the last
// message read. When the stream breaks in a way that resuming repairs (a
// server shutting down or a database outage: Unavailable; a watcher that fell
// behind: ResourceExhausted with reason WATCHER_FELL_BEHIND; a watch whose
// connection ended) it calls the RPC again with that cursor, so the caller
// misses nothing and sees nothing twice.
//
// A connection can also die silently (a network black hole: no reset, no
// error, nothing), which would block Next for ever. The server sends an idle
// watch a message without events (a heartbeat, carrying the current cursor)
// at least every MDC_WATCH_HEARTBEAT seconds (default 15), and a replay sends
// continuously; so a stream that receives nothing for its IdleTimeout
// (default DefaultIdleTimeout, three heartbeats) is taken for a lost
// connection: its RPC is cancelled, the connection closed when it is one of
// Dial's and reads nothing at all (conntrack.go), and the RPC called again
// from the cursor like any other. Messages without events move the cursor
// but are not events: Next skips them.

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// StreamOption changes how a stream resumes.
type StreamOption func(*streamConfig)

type streamConfig struct {
	retries        int
	initialBackoff time.Duration
	maxBackoff     time.Duration
	idleTimeout    time.Duration
}

// DefaultIdleTimeout is how long a stream waits for its next message,
// heartbeats included, before it takes its connection for lost: three of the
// server's default heartbeat intervals (15 s).
const DefaultIdleTimeout = 45 * time.Second

// IdleTimeout sets how long a stream may receive nothing (not even the
// heartbeat the server sends an idle watch every MDC_WATCH_HEARTBEAT
// seconds) before its connection counts as lost and it resumes on a new one;
// 0 or less waits for ever. Default DefaultIdleTimeout.
func IdleTimeout(d time.Duration) StreamOption {
	return func(c *streamConfig) { c.idleTimeout = d }
}

// ResumeRetries sets how many breaks in a row (without progress in between:
// the cursor moving, or a call that received more than its first message) a
// stream resumes from before it ends with the error; 0 turns resuming off.
// Default 3.
func ResumeRetries(n int) StreamOption {
	return func(c *streamConfig) { c.retries = n }
}

// ResumeBackoff sets the wait before resuming after a break: initial for the
// first, doubled each time up to max, with jitter. Default 250 ms and 5 s.
func ResumeBackoff(initial, max time.Duration) StreamOption {
	return func(c *streamConfig) { c.initialBackoff, c.maxBackoff = initial, max }
}

// eventsClient is the client end of any StreamService RPC.
type eventsClient interface {
	Recv() (*mdcv1.MarketEvents, error)
	Context() context.Context
}

// call is one call of the stream's RPC, with a context of its own that the
// idle timer cancels. The timer runs only while the stream waits for the
// call (opening it, Recv): a caller that takes its time between two Next
// calls does not make the connection look dead.
type call struct {
	events   eventsClient
	cancel   context.CancelFunc
	idle     *time.Timer // nil without an idle timeout
	idled    atomic.Bool // the idle timer fired
	received int         // messages received
}

// wait runs step (one blocking step of the call) under the idle timer.
func (c *call) wait(d time.Duration, step func()) {
	if c.idle == nil {
		step()
		return
	}
	c.idle.Reset(d)
	step()
	c.idle.Stop()
}

func (c *call) stop() {
	if c.idle != nil {
		c.idle.Stop()
	}
	c.cancel()
}

// EventStream is one watch or day replay, read event by event. Next, Event,
// Cursor and Err are for one goroutine; Close may be called from any.
type EventStream struct {
	ctx    context.Context
	cancel context.CancelFunc
	open   func(ctx context.Context, cursor string) (eventsClient, error)
	ends   bool // a replay ends (io.EOF); a watch that ends was cut off
	config streamConfig

	conn    *call
	pending []*mdcv1.MarketEvent
	event   *mdcv1.MarketEvent
	cursor  string
	breaks  int
	err     error
	done    bool

	mu     sync.Mutex
	closed bool
}

// WatchQuotes opens a watch of the stock quotes of req.Symbols, which never
// ends by itself. It returns once the watch is live (its first message
// came), so whatever commits afterwards reaches it; req.Cursor resumes after
// an earlier stream's Cursor. Errors are gRPC statuses (status.Code).
func WatchQuotes(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.WatchQuotesRequest, opts ...StreamOption) (*EventStream, error) {
	client := mdcv1.NewStreamServiceClient(conn)
	return openStream(ctx, req.GetCursor(), false, opts, func(ctx context.Context, cursor string) (eventsClient, error) {
		return client.WatchQuotes(ctx, &mdcv1.WatchQuotesRequest{Symbols: req.GetSymbols(), Cursor: cursor})
	})
}

// WatchNifty opens a watch of the NIFTY 50 quotes; as WatchQuotes.
func WatchNifty(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.WatchNiftyRequest, opts ...StreamOption) (*EventStream, error) {
	client := mdcv1.NewStreamServiceClient(conn)
	return openStream(ctx, req.GetCursor(), false, opts, func(ctx context.Context, cursor string) (eventsClient, error) {
		return client.WatchNifty(ctx, &mdcv1.WatchNiftyRequest{Cursor: cursor})
	})
}

// WatchShortlists opens a watch of the shortlist snapshots of one type and
// scope; as WatchQuotes.
func WatchShortlists(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.WatchShortlistsRequest, opts ...StreamOption) (*EventStream, error) {
	client := mdcv1.NewStreamServiceClient(conn)
	return openStream(ctx, req.GetCursor(), false, opts, func(ctx context.Context, cursor string) (eventsClient, error) {
		return client.WatchShortlists(ctx, &mdcv1.WatchShortlistsRequest{Type: req.GetType(), Scope: req.GetScope(), Cursor: cursor})
	})
}

// ReplayDay opens the replay of every stored record of one trading day in
// time order; Next returns false after the last one (Err nil). With the
// backtest clock in ctx (WithBacktestClock), only records stamped before
// it. It returns once the first message (or the end) came, so a refused
// replay (bad date, token, FUTURE_READ) is its error.
func ReplayDay(ctx context.Context, conn grpc.ClientConnInterface, req *mdcv1.ReplayDayRequest, opts ...StreamOption) (*EventStream, error) {
	client := mdcv1.NewStreamServiceClient(conn)
	return openStream(ctx, req.GetCursor(), true, opts, func(ctx context.Context, cursor string) (eventsClient, error) {
		return client.ReplayDay(ctx, &mdcv1.ReplayDayRequest{Date: req.GetDate(), Symbols: req.GetSymbols(), Kinds: req.GetKinds(), Cursor: cursor})
	})
}

func openStream(ctx context.Context, cursor string, ends bool, opts []StreamOption,
	open func(context.Context, string) (eventsClient, error)) (*EventStream, error) {
	config := streamConfig{retries: 3, initialBackoff: 250 * time.Millisecond, maxBackoff: 5 * time.Second,
		idleTimeout: DefaultIdleTimeout}
	for _, o := range opts {
		o(&config)
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &EventStream{ctx: ctx, cancel: cancel, open: open, ends: ends, config: config, cursor: cursor}
	// The first message comes at once: a watch's says it is live, and an
	// RPC that is refused fails on it.
	if err := s.receive(); err != nil {
		s.hangUp()
		cancel()
		return nil, err
	}
	return s, nil
}

// Next advances to the next event, waiting for it; false when the stream
// ended (a replay's last record, Close) or failed (Err).
func (s *EventStream) Next() bool {
	for len(s.pending) == 0 {
		if s.done || s.isClosed() {
			s.event = nil
			return false
		}
		if err := s.receive(); err != nil {
			s.fail(err)
		}
	}
	s.event, s.pending = s.pending[0], s.pending[1:]
	return true
}

// Event is the event Next advanced to.
func (s *EventStream) Event() *mdcv1.MarketEvent { return s.event }

// Cursor is where the stream stands: after the last message read (a watch
// has one as soon as it is open). Pass it as the request's Cursor to continue
// from there.
func (s *EventStream) Cursor() string { return s.cursor }

// Err is the error that ended the stream (a gRPC status), or nil.
func (s *EventStream) Err() error {
	if s.isClosed() {
		return nil
	}
	return s.err
}

// Close hangs up (the server ends a watch); a Next waiting in another
// goroutine returns false.
func (s *EventStream) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
}

// connect calls the RPC from the cursor, under a new idle timer.
func (s *EventStream) connect() error {
	ctx, cancel := context.WithCancel(s.ctx)
	c := &call{cancel: cancel}
	d := s.config.idleTimeout
	if d > 0 {
		// Made disarmed: wait arms it around each blocking step.
		c.idle = time.AfterFunc(time.Hour, func() {
			c.idled.Store(true)
			cancel()
		})
		c.idle.Stop()
	}
	var events eventsClient
	var err error
	c.wait(d, func() { events, err = s.open(ctx, s.cursor) })
	if err != nil {
		c.stop()
		return s.silent(c, err)
	}
	c.events = events
	s.conn = c
	return nil
}

// hangUp ends the current call, if any.
func (s *EventStream) hangUp() {
	if s.conn != nil {
		s.conn.stop()
		s.conn = nil
	}
}

// silent turns the error of a call that the idle timer cancelled into the
// Unavailable of a lost connection, closing that connection when it reads
// nothing at all (a new call on it would hear nothing either); other errors
// pass.
func (s *EventStream) silent(c *call, err error) error {
	if !c.idled.Load() || s.ctx.Err() != nil {
		return err
	}
	if c.events != nil {
		closeIfSilent(c.events.Context(), s.config.idleTimeout)
	}
	return status.Errorf(codes.Unavailable, "no message for %s: the connection is taken for lost", s.config.idleTimeout)
}

func (s *EventStream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// receive reads one message (reconnecting first when the last connection
// broke) into pending; io.EOF of a replay ends the stream.
func (s *EventStream) receive() error {
	if s.conn == nil {
		if err := s.connect(); err != nil {
			return err
		}
	}
	c := s.conn
	var msg *mdcv1.MarketEvents
	var err error
	c.wait(s.config.idleTimeout, func() { msg, err = c.events.Recv() })
	switch {
	case err != nil && c.idled.Load():
		return s.silent(c, err)
	case errors.Is(err, io.EOF) && s.ends:
		s.hangUp()
		s.done = true
		return nil
	case errors.Is(err, io.EOF):
		return status.Error(codes.Unavailable, "the watch ended without an error: the connection was cut")
	case err != nil:
		return err
	}
	c.received++
	// Progress resets the budget of breaks: the cursor moved, or this call
	// received a message after its first (a heartbeat: it worked for a while
	// before it broke).
	if cursor := msg.GetCursor(); cursor != "" && cursor != s.cursor {
		s.cursor = cursor
		s.breaks = 0
	} else if c.received > 1 {
		s.breaks = 0
	}
	// A message without events (a watch's first, a heartbeat) only moves the
	// cursor.
	s.pending = append(s.pending, msg.GetEvents()...)
	return nil
}

// fail resumes after a wait when err is resumable and the budget allows,
// else ends the stream with err.
func (s *EventStream) fail(err error) {
	s.hangUp()
	s.breaks++
	if s.isClosed() || !Resumable(err) || s.breaks > s.config.retries {
		s.err, s.done = err, true
		return
	}
	wait := jitteredBackoff(s.config.initialBackoff, s.config.maxBackoff, s.breaks)
	select {
	case <-time.After(wait):
	case <-s.ctx.Done():
	}
}

// Resumable reports whether calling a stream RPC again from the last cursor
// repairs err: a server shutting down or a database outage (Unavailable), or
// a watcher that read too slowly (ResourceExhausted, reason
// WATCHER_FELL_BEHIND).
func Resumable(err error) bool {
	st := status.Convert(err)
	switch st.Code() {
	case codes.Unavailable:
		return true
	case codes.ResourceExhausted:
		for _, d := range st.Details() {
			if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetReason() == "WATCHER_FELL_BEHIND" {
				return true
			}
		}
	}
	return false
}
