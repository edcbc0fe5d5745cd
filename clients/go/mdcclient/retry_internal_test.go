package mdcclient

import (
	"testing"
	"time"
)

func TestJitteredBackoffDoublesUpToTheLimitWithJitter(t *testing.T) {
	const initial, limit = 100 * time.Millisecond, time.Second
	for n, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond,
		3: 400 * time.Millisecond, 4: 800 * time.Millisecond, 5: time.Second, 40: time.Second} {
		low, high := want, time.Duration(0)
		for range 200 {
			got := jitteredBackoff(initial, limit, n)
			low, high = min(low, got), max(high, got)
		}
		if low < want/2 || high > want {
			t.Errorf("try %d: waits from %v to %v, want within [%v, %v]", n, low, high, want/2, want)
		}
		if high-low < want/10 {
			t.Errorf("try %d: waits from %v to %v: no jitter", n, low, high)
		}
	}
	if got := jitteredBackoff(0, limit, 3); got != 0 {
		t.Errorf("no initial wait: %v, want 0", got)
	}
	if got := jitteredBackoff(time.Hour, 2*time.Hour, 1000); got > 2*time.Hour || got < time.Hour {
		t.Errorf("try 1000 of an hour doubling up to two: %v", got)
	}
}

func TestRetryPolicyDefaults(t *testing.T) {
	if got := (RetryPolicy{}).withDefaults(); got != DefaultRetryPolicy {
		t.Errorf("zero policy = %+v, want %+v", got, DefaultRetryPolicy)
	}
	if got := NoRetry.withDefaults(); got.MaxAttempts != 1 {
		t.Errorf("NoRetry = %+v, want 1 attempt", got)
	}
}
