// This file is longer than our usual ~500 lines on purpose: it is one
// decoder, a function per message of the three collector writes, each of the
// shape generated code would have (see decodeFast), and splitting it would
// scatter the field tables that must be read side by side with the protos.

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
// repeated field (null counts), null where protojson refuses it (a list
// element), an enum number, a number written as a string, and everything
// fastScanner declines. msg is left untouched then, and the caller runs
// protojson, so every error stays what it was. A null field value is read
// as protojson reads it: the field is left unset (see field).
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

// field starts the value of the field numbered n, in the order of
// protojson's unmarshalMessage (encoding/protojson/decode.go, v1.36.12,
// lines 207-219). First the duplicate check: protojson refuses a field
// given twice in one object, under either of its names, and a null counts
// as given, so {"a":null,"a":1} and {"a":1,"a":null} are both declined.
// Then null: protojson reads it and leaves the field unset (no value, no
// empty message or list, no oneof check), as it does for every field that
// is not a google.protobuf.Value or NullValue (TestFastDecodeNullScope
// checks there is none here). field reports whether a value other than
// null follows, which the caller then reads.
func (d *fastDecoder) field(seen *uint32, n uint) bool {
	if *seen&(1<<n) != 0 {
		d.decline()
	}
	*seen |= 1 << n
	return !d.null()
}

// fastRequest reads {"data": ...}, the body of every collector write.
func fastRequest[T any](d *fastDecoder, data func() *T) *T {
	var body *T
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "data":
			if d.field(&seen, 1) {
				body = data()
			}
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
			if d.field(&seen, 1) {
				m.Timestamp = d.str()
			}
		case "timezone":
			if d.field(&seen, 2) {
				m.Timezone = d.str()
			}
		case "shortlistType", "shortlist_type":
			if d.field(&seen, 3) {
				m.ShortlistType = mdcv1.ShortlistType(d.enum(mdcv1.ShortlistType_value))
			}
		case "scope":
			if d.field(&seen, 4) {
				m.Scope = mdcv1.Scope(d.enum(mdcv1.Scope_value))
			}
		case "entries":
			if d.field(&seen, 5) {
				m.Entries = d.shortlistEntries()
			}
		default:
			d.decline()
		}
	}
	return m
}

// shortlistEntries reads a list of entries. A null element is declined by
// shortlistEntry, which requires an object: protojson refuses it.
func (d *fastDecoder) shortlistEntries() []*mdcv1.ShortlistEntry {
	var entries []*mdcv1.ShortlistEntry
	d.openArray()
	for d.element() {
		entries = append(entries, d.shortlistEntry())
	}
	return entries
}

func (d *fastDecoder) shortlistEntry() *mdcv1.ShortlistEntry {
	m := &mdcv1.ShortlistEntry{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "nseSymbol", "nse_symbol":
			if d.field(&seen, 1) {
				m.NseSymbol = d.str()
			}
		case "name":
			if d.field(&seen, 2) {
				m.Name = d.str()
			}
		case "price":
			if d.field(&seen, 3) {
				m.Price = d.double()
			}
		case "quoteData", "quote_data":
			if d.field(&seen, 4) {
				m.QuoteData = d.quoteData()
			}
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
			if d.field(&seen, 1) {
				m.Timestamp = d.str()
			}
		case "timezone":
			if d.field(&seen, 2) {
				m.Timezone = d.str()
			}
		case "quoteData", "quote_data":
			if d.field(&seen, 3) {
				m.QuoteData = d.quoteData()
			}
		case "dayChangePerc", "day_change_perc":
			if d.field(&seen, 4) {
				m.DayChangePerc = d.double()
			}
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
			if d.field(&seen, 1) {
				m.Timestamp = d.str()
			}
		case "timezone":
			if d.field(&seen, 2) {
				m.Timezone = d.str()
			}
		case "quotes":
			if d.field(&seen, 3) {
				m.Quotes = d.quoteItems()
			}
		default:
			d.decline()
		}
	}
	return m
}

// quoteItems reads a list of quotes; a null element is declined, as in
// shortlistEntries.
func (d *fastDecoder) quoteItems() []*mdcv1.QuoteItem {
	var items []*mdcv1.QuoteItem
	d.openArray()
	for d.element() {
		items = append(items, d.quoteItem())
	}
	return items
}

func (d *fastDecoder) quoteItem() *mdcv1.QuoteItem {
	m := &mdcv1.QuoteItem{}
	var seen uint32
	d.openObject()
	for key, ok := d.member(); ok; key, ok = d.member() {
		switch string(key) {
		case "nseSymbol", "nse_symbol":
			if d.field(&seen, 1) {
				m.NseSymbol = d.str()
			}
		case "quoteData", "quote_data":
			if d.field(&seen, 2) {
				m.QuoteData = d.quoteData()
			}
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
			if d.field(&seen, 1) {
				m.Status = mdcv1.QuoteStatus(d.enum(mdcv1.QuoteStatus_value))
			}
		case "payload":
			if d.field(&seen, 2) {
				m.Payload = d.quotePayload()
			}
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
			if d.field(&seen, 1) {
				m.LastPrice = d.double()
			}
		case "day_change":
			if d.field(&seen, 2) {
				m.DayChange = d.double()
			}
		case "day_change_perc":
			if d.field(&seen, 3) {
				m.DayChangePerc = d.double()
			}
		case "volume":
			if d.field(&seen, 4) {
				m.Volume = d.double()
			}
		case "average_price":
			if d.field(&seen, 5) {
				m.AveragePrice = d.double()
			}
		case "bid_quantity":
			if d.field(&seen, 6) {
				m.BidQuantity = d.double()
			}
		case "bid_price":
			if d.field(&seen, 7) {
				m.BidPrice = d.double()
			}
		case "upper_circuit_limit":
			if d.field(&seen, 8) {
				m.UpperCircuitLimit = d.double()
			}
		case "lower_circuit_limit":
			if d.field(&seen, 9) {
				m.LowerCircuitLimit = d.double()
			}
		case "high_trade_range":
			if d.field(&seen, 10) {
				m.HighTradeRange = d.double()
			}
		case "low_trade_range":
			if d.field(&seen, 11) {
				m.LowTradeRange = d.double()
			}
		case "implied_volatility":
			if d.field(&seen, 12) {
				m.ImpliedVolatility = d.double()
			}
		case "last_trade_quantity":
			if d.field(&seen, 13) {
				m.LastTradeQuantity = d.double()
			}
		case "market_cap":
			if d.field(&seen, 14) {
				m.MarketCap = d.double()
			}
		case "offer_price":
			if d.field(&seen, 15) {
				m.OfferPrice = d.double()
			}
		case "offer_quantity":
			if d.field(&seen, 16) {
				m.OfferQuantity = d.double()
			}
		case "oi_day_change":
			if d.field(&seen, 17) {
				m.OiDayChange = d.double()
			}
		case "oi_day_change_percentage":
			if d.field(&seen, 18) {
				m.OiDayChangePercentage = d.double()
			}
		case "open_interest":
			if d.field(&seen, 19) {
				m.OpenInterest = d.double()
			}
		case "previous_open_interest":
			if d.field(&seen, 20) {
				m.PreviousOpenInterest = d.double()
			}
		case "total_buy_quantity":
			if d.field(&seen, 21) {
				m.TotalBuyQuantity = d.double()
			}
		case "total_sell_quantity":
			if d.field(&seen, 22) {
				m.TotalSellQuantity = d.double()
			}
		case "week_52_high":
			if d.field(&seen, 23) {
				m.Week_52High = d.double()
			}
		case "week_52_low":
			if d.field(&seen, 24) {
				m.Week_52Low = d.double()
			}
		case "last_trade_time":
			if d.field(&seen, 25) {
				m.LastTradeTime = d.double()
			}
		case "ohlc":
			if d.field(&seen, 26) {
				m.Ohlc = d.ohlc()
			}
		case "depth":
			if d.field(&seen, 27) {
				m.Depth = d.depth()
			}
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
			if d.field(&seen, 1) {
				m.Open = d.double()
			}
		case "high":
			if d.field(&seen, 2) {
				m.High = d.double()
			}
		case "low":
			if d.field(&seen, 3) {
				m.Low = d.double()
			}
		case "close":
			if d.field(&seen, 4) {
				m.Close = d.double()
			}
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
			if d.field(&seen, 1) {
				m.Buy = d.depthLevels()
			}
		case "sell":
			if d.field(&seen, 2) {
				m.Sell = d.depthLevels()
			}
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
			if d.field(&seen, 1) {
				m.Price = d.double()
			}
		case "quantity":
			if d.field(&seen, 2) {
				m.Quantity = d.double()
			}
		default:
			d.decline()
		}
	}
	return m
}
