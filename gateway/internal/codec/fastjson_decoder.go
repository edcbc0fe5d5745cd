package codec

// The fast decoder of the hot collector writes (Save Shortlist, Save NIFTY,
// Save Quotes), whose bodies protojson decoded at a fifth of the gateway's
// CPU under load. Three parts:
//   - fastjson_gen.go, written by the build (gateway/build.sh runs
//     cmd/codec-gen) from the mdc.v1 descriptors: decodeFast, and a read
//     function per message and per list, with the messages' field names
//     (JSON and proto spelling, both of which protojson accepts) and Go
//     fields;
//   - this file, the hand-written runtime those functions call (fastDecoder);
//   - fastjson_scanner.go, the JSON tokenizer.
//
// decodeFast reports false ("not handled") for any other message type and for
// any body it cannot decode exactly as protojson.UnmarshalOptions{
// DiscardUnknown: false} would: an unknown or repeated field (null counts),
// null where protojson refuses it (a list element), an enum number, a number
// written as a string, and everything fastScanner declines. msg is left
// untouched then, and the caller runs protojson, so every error stays what it
// was. A null field value is read as protojson reads it: the field is left
// unset (see field).

//go:generate go run ../../cmd/codec-gen ../..

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

// field starts the value of the field at index n of its message (at most
// 63, which codecgen checks), in the order of
// protojson's unmarshalMessage (encoding/protojson/decode.go, v1.36.12,
// lines 207-219). First the duplicate check: protojson refuses a field
// given twice in one object, under either of its names, and a null counts
// as given, so {"a":null,"a":1} and {"a":1,"a":null} are both declined.
// Then null: protojson reads it and leaves the field unset (no value, no
// empty message or list, no oneof check), as it does for every field that
// is not a google.protobuf.Value or NullValue (TestFastDecodeNullScope
// checks there is none here). field reports whether a value other than
// null follows, which the caller then reads.
func (d *fastDecoder) field(seen *uint64, n uint) bool {
	if *seen&(1<<n) != 0 {
		d.decline()
	}
	*seen |= 1 << n
	return !d.null()
}
