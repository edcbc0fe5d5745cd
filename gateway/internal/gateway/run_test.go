package gateway

import (
	"context"
	"net"
	"testing"
	"time"
)

func TestRunStopsWhenContextEnds(t *testing.T) {
	_, addr := startFakeServer(t)
	o := testOptions()
	o.HTTPAddr = freeAddr(t)
	o.GRPCAddr = addr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, o) }()
	// Cancelled once it serves, so that the shutdown of a listening
	// server is what is tested.
	for deadline := time.Now().Add(15 * time.Second); ; {
		conn, err := net.Dial("tcp", o.HTTPAddr)
		if err == nil {
			conn.Close()
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Run returned before listening: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("Run does not listen on %s within 15 s: %v", o.HTTPAddr, err)
		}
		time.Sleep(10 * time.Millisecond) // polling, not ordering
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}
