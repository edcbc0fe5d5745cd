package e2e

// Heartbeats of idle watches (docs/api.md "Watch semantics"): a watch with
// nothing to send still sends a message without events every
// MDC_WATCH_HEARTBEAT, whose cursor moves past records it does not select,
// so a client can tell a live connection from a dead one and resumes from a
// recent place.

import (
	"testing"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestIdleWatchSendsHeartbeatsThatCarryItsCursorForward(t *testing.T) {
	stack := StartStackWith(t, StackOptions{Env: []string{"MDC_WATCH_HEARTBEAT=1"}})
	_, token := stack.NewDeveloper(t, "developer")
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, stack))
	ctx := withToken(streamContext(t), token)
	day := uniqueDay(t)

	nifty, err := client.WatchNifty(ctx, &mdcv1.WatchNiftyRequest{})
	if err != nil {
		t.Fatal(err)
	}
	live := expectHello(t, nifty)

	// Nothing selected is written: the next messages are heartbeats.
	for i := 0; i < 2; i++ {
		msg, err := nifty.Recv()
		if err != nil {
			t.Fatalf("heartbeat %d: %v", i, err)
		}
		if len(msg.GetEvents()) != 0 || msg.GetCursor() != live {
			t.Fatalf("heartbeat %d = %d events, cursor %q; want none, cursor %q", i, len(msg.GetEvents()), msg.GetCursor(), live)
		}
	}

	// A record it does not select moves its cursor past that record.
	postQuotes(t, stack, token, uniqueSymbol(t, "H"), devQuote{at: day + "T09:15:00", price: 1})
	moved := ""
	for moved == "" {
		msg, err := nifty.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if len(msg.GetEvents()) != 0 {
			t.Fatalf("a NIFTY watch got %s", eventKey(msg.GetEvents()[0]))
		}
		if msg.GetCursor() != live {
			moved = msg.GetCursor()
		}
	}

	// Resuming from the moved cursor gets what follows it, and only that.
	postNifty(t, stack, token, devQuote{at: day + "T09:16:00", price: 22000})
	resumed, err := client.WatchNifty(ctx, &mdcv1.WatchNiftyRequest{Cursor: moved})
	if err != nil {
		t.Fatal(err)
	}
	expectHello(t, resumed)
	got := recvEvents(t, resumed, 1)
	if want := "N " + istKey(t, day, "09:16:00"); eventKey(got[0]) != want {
		t.Fatalf("resumed watch got %s, want %s", eventKey(got[0]), want)
	}
	if e := firstMatching(t, nifty, "N "+istKey(t, day, "09:16:00")); e == nil {
		t.Fatal("the first watch did not get the NIFTY quote")
	}
}
