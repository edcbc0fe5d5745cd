package export

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"mdc/gateway/gen/mdcv1"
)

// numberedPages are pages of full quotes (bench_test.go's payload) in the
// stream's order: quote i has the instant base+i seconds and the symbol
// "Q<i>", so a file's order can be read back from either column.
func numberedPages(t testing.TB, pages, perPage int) [][]byte {
	t.Helper()
	var p mdcv1.QuotePayload
	if err := protojson.Unmarshal([]byte(benchPayload), &p); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2035, 9, 4, 3, 45, 0, 0, time.UTC)
	out := make([][]byte, pages)
	for page := range pages {
		chunk := &mdcv1.ExportChunk{}
		for j := range perPage {
			i := page*perPage + j
			chunk.Records = append(chunk.Records, &mdcv1.ExportRecord{TradingDay: "2035-09-04",
				Record: &mdcv1.ExportRecord_Quote{Quote: &mdcv1.StockQuote{
					Timestamp: timestamppb.New(base.Add(time.Duration(i) * time.Second)), NseSymbol: "Q" + strconv.Itoa(i),
					QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &p}}}})
		}
		wire, err := proto.Marshal(chunk)
		if err != nil {
			t.Fatal(err)
		}
		out[page] = wire
	}
	return out
}

// pageSource is the stream of pages: recv gives each in turn, then
// failAfter's error (when set) or io.EOF. The first page is returned apart,
// as the handler receives it before the file starts.
func pageSource(pages [][]byte, failAfter int, fail error) (*wireChunk, func(*wireChunk) error) {
	next := 1
	recv := func(c *wireChunk) error {
		if fail != nil && next == failAfter {
			return fail
		}
		if next == len(pages) {
			return io.EOF
		}
		c.b = append(c.b[:0], pages[next]...)
		next++
		return nil
	}
	return &wireChunk{b: append([]byte(nil), pages[0]...)}, recv
}

// exportWith writes pages as the route does, with `workers` encoding
// goroutines, and returns the file, the error and the rows written.
func exportWith(t *testing.T, workers int, name string, pages [][]byte, failAfter int, fail error) ([]byte, error, int64) {
	t.Helper()
	defer func(n int) { pageWorkers = n }(pageWorkers)
	pageWorkers = workers
	var out bytes.Buffer
	enc, err := formatNamed(t, name).open(&out, quotesLayout)
	if err != nil {
		t.Fatal(err)
	}
	first, recv := pageSource(pages, failAfter, fail)
	stopped := false
	err = writePages(enc, first, true, recv, func() {}, func() { stopped = true })
	if err == nil {
		if cerr := enc.Close(); cerr != nil {
			t.Fatal(cerr)
		}
	} else if !stopped && workers > 1 {
		t.Errorf("a failed export did not stop its stream")
	}
	return out.Bytes(), err, enc.Rows()
}

// A large export of many pages, encoded on several goroutines, is the same
// file, row for row in the stream's order, as one encoded page after page.
func TestPagesEncodedAtOnceKeepTheStreamsOrder(t *testing.T) {
	pages := numberedPages(t, 120, 250) // 30,000 quotes, more pages than are ever in flight
	const rows = 120 * 250
	workers := max(4, runtime.GOMAXPROCS(0))

	inTurn, err, _ := exportWith(t, 1, "csv", pages, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	atOnce, err, n := exportWith(t, workers, "csv", pages, 0, nil)
	if err != nil || n != rows {
		t.Fatalf("%v, %d rows", err, n)
	}
	if !bytes.Equal(inTurn, atOnce) {
		t.Errorf("the CSV encoded on %d goroutines (%d bytes) differs from the one encoded in turn (%d bytes)", workers, len(atOnce), len(inTurn))
	}
	records, err := csv.NewReader(bytes.NewReader(atOnce)).ReadAll()
	if err != nil || len(records) != rows+1 {
		t.Fatalf("%v, %d lines", err, len(records))
	}
	for i, rec := range records[1:] {
		if rec[2] != "Q"+strconv.Itoa(i) {
			t.Fatalf("CSV row %d is %s", i, rec[2])
		}
	}

	file, err, n := exportWith(t, workers, "parquet", pages, 0, nil)
	if err != nil || n != rows {
		t.Fatalf("%v, %d rows", err, n)
	}
	table := readParquet(t, file)
	defer table.Release()
	if table.NumRows() != rows {
		t.Fatalf("%d Parquet rows", table.NumRows())
	}
	i := 0
	for _, c := range table.Column(table.Schema().FieldIndices("nse_symbol")[0]).Data().Chunks() {
		symbols := c.(*array.String)
		for j := range symbols.Len() {
			if got := symbols.Value(j); got != "Q"+strconv.Itoa(i) {
				t.Fatalf("Parquet row %d is %s", i, got)
			}
			i++
		}
	}
}

// A stream that fails after some pages gives back its error, with every
// page before it written whole and in order and nothing after it.
func TestAFailedStreamStopsAfterItsLastWholePage(t *testing.T) {
	pages := numberedPages(t, 40, 100)
	broken := errors.New("the server went away")
	for _, name := range []string{"csv", "parquet"} {
		for _, workers := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/%d", name, workers), func(t *testing.T) {
				file, err, n := exportWith(t, workers, name, pages, 17, broken)
				if !errors.Is(err, broken) {
					t.Fatalf("error %v", err)
				}
				// Encoded in turn, the encoders hold the last rows in their
				// buffers (64 KB of CSV, 4,096 Parquet rows), so fewer left;
				// encoded a page at a time, every whole page left.
				if workers > 1 && n != 17*100 || n > 17*100 {
					t.Errorf("%d rows written, want %d", n, 17*100)
				}
				if name == "csv" {
					records, err := csv.NewReader(bytes.NewReader(file)).ReadAll()
					if err != nil || int64(len(records)) != n+1 {
						t.Fatalf("%v, %d lines for %d rows", err, len(records), n)
					}
					for i, rec := range records[1:] {
						if rec[2] != "Q"+strconv.Itoa(i) {
							t.Fatalf("CSV row %d is %s", i, rec[2])
						}
					}
				}
			})
		}
	}
}

// A malformed page breaks the file off at that page, on any number of
// goroutines.
func TestAMalformedPageStopsTheExport(t *testing.T) {
	pages := numberedPages(t, 30, 100)
	pages[12] = append(append([]byte(nil), pages[12][:len(pages[12])/2]...), 0xff)
	for _, name := range []string{"csv", "parquet"} {
		_, err, n := exportWith(t, 4, name, pages, 0, nil)
		if !errors.Is(err, errWire) {
			t.Errorf("%s: error %v", name, err)
		}
		if n > 12*100 {
			t.Errorf("%s: %d rows written past the malformed page", name, n)
		}
	}
}

// panicky encodes every page but the third, on which it panics.
type panicky struct{ rows int64 }

func (e *panicky) Write([]byte) error     { return nil }
func (e *panicky) Close() error           { return nil }
func (e *panicky) Rows() int64            { return e.rows }
func (e *panicky) pageWorker() pageWorker { return panickyWorker{e} }

type panickyWorker struct{ e *panicky }

func (w panickyWorker) encode(chunk []byte) (func() error, error) {
	if len(chunk) == 3 {
		panic("a bug in a layout")
	}
	return func() error { w.e.rows++; return nil }, nil
}
func (panickyWorker) release() {}

// A panic while encoding a page on a worker is that page's error, not the
// end of the gateway.
func TestAPanicInAWorkerIsThePagesError(t *testing.T) {
	defer func(n int) { pageWorkers = n }(pageWorkers)
	pageWorkers = 4
	pages := [][]byte{{1}, {1, 2}, {1, 2, 3}, {1, 2, 3, 4}}
	first, recv := pageSource(pages, 0, nil)
	enc := &panicky{}
	err := writePages(enc, first, true, recv, func() {}, func() {})
	if err == nil || !strings.Contains(err.Error(), "a bug in a layout") || enc.rows != 2 {
		t.Errorf("%v after %d pages", err, enc.rows)
	}
}
