package codec

// The fast decoder of the three collector writes: a function per message,
// each of the shape generated code would have (see decodeFast). This file
// holds the decoder and the bodies of Save Shortlist and Save NIFTY;
// fastjson_quotes.go the quote messages, which Save NIFTY shares with Save
// Quotes; fastjson_scanner.go the JSON tokenizer.

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
