package export

import (
	"io"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// ndjsonLine is how each record is written: the proto JSON of the
// mdc.v1.ExportRecord ({"tradingDay", "quote"|"nifty"|"shortlist"|"candle"}),
// with the API's field names and defaults, as every JSON answer.
var ndjsonLine = protojson.MarshalOptions{UseProtoNames: false, EmitDefaultValues: true}

// ndjsonWriter writes one JSON object per line, gathered as csvWriter
// gathers its rows.
type ndjsonWriter struct {
	out io.Writer
	buf []byte
	// pending lines are in buf; sent lines were written to out.
	pending, sent int64
}

func (w *ndjsonWriter) record(wire []byte) error {
	var rec mdcv1.ExportRecord
	if err := proto.Unmarshal(wire, &rec); err != nil {
		return errWire
	}
	var err error
	if w.buf, err = ndjsonLine.MarshalAppend(w.buf, &rec); err != nil {
		return err
	}
	w.buf = append(w.buf, '\n')
	w.pending++
	if len(w.buf) < csvFlushBytes {
		return nil
	}
	return w.Close()
}

// Close writes what is left.
func (w *ndjsonWriter) Close() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.out.Write(w.buf)
	w.buf = w.buf[:0]
	if err == nil {
		w.sent += w.pending
	}
	w.pending = 0
	return err
}

// Rows is how many lines were written out.
func (w *ndjsonWriter) Rows() int64 { return w.sent }
