package memrelease

import (
	"runtime"
	"runtime/debug"
	"testing"
)

var sink [][]byte

// After a burst whose memory is garbage, Excess counts it, and a release
// brings it back under Slack.
func TestExcessSeesAFreedBurst(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection mid-test
	runtime.GC()
	for range 256 {
		sink = append(sink, make([]byte, 1<<20))
	}
	runtime.GC() // the burst is live: nothing to give back
	if excess := Excess(); excess > Slack {
		t.Fatalf("excess %d with the burst live", excess)
	}
	sink = nil
	for range 8 {
		_ = make([]byte, 1<<20) // garbage the next collection finds
	}
	runtime.GC()
	if excess := Excess(); excess < 200<<20 {
		t.Fatalf("excess %d after 256 MiB became garbage, want >= 200 MiB", excess)
	}
	debug.FreeOSMemory()
	if excess := Excess(); excess > Slack {
		t.Errorf("excess %d after FreeOSMemory", excess)
	}
}

func TestDue(t *testing.T) {
	for _, tt := range []struct {
		held, live uint64
		collected  bool
		want       bool
	}{
		{Slack, 0, false, false},            // a small heap is left alone
		{Slack + 1, Slack, true, false},     // held is what was live
		{3 * Slack, Slack, true, true},      // garbage beyond Slack
		{3 * Slack, 3 * Slack, false, true}, // no collection since: maybe garbage
		{3 * Slack, 3 * Slack, true, false}, // collected and all live
		{Slack + 1, 0, true, true},          // collected, nothing live
	} {
		if got := due(tt.held, tt.live, tt.collected); got != tt.want {
			t.Errorf("due(%d MiB held, %d MiB live, collected %v) = %v", tt.held>>20, tt.live>>20, tt.collected, got)
		}
	}
}
