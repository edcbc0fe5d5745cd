// Package codec is the gateway's JSON in and out: the one marshaler of
// grpc-gateway (marshaler.go; answers as protojson with defaults emitted,
// stream messages on one line), its body decoder (a fast path for the three
// collector writes generated from the descriptors, fastjson_gen.go, and
// protojson for the rest and for every refused body), the checks protojson cannot make
// (bodychecks.go), and the rewording of decode and query errors as
// google.rpc.BadRequest field violations by JSON path (decodeerror.go,
// queryerror.go).
package codec

import (
	"bytes"
	"io"
	"reflect"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/internal/apierror"
)

// Marshaler is the one marshaler of the gateway, for application/json
// and every other MIME type. Output: documented JSON names, false/0/[]
// emitted, unset messages and proto3 optional fields left out. Input:
// unknown fields ignored, but unknown enum names and absent required lists
// refused (see Decode).
type Marshaler struct {
	*runtime.JSONPb
	strict protojson.UnmarshalOptions
	checks bodyChecks
}

func NewMarshaler() *Marshaler {
	return &Marshaler{
		JSONPb: &runtime.JSONPb{
			MarshalOptions:   protojson.MarshalOptions{UseProtoNames: false, EmitDefaultValues: true},
			UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: true},
		},
		strict: protojson.UnmarshalOptions{DiscardUnknown: false},
		checks: mdcBodyChecks(),
	}
}

// NewDecoder returns the request body decoder grpc-gateway uses for bodies.
func (m *Marshaler) NewDecoder(r io.Reader) runtime.Decoder {
	return &bodyDecoder{m: m, r: r}
}

type bodyDecoder struct {
	m *Marshaler
	r io.Reader
}

// Decode reads the whole body and decodes it into v. An empty body is
// io.EOF, which grpc-gateway treats as an empty message. A rejected body is
// a *bodyError carrying the client-facing status (INVALID_ARGUMENT with
// google.rpc.BadRequest field violations where the field is known).
func (d *bodyDecoder) Decode(v any) error {
	data, err := readBody(d.r)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return io.EOF
	}
	msg := protoMessageIn(v)
	if msg == nil {
		// A body field that is not a message (body: "some_list"); no such
		// mapping exists today, but grpc-gateway supports it.
		return d.m.JSONPb.Unmarshal(data, v)
	}
	if st := d.m.decode(data, msg); st != nil {
		return &bodyError{st: st}
	}
	return nil
}

// SizedBody is a request body that knows its length from Content-Length
// (transport.LimitBody's), so that readBody reads it in one go.
type SizedBody interface {
	ContentLength() int64
}

// firstReadMax bounds what readBody allocates before the bytes arrive, so
// that a client announcing a large body does not get memory for it ahead
// of the body budget (transport.LimitBody): the rest grows as it comes.
const firstReadMax = 16 << 10

// readBody is io.ReadAll, but a SizedBody of up to firstReadMax bytes is
// read into one buffer of its size (plus the byte that sees EOF): one read
// where the body has arrived, instead of io.ReadAll's reads into a buffer
// that starts at 512 bytes and grows, each read through the body budget.
func readBody(r io.Reader) ([]byte, error) {
	sized, ok := r.(SizedBody)
	if !ok || sized.ContentLength() <= 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, 0, min(sized.ContentLength(), firstReadMax)+1)
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			// Grow as io.ReadAll does, but never past the announced length
			// (and the byte that sees EOF): a 4 MiB body takes 4 MiB, not
			// the 8 of a doubled buffer.
			size := min(2*cap(buf), int(sized.ContentLength())+1)
			if size <= cap(buf) {
				size = 2 * cap(buf) // more than announced: grow as ReadAll
			}
			grown := make([]byte, len(buf), size)
			copy(grown, buf)
			buf = grown
		}
	}
}

// decode unmarshals data into msg and runs the body checks of its type.
//
// The common, clean body of a hot collector write is decoded by decodeFast
// to exactly what the strict protojson unmarshal below would produce. Any
// other body is unmarshaled once, strictly. Only when that fails (an
// unknown field, an unknown enum name, a real error) is it unmarshaled
// again ignoring unknown fields, and then checked for enum names protojson
// silently drops in that mode.
func (m *Marshaler) decode(data []byte, msg proto.Message) *status.Status {
	if !decodeFast(data, msg) {
		// Before protojson builds anything from it (bodyshape.go).
		if v := checkShape(data); v != nil {
			return apierror.ViolationsStatus([]apierror.Violation{*v})
		}
		if st := m.decodeProtojson(data, msg); st != nil {
			return st
		}
	}
	if vs := m.checks.required.checkDecoded(msg.ProtoReflect(), data); len(vs) > 0 {
		return apierror.ViolationsStatus(vs)
	}
	return nil
}

// decodeProtojson is decode without the fast path and the required-list
// checks.
func (m *Marshaler) decodeProtojson(data []byte, msg proto.Message) *status.Status {
	name := msg.ProtoReflect().Descriptor().FullName()
	if err := m.strict.Unmarshal(data, msg); err != nil {
		proto.Reset(msg)
		if err := m.UnmarshalOptions.Unmarshal(data, msg); err != nil {
			return decodeErrorStatus(data, err)
		}
		if vs := m.checks.enums.check(name, data); len(vs) > 0 {
			return apierror.ViolationsStatus(vs)
		}
	}
	// The fast path declines a number given as a string, so only bodies
	// decoded here can hold one.
	if vs := m.checks.numbers.check(name, data); len(vs) > 0 {
		return apierror.ViolationsStatus(vs)
	}
	return nil
}

// protoMessageIn returns the message v points at: v itself, or *v when v is
// the address of a message pointer field (body: "run" decodes into
// &req.Run), allocating it.
func protoMessageIn(v any) proto.Message {
	if msg, ok := v.(proto.Message); ok {
		return msg
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Pointer {
		return nil
	}
	elem := rv.Elem()
	if _, ok := reflect.Zero(elem.Type()).Interface().(proto.Message); !ok {
		return nil
	}
	if elem.IsNil() {
		elem.Set(reflect.New(elem.Type().Elem()))
	}
	return elem.Interface().(proto.Message)
}
