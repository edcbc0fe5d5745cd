package export

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/gen/mdcv1"
)

// fileCells is one row of an imported CSV or Parquet file, read cell by cell by
// the index of its column in the layout (the file's columns are checked to
// be the layout's, in its order, before any row is read).
type fileCells interface {
	null(i int) bool
	text(i int) (string, error)
	float(i int) (float64, error)
	int32(i int) (int32, error)
	instant(i int) (time.Time, error)
	// date is the cell as YYYY-MM-DD.
	date(i int) (string, error)
}

// cellError is a bad cell: the column and why.
type cellError struct {
	column string
	reason string
}

func (e *cellError) Error() string { return fmt.Sprintf("column %s: %s", e.column, e.reason) }

// rowReader reads the cells of one layout, naming the column of a bad one.
type rowReader struct {
	l   layout
	c   fileCells
	err error // the first bad cell of the row
}

func (r *rowReader) fail(i int, err error) {
	if r.err == nil {
		r.err = &cellError{column: r.l.columns[i].name, reason: err.Error()}
	}
}

func (r *rowReader) required(i int) bool {
	if r.c.null(i) {
		r.fail(i, fmt.Errorf("is required"))
		return false
	}
	return true
}

func (r *rowReader) text(i int) string {
	if !r.required(i) {
		return ""
	}
	s, err := r.c.text(i)
	if err != nil {
		r.fail(i, err)
	}
	return s
}

func (r *rowReader) float(i int) (float64, bool) {
	if r.c.null(i) {
		return 0, false
	}
	f, err := r.c.float(i)
	if err != nil {
		r.fail(i, err)
		return 0, false
	}
	return f, true
}

func (r *rowReader) int32(i int) (int32, bool) {
	if r.c.null(i) {
		return 0, false
	}
	n, err := r.c.int32(i)
	if err != nil {
		r.fail(i, err)
		return 0, false
	}
	return n, true
}

func (r *rowReader) instant(i int) time.Time {
	if !r.required(i) {
		return time.Time{}
	}
	t, err := r.c.instant(i)
	if err != nil {
		r.fail(i, err)
	}
	return t
}

func (r *rowReader) date(i int) string {
	if !r.required(i) {
		return ""
	}
	d, err := r.c.date(i)
	if err != nil {
		r.fail(i, err)
	}
	return d
}

// Field descriptors of the quote payload's numbers and the ohlc, in the
// order of payloadColumns and ohlcColumns.
var (
	payloadFields = fieldsNamed(&mdcv1.QuotePayload{}, payloadColumns[:])
	ohlcFields    = fieldsNamed(&mdcv1.Ohlc{}, ohlcColumns[:])
)

func fieldsNamed(m proto.Message, names []protoreflect.Name) []protoreflect.FieldDescriptor {
	fds := m.ProtoReflect().Descriptor().Fields()
	out := make([]protoreflect.FieldDescriptor, len(names))
	for i, name := range names {
		out[i] = fds.ByName(name)
		if out[i] == nil {
			panic(fmt.Sprintf("%s has no field %s", m.ProtoReflect().Descriptor().FullName(), name))
		}
	}
	return out
}

// protoJSONIn reads the JSON text of nested data (a depth, a shortlist
// entry's quote) as protojson writes it; unknown fields are errors.
var protoJSONIn = protojson.UnmarshalOptions{}

// quoteData reads the cells of quoteDataColumns starting at column first:
// the inverse of quoteCells.write. A payload is present when any of its
// cells is.
func (r *rowReader) quoteData(first int) *mdcv1.QuoteData {
	q := &mdcv1.QuoteData{}
	status := r.text(first)
	if v, ok := mdcv1.QuoteStatus_value[status]; ok {
		q.Status = mdcv1.QuoteStatus(v)
	} else if r.err == nil {
		r.fail(first, fmt.Errorf("must be SUCCESS or FAILURE, not %q", status))
	}
	var payload *mdcv1.QuotePayload
	ensure := func() protoreflect.Message {
		if payload == nil {
			payload = &mdcv1.QuotePayload{}
		}
		return payload.ProtoReflect()
	}
	col := first + 1
	for _, fd := range payloadFields {
		if f, ok := r.float(col); ok {
			ensure().Set(fd, protoreflect.ValueOfFloat64(f))
		}
		col++
	}
	var ohlc *mdcv1.Ohlc
	for _, fd := range ohlcFields {
		if f, ok := r.float(col); ok {
			if ohlc == nil {
				ohlc = &mdcv1.Ohlc{}
			}
			ohlc.ProtoReflect().Set(fd, protoreflect.ValueOfFloat64(f))
		}
		col++
	}
	if ohlc != nil {
		ensure()
		payload.Ohlc = ohlc
	}
	if !r.c.null(col) {
		text, err := r.c.text(col)
		var depth *mdcv1.Depth
		if err == nil {
			depth, err = parseDepth(text)
		}
		if err != nil {
			r.fail(col, fmt.Errorf("is not a depth as JSON: %v", err))
		} else {
			ensure()
			payload.Depth = depth
		}
	}
	q.Payload = payload
	return q
}
