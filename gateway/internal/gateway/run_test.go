package gateway

import (
	"context"
	"testing"
	"time"
)

func TestRunStopsWhenContextEnds(t *testing.T) {
	_, addr := startFakeServer(t)
	o := testOptions()
	o.HTTPAddr = "127.0.0.1:0"
	o.GRPCAddr = addr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, o) }()
	time.Sleep(100 * time.Millisecond)
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
