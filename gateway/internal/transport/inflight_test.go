package transport

import (
	"context"
	"testing"
	"time"
)

func TestBodyBudget(t *testing.T) {
	b := NewBodyBudget(100)
	ctx := context.Background()
	if !b.acquire(ctx, 60, false) {
		t.Fatal("first acquire failed")
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if b.acquire(short, 50, false) {
		t.Fatal("acquired past the budget")
	}
	got := make(chan bool)
	go func() { got <- b.acquire(ctx, 50, false) }()
	time.Sleep(10 * time.Millisecond)
	b.release(60, false)
	if !<-got {
		t.Fatal("waiter not served after release")
	}
	if n, _ := b.inUse(); n != 50 {
		t.Errorf("in use = %d, want 50", n)
	}
	b.release(50, false)
	if n, _ := b.inUse(); n != 0 {
		t.Errorf("in use = %d, want 0", n)
	}
}

// Strangers (requests whose token the server has not accepted lately)
// together hold at most half the budget: the other half stays for known
// clients, and a known waiter is served before a stranger.
func TestBodyBudgetKeepsHalfForKnownTokens(t *testing.T) {
	b := NewBodyBudget(100)
	ctx := context.Background()
	if !b.acquire(ctx, 50, true) {
		t.Fatal("a stranger could not take its half")
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if b.acquire(short, 1, true) {
		t.Fatal("strangers took more than half")
	}
	if !b.acquire(ctx, 50, false) {
		t.Fatal("a known client could not use the other half")
	}
	stranger, known := make(chan bool), make(chan bool)
	go func() { stranger <- b.acquire(ctx, 10, true) }()
	time.Sleep(10 * time.Millisecond)
	go func() { known <- b.acquire(ctx, 10, false) }()
	time.Sleep(10 * time.Millisecond)
	b.release(50, false) // room for both, but strangers still hold their half
	if !<-known {
		t.Fatal("known waiter not served")
	}
	select {
	case <-stranger:
		t.Fatal("a stranger was served past the strangers' half")
	case <-time.After(20 * time.Millisecond):
	}
	b.release(50, true)
	if !<-stranger {
		t.Fatal("stranger not served once strangers released")
	}
	if all, strangers := b.inUse(); all != 20 || strangers != 10 {
		t.Errorf("in use = %d (strangers %d), want 20 (10)", all, strangers)
	}
}
