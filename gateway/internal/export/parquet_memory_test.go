package export

import (
	"io"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"
)

// heapInUse is the bytes of live and unswept heap objects.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// The Parquet encoder's memory per export is bounded by its row group
// (parquetRowGroupRows rows, held encoded until complete), its Arrow
// batch and, with pages encoded on several goroutines (pages.go), the pages
// in flight, whatever the export's length: writing 100 pages of the widest
// layout (full quotes: every payload number, ohlc and 5 depth levels a
// side) never holds more than parquetMaxHeldBytes on the heap, sampled
// every 10 pages with garbage collected, in turn and on four goroutines.
func TestParquetEncoderMemoryIsBounded(t *testing.T) {
	wire := benchChunk(&testing.B{})
	for _, workers := range []int{1, 4} {
		t.Run(strconv.Itoa(workers), func(t *testing.T) {
			defer func(n int) { pageWorkers = n }(pageWorkers)
			pageWorkers = workers
			// Twice: what earlier tests left with finalizers is freed only
			// by the collection after the one that ran them, which would
			// otherwise come during the export and take the heap below base.
			runtime.GC()
			runtime.GC()
			base := heapInUse()
			var f format
			for _, ff := range formats {
				if ff.name == "parquet" {
					f = ff
				}
			}
			enc, err := f.open(io.Discard, quotesLayout)
			if err != nil {
				t.Fatal(err)
			}
			var peak uint64
			start := time.Now()
			page := 1
			recv := func(c *wireChunk) error {
				if page == 100 {
					return io.EOF
				}
				page++
				if page%10 == 0 {
					runtime.GC()
					if now := heapInUse(); now > base && now-base > peak {
						peak = now - base
					}
				}
				c.b = append(c.b[:0], wire...)
				return nil
			}
			if err := writePages(enc, &wireChunk{b: wire}, true, recv, func() {}, func() {}); err != nil {
				t.Fatal(err)
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			t.Logf("peak %d MB held by one Parquet export of 100,000 full quotes on %d goroutines (%v)", peak>>20, workers, time.Since(start).Round(time.Millisecond))
			if peak > parquetMaxHeldBytes {
				t.Errorf("the Parquet encoder held %d MB, bound %d MB", peak>>20, parquetMaxHeldBytes>>20)
			}
		})
	}
}
