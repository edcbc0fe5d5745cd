package codec

import (
	"fmt"
	"io"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
)

// CSVMediaType is the Content-Type of the routes whose body is a file (the
// admin imports, docs/api.md "Instrument and corporate-action files").
const CSVMediaType = "text/csv"

// CSVBody is the marshaler grpc-gateway picks for a text/csv request: the
// body is read whole, as is, into the bytes field the route's http rule
// names as its body (body: "csv"). Answers, and errors, are JSON as from
// the Marshaler it wraps.
type CSVBody struct {
	*Marshaler
}

// NewDecoder returns a decoder that copies the whole body into a *[]byte.
func (c CSVBody) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		dst, ok := v.(*[]byte)
		if !ok {
			// Only routes whose body is a bytes field accept text/csv
			// (transport.RequireJSON refuses it elsewhere).
			return fmt.Errorf("a text/csv body fills a bytes field, not %T", v)
		}
		data, err := readBody(r)
		if err != nil {
			return err
		}
		if len(data) == 0 {
			return io.EOF
		}
		*dst = data
		return nil
	})
}

// ContentType of the answers: they are JSON.
func (c CSVBody) ContentType(v any) string {
	return c.Marshaler.ContentType(v)
}
