package transport

import (
	"context"
	"testing"
	"time"
)

// awaitWaiters returns once known and strangers acquires wait in b's queues,
// failing the test after 10 s: so a test orders its goroutines by what the
// budget shows, not by sleeping.
func awaitWaiters(t *testing.T, b *BodyBudget, known, strangers int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b.mu.Lock()
		k, o := b.known.Len(), b.others.Len()
		b.mu.Unlock()
		if k == known && o == strangers {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiters: %d known, %d strangers; want %d, %d", k, o, known, strangers)
		}
		time.Sleep(time.Millisecond) // polling, not ordering
	}
}

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
	awaitWaiters(t, b, 1, 0)
	b.release(60, false)
	if !<-got {
		t.Fatal("waiter not served after release")
	}
	if n, _ := b.InUse(); n != 50 {
		t.Errorf("in use = %d, want 50", n)
	}
	b.release(50, false)
	if n, _ := b.InUse(); n != 0 {
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
	awaitWaiters(t, b, 0, 1)
	go func() { known <- b.acquire(ctx, 10, false) }()
	awaitWaiters(t, b, 1, 1)
	b.release(50, false) // room for both, but strangers still hold their half
	if !<-known {
		t.Fatal("known waiter not served")
	}
	// release grants synchronously: a stranger it served has left the queue.
	awaitWaiters(t, b, 0, 1)
	select {
	case <-stranger:
		t.Fatal("a stranger was served past the strangers' half")
	default:
	}
	b.release(50, true)
	if !<-stranger {
		t.Fatal("stranger not served once strangers released")
	}
	if all, strangers := b.InUse(); all != 20 || strangers != 10 {
		t.Errorf("in use = %d (strangers %d), want 20 (10)", all, strangers)
	}
}
