package mdcclient

// EventStream and the connection tracking on their own: scripted calls, no
// server. What a stream yields, where its cursor stands and when it gives up;
// streams_test.go covers the real streams.

import (
	"context"
	"io"
	"net"
	"slices"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// scriptedCall answers its messages, then io.EOF (a watch cut) or, when
// silent, nothing until its context ends (a connection gone silent).
type scriptedCall struct {
	ctx      context.Context
	messages []*mdcv1.MarketEvents
	silent   bool
}

func (c *scriptedCall) Recv() (*mdcv1.MarketEvents, error) {
	if len(c.messages) == 0 {
		if c.silent {
			<-c.ctx.Done()
			return nil, status.FromContextError(c.ctx.Err()).Err()
		}
		return nil, io.EOF
	}
	m := c.messages[0]
	c.messages = c.messages[1:]
	return m, nil
}

func (c *scriptedCall) Context() context.Context { return c.ctx }

// silentAfter marks a scripted call that goes silent after its messages.
type silentAfter []*mdcv1.MarketEvents

// message is a message with events (NIFTY quotes) of those cursors, or none
// (a watch's first message, a heartbeat).
func message(cursor string, eventCursors ...string) *mdcv1.MarketEvents {
	m := &mdcv1.MarketEvents{Cursor: cursor}
	for _, c := range eventCursors {
		m.Events = append(m.Events, &mdcv1.MarketEvent{Cursor: c, Record: &mdcv1.MarketEvent_Nifty{Nifty: &mdcv1.NiftyQuote{}}})
	}
	return m
}

// scriptedWatch opens a watch whose n-th call answers calls[n] (a
// []*mdcv1.MarketEvents or a silentAfter); *cursors records the cursor of
// each call.
func scriptedWatch(t *testing.T, opts []StreamOption, cursors *[]string, calls ...any) *EventStream {
	t.Helper()
	s, err := openScripted(t, opts, cursors, calls...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// openScripted is scriptedWatch when the watch may fail to open.
func openScripted(t *testing.T, opts []StreamOption, cursors *[]string, calls ...any) (*EventStream, error) {
	t.Helper()
	return openStream(context.Background(), "", false, append([]StreamOption{ResumeBackoff(0, 0)}, opts...),
		func(ctx context.Context, cursor string) (eventsClient, error) {
			*cursors = append(*cursors, cursor)
			if len(*cursors) > len(calls) {
				t.Fatalf("called %d times, scripted %d", len(*cursors), len(calls))
			}
			switch script := calls[len(*cursors)-1].(type) {
			case silentAfter:
				return &scriptedCall{ctx: ctx, messages: slices.Clone(script), silent: true}, nil
			case []*mdcv1.MarketEvents:
				return &scriptedCall{ctx: ctx, messages: slices.Clone(script)}, nil
			}
			t.Fatalf("call %d: not a script", len(*cursors))
			return nil, nil
		})
}

func TestMessagesWithoutEventsMoveTheCursorAndAreNotEvents(t *testing.T) {
	var cursors []string
	s := scriptedWatch(t, []StreamOption{ResumeRetries(0)}, &cursors, []*mdcv1.MarketEvents{message("7.1"), message("7.2"), message("8.1", "8.1"), message("9.4")})
	if s.Cursor() != "7.1" {
		t.Fatalf("open at %q, want 7.1 (the first message)", s.Cursor())
	}
	// The heartbeat 7.2 is read, not handed out.
	if !s.Next() || s.Event().GetCursor() != "8.1" || s.Event().GetNifty() == nil || s.Cursor() != "8.1" {
		t.Fatalf("Next: event %v, cursor %q; want the event 8.1", s.Event(), s.Cursor())
	}
	// The heartbeat 9.4, then the call ends: cut.
	if s.Next() {
		t.Fatalf("an event after the last: %v", s.Event())
	}
	if status.Code(s.Err()) != codes.Unavailable || s.Cursor() != "9.4" {
		t.Fatalf("Err %v, cursor %q; want Unavailable at 9.4", s.Err(), s.Cursor())
	}
}

func TestASilentCallIsResumedLikeACutOne(t *testing.T) {
	var cursors []string
	idle := IdleTimeout(50 * time.Millisecond)
	s := scriptedWatch(t, []StreamOption{ResumeRetries(1), idle}, &cursors,
		silentAfter{message("7.1"), message("7.2")},
		[]*mdcv1.MarketEvents{message("7.2"), message("8.1", "8.1")})
	if !s.Next() || s.Event().GetCursor() != "8.1" {
		t.Fatalf("Next: %v (err %v)", s.Event(), s.Err())
	}
	if want := []string{"", "7.2"}; !slices.Equal(cursors, want) {
		t.Fatalf("called from %q, want %q", cursors, want)
	}

	// Without resuming, the silence is the error; before the first message,
	// the call's.
	cursors = nil
	s = scriptedWatch(t, []StreamOption{ResumeRetries(0), idle}, &cursors, silentAfter{message("7.1")})
	if s.Next() {
		t.Fatalf("an event from a silent call: %v", s.Event())
	}
	if st := status.Convert(s.Err()); st.Code() != codes.Unavailable || st.Message() != "no message for 50ms: the connection is taken for lost" {
		t.Fatalf("Err %v; want Unavailable, no message for 50ms", s.Err())
	}
	cursors = nil
	if _, err := openScripted(t, []StreamOption{idle}, &cursors, silentAfter{}); status.Code(err) != codes.Unavailable {
		t.Fatalf("opening a silent call: %v, want Unavailable", err)
	}
}

func TestAWatchCutAfterAHeartbeatResumesFromTheHeartbeatsCursor(t *testing.T) {
	var cursors []string
	s := scriptedWatch(t, []StreamOption{ResumeRetries(1)}, &cursors,
		[]*mdcv1.MarketEvents{message("7.1"), message("7.2")},
		[]*mdcv1.MarketEvents{message("7.2"), message("8.1", "8.1")})
	if !s.Next() || s.Event().GetCursor() != "8.1" {
		t.Fatalf("Next: %v (err %v)", s.Event(), s.Err())
	}
	if want := []string{"", "7.2"}; !slices.Equal(cursors, want) {
		t.Fatalf("called from %q, want %q", cursors, want)
	}
}

func TestACallThatCarriedAHeartbeatIsProgressOneThatOnlyOpenedABreak(t *testing.T) {
	// Each call: its first message, a heartbeat (the cursor stays), then cut.
	lived := []*mdcv1.MarketEvents{message("5.0"), message("5.0")}
	var cursors []string
	s := scriptedWatch(t, []StreamOption{ResumeRetries(1)}, &cursors, lived, lived, lived, lived, []*mdcv1.MarketEvents{message("5.0"), message("6.0", "6.0")})
	if !s.Next() || s.Event().GetCursor() != "6.0" {
		t.Fatalf("Next: %v (err %v)", s.Event(), s.Err())
	}
	if want := []string{"", "5.0", "5.0", "5.0", "5.0"}; !slices.Equal(cursors, want) {
		t.Fatalf("called from %q, want %q", cursors, want)
	}

	cursors = nil
	s = scriptedWatch(t, []StreamOption{ResumeRetries(1)}, &cursors, lived, []*mdcv1.MarketEvents{message("5.0")}, []*mdcv1.MarketEvents{message("5.0"), message("6.0", "6.0")})
	if s.Next() || status.Code(s.Err()) != codes.Unavailable {
		t.Fatalf("Next: %v (err %v); want the end, Unavailable", s.Event(), s.Err())
	}
	if want := []string{"", "5.0"}; !slices.Equal(cursors, want) {
		t.Fatalf("called from %q, want %q", cursors, want)
	}
}

func TestCloseIfSilentClosesOnlyASilentTrackedConnection(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	conn, err := dialTracked(context.Background(), lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	on := peer.NewContext(context.Background(), &peer.Peer{Addr: conn.RemoteAddr(), LocalAddr: conn.LocalAddr()})

	if closeIfSilent(context.Background(), 0) {
		t.Error("closed a connection for a context without a peer")
	}
	elsewhere := peer.NewContext(context.Background(), &peer.Peer{Addr: conn.LocalAddr(), LocalAddr: conn.RemoteAddr()})
	if closeIfSilent(elsewhere, 0) {
		t.Error("closed a connection that is not the peer's")
	}
	if closeIfSilent(on, time.Hour) {
		t.Error("closed a connection silent for less than the limit")
	}
	if !closeIfSilent(on, 0) {
		t.Fatal("did not close the silent connection")
	}
	if _, err := conn.Write([]byte("x")); err == nil {
		t.Error("the connection is still open")
	}
	if _, tracked := liveConns.Load(connKey{conn.LocalAddr().String(), conn.RemoteAddr().String()}); tracked {
		t.Error("a closed connection is still tracked")
	}
}
