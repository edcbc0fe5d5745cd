package e2e

// Helpers of the stream tests (docs/api.md "Streams"): a gRPC client of
// mdc.v1.StreamService and readers of its messages.

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

// dialGRPC opens a gRPC connection to the stack's server, closed when t ends.
func dialGRPC(t *testing.T, s *Stack) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("dial %s: %v", s.GRPCAddr(), err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// withToken is ctx carrying the bearer token and extra metadata pairs.
func withToken(ctx context.Context, token string, pairs ...string) context.Context {
	if token != "" {
		pairs = append(pairs, "authorization", "Bearer "+token)
	}
	return metadata.AppendToOutgoingContext(ctx, pairs...)
}

// streamContext is a context for one stream that ends with t (and in any
// case after a minute, so a broken server fails the test instead of hanging
// it; no test waits for it).
func streamContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// eventKey names a stream event by its record: "Q SYMBOL instant",
// "N instant" or "S TYPE SCOPE instant".
func eventKey(e *mdcv1.MarketEvent) string {
	switch {
	case e.GetQuote() != nil:
		q := e.GetQuote()
		return fmt.Sprintf("Q %s %s", q.GetNseSymbol(), q.GetTimestamp().AsTime().UTC().Format(time.RFC3339))
	case e.GetNifty() != nil:
		return "N " + e.GetNifty().GetTimestamp().AsTime().UTC().Format(time.RFC3339)
	case e.GetShortlist() != nil:
		s := e.GetShortlist()
		return fmt.Sprintf("S %s %s %s", s.GetShortlistType(), s.GetScope(), s.GetTimestamp().AsTime().UTC().Format(time.RFC3339))
	}
	return "?"
}

// watchStream is the client end of one watch RPC.
type watchStream interface {
	Recv() (*mdcv1.MarketEvents, error)
}

// expectHello reads a watch's first message: no events, a cursor.
func expectHello(t *testing.T, stream watchStream) string {
	t.Helper()
	msg, err := stream.Recv()
	if err != nil {
		t.Fatalf("first message of the watch: %v", err)
	}
	if len(msg.GetEvents()) != 0 || msg.GetCursor() == "" {
		t.Fatalf("first message of the watch = %v, want no events and a cursor", msg)
	}
	return msg.GetCursor()
}

// recvEvents reads messages until n events arrived; every event must carry
// a cursor and each message's cursor must be its last event's.
func recvEvents(t *testing.T, stream watchStream, n int) []*mdcv1.MarketEvent {
	t.Helper()
	var events []*mdcv1.MarketEvent
	for len(events) < n {
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("after %d of %d events: %v", len(events), n, err)
		}
		for _, e := range msg.GetEvents() {
			if e.GetCursor() == "" {
				t.Fatalf("event %s has no cursor", eventKey(e))
			}
		}
		if k := len(msg.GetEvents()); k > 0 && msg.GetCursor() != msg.GetEvents()[k-1].GetCursor() {
			t.Fatalf("message cursor %q is not its last event's %q", msg.GetCursor(), msg.GetEvents()[k-1].GetCursor())
		}
		events = append(events, msg.GetEvents()...)
	}
	return events
}

// keysOf are the events' keys, in order.
func keysOf(events []*mdcv1.MarketEvent) []string {
	keys := make([]string, len(events))
	for i, e := range events {
		keys[i] = eventKey(e)
	}
	return keys
}

// replayAll runs ReplayDay to its end and returns every event, checking
// that the stream ends OK.
func replayAll(t *testing.T, client mdcv1.StreamServiceClient, ctx context.Context, req *mdcv1.ReplayDayRequest) []*mdcv1.MarketEvent {
	t.Helper()
	stream, err := client.ReplayDay(ctx, req)
	if err != nil {
		t.Fatalf("ReplayDay(%v): %v", req, err)
	}
	var events []*mdcv1.MarketEvent
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return events
		}
		if err != nil {
			t.Fatalf("ReplayDay(%v) after %d events: %v", req, len(events), err)
		}
		events = append(events, msg.GetEvents()...)
	}
}

// expectStreamCode reads the stream until it fails and checks the code.
func expectStreamCode(t *testing.T, what string, stream watchStream, want codes.Code) *status.Status {
	t.Helper()
	for {
		_, err := stream.Recv()
		if err == nil {
			continue
		}
		st := status.Convert(err)
		if st.Code() != want {
			t.Fatalf("%s: %v, want code %v", what, err, want)
		}
		return st
	}
}

// hasReason tells whether st carries a google.rpc.ErrorInfo with reason.
func hasReason(st *status.Status, reason string) bool {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetReason() == reason {
			return true
		}
	}
	return false
}
