package export

import (
	"io"
	"strconv"
	"sync"
	"time"
)

// csvWriter writes rows as RFC 4180 CSV with a header line: instants as
// RFC 3339 UTC (`2025-01-02T03:45:00Z`), dates as YYYY-MM-DD, numbers in
// the shortest form that reads back as the same float64, null as an empty
// field. Rows are gathered in a buffer and written when it fills, so the
// client receives the file in large writes.
type csvWriter struct {
	out  io.Writer
	buf  []byte
	cell int // cells written in the current row
	// pending rows are in buf; sent rows were written to out (the header
	// line is neither).
	pending, sent int64
}

// csvFlushBytes is how much a csvWriter gathers before writing.
const csvFlushBytes = 64 << 10

func newCSVWriter(out io.Writer, l layout) (*csvWriter, error) {
	w := &csvWriter{out: out, buf: make([]byte, 0, csvFlushBytes+4096)}
	for _, c := range l.columns {
		w.String(c.name)
	}
	err := w.EndRow()
	w.pending = 0
	return w, err
}

func (w *csvWriter) sep() {
	if w.cell > 0 {
		w.buf = append(w.buf, ',')
	}
	w.cell++
}

func (w *csvWriter) Time(t time.Time) {
	w.sep()
	w.buf = t.AppendFormat(w.buf, "2006-01-02T15:04:05.999999Z07:00")
}

func (w *csvWriter) Date(day string) {
	w.sep()
	w.buf = append(w.buf, day...)
}

func (w *csvWriter) String(s string) { appendField(w, s) }
func (w *csvWriter) Text(b []byte)   { appendField(w, b) }

// appendField writes a text cell, quoted when it holds a separator, a
// quote or a line break.
func appendField[T string | []byte](w *csvWriter, s T) {
	w.sep()
	if !needsQuotes(s) {
		w.buf = append(w.buf, s...)
		return
	}
	// A quote is written twice; the runs between quotes are copied whole
	// (a depth's JSON has four quotes a level).
	w.buf = append(w.buf, '"')
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			w.buf = append(append(w.buf, s[run:i+1]...), '"')
			run = i + 1
		}
	}
	w.buf = append(append(w.buf, s[run:]...), '"')
}

func needsQuotes[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', '"', '\r', '\n':
			return true
		}
	}
	return false
}

func (w *csvWriter) Float(f float64) {
	w.sep()
	w.buf = strconv.AppendFloat(w.buf, f, 'g', -1, 64)
}

func (w *csvWriter) Int(i int32) {
	w.sep()
	w.buf = strconv.AppendInt(w.buf, int64(i), 10)
}

func (w *csvWriter) Null() { w.sep() }

func (w *csvWriter) EndRow() error {
	w.buf = append(w.buf, '\r', '\n')
	w.cell = 0
	w.pending++
	// A page's writer (no out) holds its rows until the page is written.
	if w.out == nil || len(w.buf) < csvFlushBytes {
		return nil
	}
	return w.flush()
}

// writePage writes the text of a page of rows encoded apart (csvPages),
// after what the writer holds (the header line).
func (w *csvWriter) writePage(text []byte, rows int64) error {
	if err := w.flush(); err != nil {
		return err
	}
	if _, err := w.out.Write(text); err != nil {
		return err
	}
	w.sent += rows
	return nil
}

// csvPages is the CSV encoder of a one-row-per-record layout: its pages
// can be encoded on several goroutines (pages.go).
type csvPages struct {
	rowsEncoder
	l   layout
	out *csvWriter
}

func (e csvPages) pageWorker() pageWorker {
	return &csvPageWorker{rows: e.l.rows(), out: e.out}
}

// csvPageWorker encodes pages into text of their own.
type csvPageWorker struct {
	rows rowsFunc
	out  *csvWriter
}

// csvPagePool recycles the pages' text (~0.7 MB a page of full quotes).
var csvPagePool = sync.Pool{New: func() any { return new([]byte) }}

func (p *csvPageWorker) encode(chunk []byte) (func() error, error) {
	text := csvPagePool.Get().(*[]byte)
	page := &csvWriter{buf: (*text)[:0]}
	if err := eachRecord(chunk, func(rec []byte) error { return p.rows(rec, page) }); err != nil {
		csvPagePool.Put(text)
		return nil, err
	}
	return func() error {
		err := p.out.writePage(page.buf, page.pending)
		*text = page.buf[:0]
		csvPagePool.Put(text)
		return err
	}, nil
}

func (p *csvPageWorker) release() {}

func (w *csvWriter) flush() error {
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

// Close writes what is left.
func (w *csvWriter) Close() error { return w.flush() }

// Rows is how many rows (the header line aside) were written out.
func (w *csvWriter) Rows() int64 { return w.sent }
