// Package export writes the records of mdc.v1.ExportService as files: CSV,
// Parquet or NDJSON, encoded message by message as the stream delivers
// them, so the gateway holds at most a message and (Parquet) one row group
// whatever the export's size. The HTTP handler (routes.go) calls the
// server's stream and writes the file; the column layout of each kind of
// record (layouts.go) is shared by the CSV and Parquet encoders and is the
// one docs/api.md ("Export") describes.
package export

import "time"

// colType is the type of a column's values; every column may hold nulls.
type colType int

const (
	colTime   colType = iota // a UTC instant, microseconds
	colDate                  // a calendar date (the trading day)
	colString                // UTF-8 text
	colFloat                 // float64
	colInt                   // int32
)

// column is one column of a layout.
type column struct {
	name string
	typ  colType
}

// rowWriter receives the rows of a file cell by cell, in the order of the
// layout's columns, each row closed by EndRow. The CSV and Parquet
// encoders implement it.
type rowWriter interface {
	Time(t time.Time)
	Date(day string) // YYYY-MM-DD
	String(s string)
	Text(b []byte) // text given as bytes, copied
	Float(f float64)
	Int(i int32)
	Null()
	EndRow() error
}

// optFloat writes *f, or null when f is nil.
func optFloat(w rowWriter, f *float64) {
	if f == nil {
		w.Null()
		return
	}
	w.Float(*f)
}

// rowsFunc writes the rows of one record, given as the wire bytes of an
// mdc.v1.ExportRecord (one row, or one per shortlist entry).
type rowsFunc func(rec []byte, w rowWriter) error

// layout is the columns of one kind of record and how a record becomes
// rows.
type layout struct {
	kind    string // the route's last segment: quotes, nifty, shortlists, candles
	columns []column
	// rows makes the rowsFunc of one export (which may keep state from
	// row to row).
	rows func() rowsFunc
	// rowPerRecord: each record is one row, so a page of records is a
	// page of at most 1,000 rows, which the CSV and Parquet encoders
	// encode on several goroutines (pages.go). A shortlist snapshot is
	// as many rows as entries: its pages are encoded in turn.
	rowPerRecord bool
	// adjustment of an adjusted export (its last column; adjustment.go);
	// empty for stored data.
	adjustment string
}

// instant is a stored instant as a UTC time.
func instant(seconds int64, nanos int32) time.Time {
	return time.Unix(seconds, int64(nanos)).UTC()
}
