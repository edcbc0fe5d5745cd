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
	// The heap the last collection found live, and how many have run.
	{Name: "/gc/heap/live:bytes"},
	{Name: "/gc/cycles/total:gc-cycles"},
}

// look reads what the heap holds, what was live at the last collection,
// and the number of collections so far.
func look() (held, live, cycles uint64) {
	metrics.Read(samples)
	value := func(i int) uint64 {
		if samples[i].Value.Kind() == metrics.KindUint64 {
			return samples[i].Value.Uint64()
		}
		return 0
	}
	return value(0) + value(1) + value(2), value(3), value(4)
}

// Excess is how many bytes of heap the process holds beyond what the last
// collection found live.
func Excess() uint64 {
	held, live, _ := look()
	if held < live {
		return 0
	}
	return held - live
}

// due says whether to collect and return memory: the heap holds more than
// Slack, and either more than Slack beyond what was live at the last
// collection, or no collection ran since the last look (the garbage of a
// burst that ended just after a collection counts as live until the next
// one, which an idle program runs only after two minutes).
func due(held, live uint64, collectedSinceLastLook bool) bool {
	if held <= Slack {
		return false
	}
	return !collectedSinceLastLook || held-live > Slack
}

// Loop returns memory to the system when due, every Interval until ctx
// ends. It reports each release to released (nil: none) with the bytes the
// heap held before it.
func Loop(ctx context.Context, released func(before uint64)) {
	ticker := time.NewTicker(Interval)
	defer ticker.Stop()
	_, _, lastCycles := look()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			held, live, cycles := look()
			if due(held, live, cycles != lastCycles) {
				debug.FreeOSMemory()
				if released != nil {
					released(held)
				}
				_, _, cycles = look()
			}
			lastCycles = cycles
		}
	}
}
