package export

import (
	"google.golang.org/protobuf/encoding/protowire"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/jsonnum"
)

// The cells of an mdc.v1.QuoteData read from its wire bytes (wire.go says
// why): its status, every payload number, the ohlc and the depth, which is
// written as the proto JSON text protojson would write for it. The reading
// itself is generated from the descriptors (quote_wire_gen.go, written by
// the build: internal/codecgen): the field numbers, the columns' names
// (payloadColumns, ohlcColumns) and the depth's JSON keys (depthLists,
// levelKeys). This file holds what the generated code fills and calls.

// quoteCells is one QuoteData read from the wire; the zero value is a
// QuoteData without status or payload. Reused from row to row.
type quoteCells struct {
	status   int32
	numbers  [len(payloadColumns)]float64
	set      uint32 // bit i: numbers[i] is present
	ohlc     [len(ohlcColumns)]float64
	ohlcSet  uint8 // bit i: ohlc[i] is present
	depth    []byte
	hasDepth bool
	json     []byte // scratch for the depth's JSON
}

// reset makes the cells those of a QuoteData without status or payload.
func (q *quoteCells) reset() {
	q.status, q.set, q.ohlcSet, q.depth, q.hasDepth = 0, 0, 0, nil, false
}

// slotOf is the index slots gives field num (a table of quote_wire_gen.go),
// or -1.
func slotOf(slots []int8, num protowire.Number) int {
	if num < 0 || int(num) >= len(slots) {
		return -1
	}
	return int(slots[num])
}

// number sets payload number i (the column payloadColumns[i]).
func (q *quoteCells) number(i int, v float64) {
	q.numbers[i] = v
	q.set |= 1 << i
}

// ohlcNumber sets ohlc number i (the column ohlc_<ohlcColumns[i]>).
func (q *quoteCells) ohlcNumber(i int, v float64) {
	q.ohlc[i] = v
	q.ohlcSet |= 1 << i
}

// write writes the cells of quoteDataColumns.
func (q *quoteCells) write(w rowWriter) error {
	w.String(mdcv1.QuoteStatus(q.status).String())
	for i := range q.numbers {
		if q.set&(1<<i) != 0 {
			w.Float(q.numbers[i])
		} else {
			w.Null()
		}
	}
	for i := range q.ohlc {
		if q.ohlcSet&(1<<i) != 0 {
			w.Float(q.ohlc[i])
		} else {
			w.Null()
		}
	}
	if !q.hasDepth {
		w.Null()
		return nil
	}
	var err error
	if q.json, err = appendDepthJSON(q.json[:0], q.depth); err != nil {
		return err
	}
	w.Text(q.json)
	return nil
}

// appendDepthJSON appends the proto JSON of the mdc.v1.Depth whose wire
// bytes are depth, as protojson writes it without spaces: the lists in
// field order, empty lists and absent numbers left out:
// {"buy":[{"price":99.5,"quantity":10}],"sell":[{"price":100.5}]}.
func appendDepthJSON(out, depth []byte) ([]byte, error) {
	out = append(out, '{')
	wrote := false
	for _, side := range depthLists {
		levels := 0
		r := newWireReader(depth)
		for r.next() {
			if r.num != side.num {
				r.skip()
				continue
			}
			level := r.bytes()
			if r.err() != nil {
				break
			}
			switch {
			case levels > 0:
				out = append(out, ',')
			case wrote:
				out = append(out, ',')
				out = append(out, side.open...)
			default:
				out = append(out, side.open...)
			}
			levels++
			var err error
			if out, err = appendLevelJSON(out, level); err != nil {
				return out, err
			}
		}
		if r.err() != nil {
			return out, r.err()
		}
		if levels > 0 {
			out = append(out, ']')
			wrote = true
		}
	}
	return append(out, '}'), nil
}

// appendLevelJSON appends one mdc.v1.DepthLevel as JSON, its present
// numbers in field order.
func appendLevelJSON(out, level []byte) ([]byte, error) {
	var v [len(levelKeys)]float64
	set, err := readLevel(level, &v)
	if err != nil {
		return out, err
	}
	out = append(out, '{')
	first := true
	for i, key := range levelKeys {
		if set&(1<<i) == 0 {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = jsonnum.Append(append(out, key...), v[i])
	}
	return append(out, '}'), nil
}
