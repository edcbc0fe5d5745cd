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
