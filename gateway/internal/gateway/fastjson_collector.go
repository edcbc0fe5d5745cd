package gateway

import (
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// decodeFast decodes the body of the three hot collector writes (Save
// Shortlist, Save NIFTY, Save Quotes) without protojson, which costs a
// fifth of the gateway's CPU under load. It reports false ("not handled")
// for any other message type and for any body it cannot decode exactly as
// protojson.UnmarshalOptions{DiscardUnknown: false} would: an unknown or
// repeated field, null, an enum number, a number written as a string, and
// everything fastScanner declines. msg is left untouched then, and the
// caller runs protojson, so every error stays what it was.
//
// The field names below are both spellings protojson accepts, the JSON name
// and the proto name (TestFastDecodeKnowsEveryField checks them against the
// descriptors).
func decodeFast(data []byte, msg proto.Message) bool {
	switch m := msg.(type) {
	case *mdcv1.SaveShortlistRequest:
		d := newFastDecoder(data)
		body := fastRequest(d, d.shortlistData)
		if !d.finish() {
			return false
		}
		m.Reset()
		m.Data = body
	case *mdcv1.SaveNiftyRequest:
		d := newFastDecoder(data)
		body := fastRequest(d, d.niftyData)
		if !d.finish() {
			return false
		}
		m.Reset()
		m.Data = body
	case *mdcv1.SaveQuotesRequest:
		d := newFastDecoder(data)
		body := fastRequest(d, d.quotesData)
		if !d.finish() {
			return false
		}
		m.Reset()
		m.Data = body
	default:
		return false
	}
	return true
}

// fastDecoder holds the scanner and hands out the *float64 of optional
// double fields from shared chunks: a quote has up to 46 of them, and one
// allocation each dominated the cost.
type fastDecoder struct {
	fastScanner
	floats []float64
}

const floatChunk = 64

func newFastDecoder(data []byte) *fastDecoder {
	return &fastDecoder{fastScanner: newFastScanner(data)}
}

// finish checks that nothing follows the top-level object and reports
// whether the body was decoded.
func (d *fastDecoder) finish() bool {
	d.end()
	return !d.bad
}

// double reads a number into a fresh *float64.
func (d *fastDecoder) double() *float64 {
	v := d.number()
	if len(d.floats) == cap(d.floats) {
		d.floats = make([]float64, 0, floatChunk)
	}
	d.floats = append(d.floats, v)
	return &d.floats[len(d.floats)-1]
}

// enum reads an enum value given by name; a name the enum lacks is an
// error in protojson, and a number is declined.
func (d *fastDecoder) enum(values map[string]int32) int32 {
	v, ok := values[d.str()]
	if !ok {
		d.decline()
	}
	return v
}

// once declines when the field numbered n was already read in this object:
// protojson refuses a field given twice, under either of its names.
func (d *fastDecoder) once(seen *uint32, n uint) {
	if *seen&(1<<n) != 0 {
		d.decline()
	}
	*seen |= 1 << n
}

// fastRequest reads {"data": ...}, the body of every collector write.
func fastRequest[T any](d *fastDecoder, data func() *T) *T {
	var body *T
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "data":
			d.once(&seen, 1)
			body = data()
		default:
			d.decline()
		}
	}
	return body
}

func (d *fastDecoder) shortlistData() *mdcv1.ShortlistData {
	m := &mdcv1.ShortlistData{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "timestamp":
			d.once(&seen, 1)
			m.Timestamp = d.str()
		case "timezone":
			d.once(&seen, 2)
			m.Timezone = d.str()
		case "shortlistType", "shortlist_type":
			d.once(&seen, 3)
			m.ShortlistType = mdcv1.ShortlistType(d.enum(mdcv1.ShortlistType_value))
		case "scope":
			d.once(&seen, 4)
			m.Scope = mdcv1.Scope(d.enum(mdcv1.Scope_value))
		case "entries":
			d.once(&seen, 5)
			d.openArray()
			for d.element() {
				m.Entries = append(m.Entries, d.shortlistEntry())
			}
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) shortlistEntry() *mdcv1.ShortlistEntry {
	m := &mdcv1.ShortlistEntry{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "nseSymbol", "nse_symbol":
			d.once(&seen, 1)
			m.NseSymbol = d.str()
		case "name":
			d.once(&seen, 2)
			m.Name = d.str()
		case "price":
			d.once(&seen, 3)
			m.Price = d.double()
		case "quoteData", "quote_data":
			d.once(&seen, 4)
			m.QuoteData = d.quoteData()
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) niftyData() *mdcv1.NiftyData {
	m := &mdcv1.NiftyData{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "timestamp":
			d.once(&seen, 1)
			m.Timestamp = d.str()
		case "timezone":
			d.once(&seen, 2)
			m.Timezone = d.str()
		case "quoteData", "quote_data":
			d.once(&seen, 3)
			m.QuoteData = d.quoteData()
		case "dayChangePerc", "day_change_perc":
			d.once(&seen, 4)
			m.DayChangePerc = d.double()
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) quotesData() *mdcv1.QuotesData {
	m := &mdcv1.QuotesData{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "timestamp":
			d.once(&seen, 1)
			m.Timestamp = d.str()
		case "timezone":
			d.once(&seen, 2)
			m.Timezone = d.str()
		case "quotes":
			d.once(&seen, 3)
			d.openArray()
			for d.element() {
				m.Quotes = append(m.Quotes, d.quoteItem())
			}
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) quoteItem() *mdcv1.QuoteItem {
	m := &mdcv1.QuoteItem{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "nseSymbol", "nse_symbol":
			d.once(&seen, 1)
			m.NseSymbol = d.str()
		case "quoteData", "quote_data":
			d.once(&seen, 2)
			m.QuoteData = d.quoteData()
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) quoteData() *mdcv1.QuoteData {
	m := &mdcv1.QuoteData{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "status":
			d.once(&seen, 1)
			m.Status = mdcv1.QuoteStatus(d.enum(mdcv1.QuoteStatus_value))
		case "payload":
			d.once(&seen, 2)
			m.Payload = d.quotePayload()
		default:
			d.decline()
		}
	}
	return m
}

// quotePayload reads the broker's quote. Its JSON names are the proto names
// (json_name is set to them), so each field has one spelling.
func (d *fastDecoder) quotePayload() *mdcv1.QuotePayload {
	m := &mdcv1.QuotePayload{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "last_price":
			d.once(&seen, 1)
			m.LastPrice = d.double()
		case "day_change":
			d.once(&seen, 2)
			m.DayChange = d.double()
		case "day_change_perc":
			d.once(&seen, 3)
			m.DayChangePerc = d.double()
		case "volume":
			d.once(&seen, 4)
			m.Volume = d.double()
		case "average_price":
			d.once(&seen, 5)
			m.AveragePrice = d.double()
		case "bid_quantity":
			d.once(&seen, 6)
			m.BidQuantity = d.double()
		case "bid_price":
			d.once(&seen, 7)
			m.BidPrice = d.double()
		case "upper_circuit_limit":
			d.once(&seen, 8)
			m.UpperCircuitLimit = d.double()
		case "lower_circuit_limit":
			d.once(&seen, 9)
			m.LowerCircuitLimit = d.double()
		case "high_trade_range":
			d.once(&seen, 10)
			m.HighTradeRange = d.double()
		case "low_trade_range":
			d.once(&seen, 11)
			m.LowTradeRange = d.double()
		case "implied_volatility":
			d.once(&seen, 12)
			m.ImpliedVolatility = d.double()
		case "last_trade_quantity":
			d.once(&seen, 13)
			m.LastTradeQuantity = d.double()
		case "market_cap":
			d.once(&seen, 14)
			m.MarketCap = d.double()
		case "offer_price":
			d.once(&seen, 15)
			m.OfferPrice = d.double()
		case "offer_quantity":
			d.once(&seen, 16)
			m.OfferQuantity = d.double()
		case "oi_day_change":
			d.once(&seen, 17)
			m.OiDayChange = d.double()
		case "oi_day_change_percentage":
			d.once(&seen, 18)
			m.OiDayChangePercentage = d.double()
		case "open_interest":
			d.once(&seen, 19)
			m.OpenInterest = d.double()
		case "previous_open_interest":
			d.once(&seen, 20)
			m.PreviousOpenInterest = d.double()
		case "total_buy_quantity":
			d.once(&seen, 21)
			m.TotalBuyQuantity = d.double()
		case "total_sell_quantity":
			d.once(&seen, 22)
			m.TotalSellQuantity = d.double()
		case "week_52_high":
			d.once(&seen, 23)
			m.Week_52High = d.double()
		case "week_52_low":
			d.once(&seen, 24)
			m.Week_52Low = d.double()
		case "last_trade_time":
			d.once(&seen, 25)
			m.LastTradeTime = d.double()
		case "ohlc":
			d.once(&seen, 26)
			m.Ohlc = d.ohlc()
		case "depth":
			d.once(&seen, 27)
			m.Depth = d.depth()
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) ohlc() *mdcv1.Ohlc {
	m := &mdcv1.Ohlc{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "open":
			d.once(&seen, 1)
			m.Open = d.double()
		case "high":
			d.once(&seen, 2)
			m.High = d.double()
		case "low":
			d.once(&seen, 3)
			m.Low = d.double()
		case "close":
			d.once(&seen, 4)
			m.Close = d.double()
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) depth() *mdcv1.Depth {
	m := &mdcv1.Depth{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "buy":
			d.once(&seen, 1)
			m.Buy = d.depthLevels()
		case "sell":
			d.once(&seen, 2)
			m.Sell = d.depthLevels()
		default:
			d.decline()
		}
	}
	return m
}

func (d *fastDecoder) depthLevels() []*mdcv1.DepthLevel {
	var levels []*mdcv1.DepthLevel
	d.openArray()
	for d.element() {
		levels = append(levels, d.depthLevel())
	}
	return levels
}

func (d *fastDecoder) depthLevel() *mdcv1.DepthLevel {
	m := &mdcv1.DepthLevel{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "price":
			d.once(&seen, 1)
			m.Price = d.double()
		case "quantity":
			d.once(&seen, 2)
			m.Quantity = d.double()
		default:
			d.decline()
		}
	}
	return m
}
