package export

import (
	"errors"
	"fmt"
	"math"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The exports read the server's messages in their wire form: a page of
// full quotes is ~1,000 records of ~35 numbers and 10 depth levels each,
// and decoding it into generated messages costs an allocation per optional
// number and per level (~165 a row), which made the gateway the export's
// pace. Instead each message is kept as the bytes it arrived as
// (wireChunk, through wireCodec) and the layouts read the fields they write
// straight from them (wireReader), with field numbers taken from the
// generated descriptors (fieldNumber), so the proto stays the one source.

// wireChunk is one mdc.v1.ExportChunk as it arrived. Its buffer is reused
// from message to message: a chunk is written out before the next one is
// received.
type wireChunk struct{ b []byte }

// wireCodec is the proto codec, except that it leaves a *wireChunk
// undecoded. Its name is the proto codec's, so the call's content-subtype
// is unchanged.
type wireCodec struct{}

var protoCodec = encoding.GetCodecV2("proto")

func (wireCodec) Name() string { return protoCodec.Name() }

func (wireCodec) Marshal(v any) (mem.BufferSlice, error) { return protoCodec.Marshal(v) }

func (wireCodec) Unmarshal(data mem.BufferSlice, v any) error {
	c, ok := v.(*wireChunk)
	if !ok {
		return protoCodec.Unmarshal(data, v)
	}
	c.b = c.b[:0]
	for _, buf := range data {
		c.b = append(c.b, buf.ReadOnlyData()...)
	}
	return nil
}

// errWire is what a malformed message is read as.
var errWire = errors.New("export: a malformed message from the server")

// wireReader reads the fields of one message's wire bytes in order:
// next() gives each field's number and wire type, then exactly one of the
// value methods (or skip) consumes its value. Errors are sticky: after one,
// next() is false and err() says why.
type wireReader struct {
	b    []byte
	num  protowire.Number
	typ  protowire.Type
	fail error
}

func newWireReader(b []byte) wireReader { return wireReader{b: b} }

func (r *wireReader) next() bool {
	if r.fail != nil || len(r.b) == 0 {
		return false
	}
	num, typ, n := protowire.ConsumeTag(r.b)
	if n < 0 {
		r.fail = errWire
		return false
	}
	r.b, r.num, r.typ = r.b[n:], num, typ
	return true
}

func (r *wireReader) err() error { return r.fail }

// consumed advances past a value of n bytes, or fails when n is negative or
// the wire type is not want.
func (r *wireReader) consumed(want protowire.Type, n int) bool {
	if r.typ != want || n < 0 {
		r.fail = errWire
		return false
	}
	r.b = r.b[n:]
	return true
}

// bytes is a length-delimited value (a string, bytes or a message): a
// slice of the message, valid as long as it is.
func (r *wireReader) bytes() []byte {
	v, n := protowire.ConsumeBytes(r.b)
	if !r.consumed(protowire.BytesType, n) {
		return nil
	}
	return v
}

func (r *wireReader) double() float64 {
	v, n := protowire.ConsumeFixed64(r.b)
	if !r.consumed(protowire.Fixed64Type, n) {
		return 0
	}
	return math.Float64frombits(v)
}

func (r *wireReader) varint() uint64 {
	v, n := protowire.ConsumeVarint(r.b)
	if !r.consumed(protowire.VarintType, n) {
		return 0
	}
	return v
}

// skip consumes a field the reader does not use.
func (r *wireReader) skip() {
	n := protowire.ConsumeFieldValue(r.num, r.typ, r.b)
	if n < 0 {
		r.fail = errWire
		return
	}
	r.b = r.b[n:]
}

// eachRecord calls fn with the wire bytes of each record of a chunk.
func eachRecord(chunk []byte, fn func(rec []byte) error) error {
	r := newWireReader(chunk)
	for r.next() {
		if r.num != chunkRecordsField {
			r.skip()
			continue
		}
		rec := r.bytes()
		if r.err() != nil {
			break
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return r.err()
}

// fieldNumber is the number of the field called name in m's message, read
// from its descriptor; a name the message does not have is a programming
// error caught when the package loads.
func fieldNumber(m proto.Message, name protoreflect.Name) protowire.Number {
	f := m.ProtoReflect().Descriptor().Fields().ByName(name)
	if f == nil {
		panic(fmt.Sprintf("export: %s has no field %s", m.ProtoReflect().Descriptor().FullName(), name))
	}
	return f.Number()
}
