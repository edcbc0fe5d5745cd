package export

import (
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Rows gathered into one Arrow record before the Parquet writer takes them,
// and rows per row group: a row group is held (encoded and compressed) in
// memory until it is complete, so it bounds the encoder's memory, a few MB
// for the widest layout.
const (
	parquetBatchRows    = 4096
	parquetRowGroupRows = 64 * 1024
	// parquetMaxHeldBytes is what one export's encoder may hold on the heap
	// (docs/operations.md, "Streams per developer"), checked by
	// TestParquetEncoderMemoryIsBounded on the widest layout.
	parquetMaxHeldBytes = 32 << 20
)

// arrowType is the Arrow (and so Parquet) type of a column: instants as
// timestamp[us, UTC] (Parquet TIMESTAMP(MICROS, isAdjustedToUTC)), dates as
// date32, text as UTF-8 strings, numbers as float64 and int32; every column
// nullable.
func arrowType(t colType) arrow.DataType {
	switch t {
	case colTime:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case colDate:
		return arrow.FixedWidthTypes.Date32
	case colFloat:
		return arrow.PrimitiveTypes.Float64
	case colInt:
		return arrow.PrimitiveTypes.Int32
	default:
		return arrow.BinaryTypes.String
	}
}

func arrowSchema(l layout) *arrow.Schema {
	fields := make([]arrow.Field, len(l.columns))
	for i, c := range l.columns {
		fields[i] = arrow.Field{Name: c.name, Type: arrowType(c.typ), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// parquetWriter writes rows into a Parquet file through Arrow builders.
type parquetWriter struct {
	fw      *pqarrow.FileWriter
	rb      *array.RecordBuilder
	cols    []array.Builder
	cell    int
	rows    int    // gathered in rb
	sent    int64  // handed to the Parquet writer
	lastDay string // the last date converted, and its value
	lastVal arrow.Date32
}

// sinkOnly hides any Close of the writer: the Parquet writer closes its
// sink, and the HTTP answer is not its to close.
type sinkOnly struct{ io.Writer }

func newParquetWriter(out io.Writer, l layout) (*parquetWriter, error) {
	schema := arrowSchema(l)
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(parquetRowGroupRows),
		parquet.WithCreatedBy("mdc-gateway"),
	)
	fw, err := pqarrow.NewFileWriter(schema, sinkOnly{out}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	if l.adjustment != "" {
		if err := fw.AppendKeyValueMetadata(parquetAdjustmentKey, l.adjustment); err != nil {
			return nil, err
		}
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	rb.Reserve(parquetBatchRows)
	return &parquetWriter{fw: fw, rb: rb, cols: rb.Fields()}, nil
}

func (w *parquetWriter) next() array.Builder {
	b := w.cols[w.cell]
	w.cell++
	return b
}

func (w *parquetWriter) Time(t time.Time) {
	w.next().(*array.TimestampBuilder).Append(arrow.Timestamp(t.UnixMicro()))
}

func (w *parquetWriter) Date(day string) {
	if day != w.lastDay {
		w.lastVal = 0
		if t, err := time.Parse(time.DateOnly, day); err == nil {
			w.lastVal = arrow.Date32FromTime(t)
		}
		w.lastDay = day
	}
	w.next().(*array.Date32Builder).Append(w.lastVal)
}

func (w *parquetWriter) String(s string) { w.next().(*array.StringBuilder).Append(s) }
func (w *parquetWriter) Text(b []byte)   { w.next().(*array.StringBuilder).BinaryBuilder.Append(b) }
func (w *parquetWriter) Float(f float64) { w.next().(*array.Float64Builder).Append(f) }
func (w *parquetWriter) Int(i int32)     { w.next().(*array.Int32Builder).Append(i) }
func (w *parquetWriter) Null()           { w.next().AppendNull() }

func (w *parquetWriter) EndRow() error {
	if w.cell != len(w.cols) {
		return fmt.Errorf("export: a row of %d cells for %d columns", w.cell, len(w.cols))
	}
	w.cell = 0
	w.rows++
	// A page's writer (no file) holds its rows until the page is written.
	if w.fw == nil || w.rows < parquetBatchRows {
		return nil
	}
	return w.flush()
}

// writeRecord hands a page's rows, gathered apart (parquetPages), to the
// Parquet writer after the rows it gathered itself.
func (w *parquetWriter) writeRecord(rec arrow.RecordBatch, rows int) error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.fw.WriteBuffered(rec); err != nil {
		return err
	}
	w.sent += int64(rows)
	return nil
}

// parquetPages is the Parquet encoder of a one-row-per-record layout: its
// pages are gathered into Arrow records on several goroutines (pages.go);
// the Parquet writer's encoding and compression of the row groups stay on
// the writing one.
type parquetPages struct {
	rowsEncoder
	l   layout
	out *parquetWriter
}

func (e parquetPages) pageWorker() pageWorker {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, arrowSchema(e.l))
	return &parquetPageWorker{rows: e.l.rows(), out: e.out, page: &parquetWriter{rb: rb, cols: rb.Fields()}}
}

// parquetPageWorker gathers pages into Arrow records.
type parquetPageWorker struct {
	rows rowsFunc
	out  *parquetWriter
	page *parquetWriter // without a file: its builders only
	// failed is the error of a page that left the builders unusable.
	failed error
}

func (p *parquetPageWorker) encode(chunk []byte) (func() error, error) {
	if p.failed != nil {
		return nil, p.failed
	}
	p.page.rows, p.page.cell = 0, 0
	if err := eachRecord(chunk, func(rec []byte) error { return p.rows(rec, p.page) }); err != nil {
		// The builders may hold half a row: this worker is done (the file
		// is broken off at the first failed page anyway).
		p.failed = err
		return nil, err
	}
	rec := p.page.rb.NewRecordBatch() // takes the builders' rows, resets them
	rows := p.page.rows
	return func() error {
		defer rec.Release()
		return p.out.writeRecord(rec, rows)
	}, nil
}

func (p *parquetPageWorker) release() { p.page.rb.Release() }

// flush hands the gathered rows to the Parquet writer.
func (w *parquetWriter) flush() error {
	if w.rows == 0 {
		return nil
	}
	rec := w.rb.NewRecordBatch()
	defer rec.Release()
	n := w.rows
	w.rows = 0
	if err := w.fw.WriteBuffered(rec); err != nil {
		return err
	}
	w.sent += int64(n)
	return nil
}

// Rows is how many rows were handed to the Parquet writer (which holds up
// to a row group before writing it out).
func (w *parquetWriter) Rows() int64 { return w.sent }

// Close writes the last rows and the file's footer. A file without rows
// still has the schema.
func (w *parquetWriter) Close() error {
	defer w.rb.Release()
	if err := w.flush(); err != nil {
		return err
	}
	return w.fw.Close()
}
