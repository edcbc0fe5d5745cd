package export

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/jsonnum"
)

// The cells of an mdc.v1.QuoteData read from its wire bytes (wire.go says
// why): its status, every payload number, the ohlc and the depth, which is
// written as the proto JSON text protojson would write for it.

// payloadColumns are the numbers of mdc.v1.QuotePayload, in its order, by
// their JSON names (docs/api.md 2.2), which are also the columns' names; a
// test checks the list against the message.
var payloadColumns = [...]protoreflect.Name{
	"last_price", "day_change", "day_change_perc", "volume", "average_price",
	"bid_quantity", "bid_price", "upper_circuit_limit", "lower_circuit_limit",
	"high_trade_range", "low_trade_range", "implied_volatility",
	"last_trade_quantity", "market_cap", "offer_price", "offer_quantity",
	"oi_day_change", "oi_day_change_percentage", "open_interest",
	"previous_open_interest", "total_buy_quantity", "total_sell_quantity",
	"week_52_high", "week_52_low", "last_trade_time",
}

// ohlcColumns are mdc.v1.Ohlc's fields, written as ohlc_<name>.
var ohlcColumns = [...]protoreflect.Name{"open", "high", "low", "close"}

// Field numbers, from the descriptors.
var (
	quoteDataStatusField  = fieldNumber(&mdcv1.QuoteData{}, "status")
	quoteDataPayloadField = fieldNumber(&mdcv1.QuoteData{}, "payload")
	payloadOhlcField      = fieldNumber(&mdcv1.QuotePayload{}, "ohlc")
	payloadDepthField     = fieldNumber(&mdcv1.QuotePayload{}, "depth")
	depthBuyField         = fieldNumber(&mdcv1.Depth{}, "buy")
	depthSellField        = fieldNumber(&mdcv1.Depth{}, "sell")
	levelPriceField       = fieldNumber(&mdcv1.DepthLevel{}, "price")
	levelQuantityField    = fieldNumber(&mdcv1.DepthLevel{}, "quantity")
	payloadSlots          = slotsOf(&mdcv1.QuotePayload{}, payloadColumns[:])
	ohlcSlots             = slotsOf(&mdcv1.Ohlc{}, ohlcColumns[:])
)

// slotsOf maps the field numbers of m's fields called names to their
// index in names; -1 for every other number.
func slotsOf(m proto.Message, names []protoreflect.Name) []int8 {
	var nums []protowire.Number
	biggest := protowire.Number(0)
	for _, name := range names {
		n := fieldNumber(m, name)
		nums = append(nums, n)
		biggest = max(biggest, n)
	}
	slots := make([]int8, biggest+1)
	for i := range slots {
		slots[i] = -1
	}
	for i, n := range nums {
		slots[n] = int8(i)
	}
	return slots
}

// slotOf is the slot of field num, or -1.
func slotOf(slots []int8, num protowire.Number) int {
	if int(num) >= len(slots) {
		return -1
	}
	return int(slots[num])
}

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

// read takes the cells of QuoteData b, replacing what the cells held.
func (q *quoteCells) read(b []byte) error {
	q.reset()
	r := newWireReader(b)
	for r.next() {
		switch r.num {
		case quoteDataStatusField:
			q.status = int32(r.varint())
		case quoteDataPayloadField:
			if p := r.bytes(); r.err() == nil {
				q.readPayload(p)
			}
		default:
			r.skip()
		}
	}
	return r.err()
}

func (q *quoteCells) readPayload(b []byte) {
	r := newWireReader(b)
	for r.next() {
		switch r.num {
		case payloadOhlcField:
			if o := r.bytes(); r.err() == nil {
				q.readOhlc(o)
			}
		case payloadDepthField:
			q.depth, q.hasDepth = r.bytes(), true
		default:
			if i := slotOf(payloadSlots, r.num); i >= 0 {
				q.numbers[i] = r.double()
				q.set |= 1 << i
			} else {
				r.skip()
			}
		}
	}
}

func (q *quoteCells) readOhlc(b []byte) {
	r := newWireReader(b)
	for r.next() {
		if i := slotOf(ohlcSlots, r.num); i >= 0 {
			q.ohlc[i] = r.double()
			q.ohlcSet |= 1 << i
		} else {
			r.skip()
		}
	}
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
	sides := [...]struct {
		num  protowire.Number
		name string
	}{{depthBuyField, `"buy":[`}, {depthSellField, `"sell":[`}}
	wrote := false
	for _, side := range sides {
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
				out = append(out, ',', side.name[0])
				out = append(out, side.name[1:]...)
			default:
				out = append(out, side.name...)
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

// appendLevelJSON appends one mdc.v1.DepthLevel as JSON; of a field given
// twice the last counts, as in any protobuf reader.
func appendLevelJSON(out, level []byte) ([]byte, error) {
	var price, quantity float64
	var hasPrice, hasQuantity bool
	r := newWireReader(level)
	for r.next() {
		switch r.num {
		case levelPriceField:
			price, hasPrice = r.double(), true
		case levelQuantityField:
			quantity, hasQuantity = r.double(), true
		default:
			r.skip()
		}
	}
	if r.err() != nil {
		return out, r.err()
	}
	out = append(out, '{')
	if hasPrice {
		out = jsonnum.Append(append(out, `"price":`...), price)
	}
	if hasQuantity {
		if hasPrice {
			out = append(out, ',')
		}
		out = jsonnum.Append(append(out, `"quantity":`...), quantity)
	}
	return append(out, '}'), nil
}
