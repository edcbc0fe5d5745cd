// Package memrelease gives the memory of a burst back to the operating
// system soon after it (docs/operations.md, "Memory per request").
//
// Go frees garbage only when a collection runs, and an idle gateway runs
// one only every two minutes (the runtime's forced GC); its scavenger then
// returns free pages gradually. After a burst of large bodies the process
// would keep hundreds of MB it no longer uses for minutes. Every Interval,
// Loop compares what the heap holds from the system with what is live after
// the last collection and, when the difference is over Slack, collects and
// returns the free pages at once (debug.FreeOSMemory). Under steady load
// the difference stays below Slack and nothing is forced.
package memrelease

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

const (
	// Interval between two looks.
	Interval = 10 * time.Second
	// Slack is how much more than the live heap the process may keep.
	Slack = 64 << 20
)

var samples = []metrics.Sample{
	// Heap memory mapped and not returned: objects (live or garbage not
	// yet swept), free and unused spans.
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/unused:bytes"},
	// The heap the last collection found live.
	{Name: "/gc/heap/live:bytes"},
}

// Excess is how many bytes of heap the process holds beyond what is live.
func Excess() uint64 {
	metrics.Read(samples)
	var held uint64
	for _, s := range samples[:3] {
		if s.Value.Kind() == metrics.KindUint64 {
			held += s.Value.Uint64()
		}
	}
	var live uint64
	if samples[3].Value.Kind() == metrics.KindUint64 {
		live = samples[3].Value.Uint64()
	}
	if held < live {
		return 0
	}
	return held - live
}

// Loop returns memory to the system when Excess is over Slack, every
// Interval until ctx ends. It reports each release to released (nil: none).
func Loop(ctx context.Context, released func(before uint64)) {
	ticker := time.NewTicker(Interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if excess := Excess(); excess > Slack {
				debug.FreeOSMemory()
				if released != nil {
					released(excess)
				}
			}
		}
	}
}
