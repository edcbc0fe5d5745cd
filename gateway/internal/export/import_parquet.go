package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Parquet keeps its footer (the schema and where each row group is) at the
// end of the file, so a Parquet import is first written to a temporary
// file (spool), bounded by the import's size limit, then read a batch of
// rows at a time: the gateway holds one batch and one column chunk of a row
// group in memory, whatever the file's size.
const parquetReadBatch = 4096

// parquetFeed reads the rows of a Parquet file as parquetWriter writes
// them: the layout's columns with their Arrow types.
type parquetFeed struct {
	f     *os.File
	rdr   *file.Reader
	rr    pqarrow.RecordReader
	batch arrow.RecordBatch
	row   parquetCells
	at    int   // the next row of batch
	place int64 // rows read so far
}

// newParquetSource reads the Parquet file in spool (which it closes with
// the source).
func newParquetSource(ctx context.Context, spool *os.File, l layout) (recordSource, func(), error) {
	rdr, err := file.NewParquetReader(spool)
	if err != nil {
		return nil, func() {}, &placeError{"row", 0, fmt.Errorf("the file is not Parquet: %v", err)}
	}
	closeAll := func() { _ = rdr.Close() }
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: parquetReadBatch}, memory.DefaultAllocator)
	if err != nil {
		return nil, closeAll, &placeError{"row", 0, fmt.Errorf("the file's schema cannot be read: %v", err)}
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, closeAll, &placeError{"row", 0, fmt.Errorf("the file's schema cannot be read: %v", err)}
	}
	names := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		names[i] = f.Name
	}
	if !sameColumns(l, names) {
		return nil, closeAll, headerError("row", 0, l, names)
	}
	for i, c := range l.columns {
		if want := arrowType(c.typ); !arrow.TypeEqual(schema.Field(i).Type, want) {
			return nil, closeAll, &placeError{"row", 0, fmt.Errorf("column %s has type %s; an export writes %s", c.name, schema.Field(i).Type, want)}
		}
	}
	rr, err := fr.GetRecordReader(ctx, nil, nil)
	if err != nil {
		return nil, closeAll, &placeError{"row", 0, fmt.Errorf("the file's rows cannot be read: %v", err)}
	}
	closeAll = func() { rr.Release(); _ = rdr.Close() }
	feed := &parquetFeed{f: spool, rdr: rdr, rr: rr}
	return newRowSource(feed, l), closeAll, nil
}

func (f *parquetFeed) unit() string { return "row" }

func (f *parquetFeed) nextRow() (fileCells, int64, error) {
	for f.batch == nil || f.at >= int(f.batch.NumRows()) {
		if !f.rr.Next() {
			if err := f.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
				return nil, 0, &placeError{"row", f.place + 1, fmt.Errorf("cannot be read: %v", err)}
			}
			return nil, 0, io.EOF
		}
		f.batch, f.at = f.rr.RecordBatch(), 0
		f.row.cols = f.batch.Columns()
	}
	f.row.i = f.at
	f.at++
	f.place++
	return &f.row, f.place, nil
}

// parquetCells are the cells of row i of a batch.
type parquetCells struct {
	cols []arrow.Array
	i    int
}

func (c *parquetCells) null(i int) bool { return c.cols[i].IsNull(c.i) }

func (c *parquetCells) text(i int) (string, error) {
	return c.cols[i].(*array.String).Value(c.i), nil
}

func (c *parquetCells) float(i int) (float64, error) {
	return c.cols[i].(*array.Float64).Value(c.i), nil
}

func (c *parquetCells) int32(i int) (int32, error) {
	return c.cols[i].(*array.Int32).Value(c.i), nil
}

func (c *parquetCells) instant(i int) (time.Time, error) {
	micros := int64(c.cols[i].(*array.Timestamp).Value(c.i))
	return time.UnixMicro(micros).UTC(), nil
}

func (c *parquetCells) date(i int) (string, error) {
	return c.cols[i].(*array.Date32).Value(c.i).FormattedString(), nil
}
