package export

import (
	"fmt"
	"io"
	"net/url"
	"strings"
)

// format is one file format of the exports, chosen by the `format` query
// parameter (default csv).
type format struct {
	name        string // as the parameter names it
	contentType string
	// open starts a file of rows of layout l on out.
	open func(out io.Writer, l layout) (encoder, error)
}

// encoder writes the records of one export, each given as the wire bytes
// of an mdc.v1.ExportRecord, then finishes the file.
type encoder interface {
	Write(rec []byte) error
	Close() error
	// Rows is how many rows (NDJSON: lines) have left the encoder so far;
	// after Close, all of the file's.
	Rows() int64
}

// formatParam is the query parameter that chooses the format; the
// server's request messages have no such field.
const formatParam = "format"

var formats = []format{
	{"csv", "text/csv; charset=utf-8", func(out io.Writer, l layout) (encoder, error) {
		w, err := newCSVWriter(out, l)
		if l.rowPerRecord {
			return csvPages{rowsEncoder{l.rows(), w}, l, w}, err
		}
		return rowsEncoder{l.rows(), w}, err
	}},
	{"parquet", "application/vnd.apache.parquet", func(out io.Writer, l layout) (encoder, error) {
		w, err := newParquetWriter(out, l)
		if l.rowPerRecord {
			return parquetPages{rowsEncoder{l.rows(), w}, l, w}, err
		}
		return rowsEncoder{l.rows(), w}, err
	}},
	{"ndjson", "application/x-ndjson", func(out io.Writer, _ layout) (encoder, error) {
		w := &ndjsonWriter{out: out}
		return ndjsonEncoder{w}, nil
	}},
}

// formatNames lists the formats for messages and documents: "csv, parquet
// or ndjson".
func formatNames() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// formatOf is the format a query asks for, or why it cannot be served. An
// absent parameter is csv; an empty one (`format=`) is not a format.
func formatOf(query url.Values) (format, error) {
	values := query[formatParam]
	if len(values) == 0 {
		return formats[0], nil
	}
	if len(values) > 1 {
		return format{}, fmt.Errorf("must be given once: one of %s", formatNames())
	}
	for _, f := range formats {
		if strings.EqualFold(values[0], f.name) {
			return f, nil
		}
	}
	return format{}, fmt.Errorf("must be one of %s", formatNames())
}

// rowsEncoder writes records as rows (CSV, Parquet).
type rowsEncoder struct {
	rows rowsFunc
	w    interface {
		rowWriter
		Close() error
		Rows() int64
	}
}

func (e rowsEncoder) Write(rec []byte) error { return e.rows(rec, e.w) }
func (e rowsEncoder) Close() error           { return e.w.Close() }
func (e rowsEncoder) Rows() int64            { return e.w.Rows() }

// ndjsonEncoder writes records as JSON lines.
type ndjsonEncoder struct{ w *ndjsonWriter }

func (e ndjsonEncoder) Write(rec []byte) error { return e.w.record(rec) }
func (e ndjsonEncoder) Close() error           { return e.w.Close() }
func (e ndjsonEncoder) Rows() int64            { return e.w.Rows() }
