package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"mdc/gateway/gen/mdcv1"
)

// encode writes records of kind in format f and returns the file.
func encode(t *testing.T, f format, kind string, records []*mdcv1.ExportRecord) []byte {
	t.Helper()
	var out bytes.Buffer
	enc, err := f.open(&out, layoutOf(t, kind))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range records {
		if err := enc.Write(wireOf(t, rec)); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func formatNamed(t *testing.T, name string) format {
	t.Helper()
	for _, f := range formats {
		if f.name == name {
			return f
		}
	}
	t.Fatalf("no format %q", name)
	return format{}
}

func TestCSVQuotesNullsAndReadsBack(t *testing.T) {
	data := encode(t, formatNamed(t, "csv"), "shortlists", sampleRecords["shortlists"])
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(rows) != 4 || strings.Join(rows[0], ",") != "timestamp,trading_day,shortlist_type,scope,entry_count,rank,nse_symbol,name,price,quote_data" {
		t.Fatalf("%q", rows)
	}
	if got := strings.Join(rows[1], "|"); got != "2035-03-06T03:45:00Z|2035-03-06|TOP_GAINERS|TOP_5|2|1|A|A, Ltd|10|" {
		t.Errorf("row 1: %s", got)
	}
	if rows[2][9] != `{"status":"SUCCESS"}` || rows[3][5] != "" || rows[3][6] != "" {
		t.Errorf("rows 2, 3: %q %q", rows[2], rows[3])
	}
	quotes := encode(t, formatNamed(t, "csv"), "quotes", sampleRecords["quotes"])
	qrows, err := csv.NewReader(bytes.NewReader(quotes)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if qrows[1][2] != "M&M" || qrows[1][4] != "1.5" || qrows[2][3] != "FAILURE" || qrows[2][4] != "" {
		t.Errorf("quotes: %q", qrows)
	}
}

func TestCSVOfNothingIsTheHeader(t *testing.T) {
	data := encode(t, formatNamed(t, "csv"), "candles", nil)
	if string(data) != "timestamp,trading_day,symbol,interval,open,high,low,close,volume\r\n" {
		t.Errorf("%q", data)
	}
}

func TestNDJSONIsOneRecordALine(t *testing.T) {
	data := encode(t, formatNamed(t, "ndjson"), "quotes", sampleRecords["quotes"])
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%q", data)
	}
	var first struct {
		TradingDay string `json:"tradingDay"`
		Quote      struct {
			NseSymbol string `json:"nseSymbol"`
			Timestamp string `json:"timestamp"`
		} `json:"quote"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.TradingDay != "2035-03-06" || first.Quote.NseSymbol != "M&M" || first.Quote.Timestamp != "2035-03-06T03:45:00Z" {
		t.Errorf("%+v", first)
	}
}

// readParquet reads a file back with the same library's reader (the e2e
// tests read the gateway's files with pyarrow).
func readParquet(t *testing.T, data []byte) arrow.Table {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	table, err := r.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return table
}

func TestParquetHasTypedNullableColumns(t *testing.T) {
	table := readParquet(t, encode(t, formatNamed(t, "parquet"), "quotes", sampleRecords["quotes"]))
	defer table.Release()
	if table.NumRows() != 2 || int(table.NumCols()) != len(quotesLayout.columns) {
		t.Fatalf("%d rows, %d columns", table.NumRows(), table.NumCols())
	}
	schema := table.Schema()
	for name, want := range map[string]string{
		"timestamp": "timestamp[us, tz=UTC]", "trading_day": "date32", "nse_symbol": "utf8", "last_price": "float64",
	} {
		idx := schema.FieldIndices(name)
		if len(idx) != 1 || schema.Field(idx[0]).Type.String() != want {
			t.Errorf("column %s: %v, want %s", name, idx, want)
		}
	}
	price := table.Column(schema.FieldIndices("last_price")[0]).Data().Chunk(0).(*array.Float64)
	if price.Value(0) != 1.5 || !price.IsNull(1) {
		t.Errorf("last_price %v", price)
	}
	day := table.Column(1).Data().Chunk(0).(*array.Date32)
	if got := day.Value(0).ToTime().Format("2006-01-02"); got != "2035-03-06" {
		t.Errorf("trading_day %s", got)
	}
	ts := table.Column(0).Data().Chunk(0).(*array.Timestamp)
	if got := ts.Value(0); got != arrow.Timestamp(at.AsTime().UnixMicro()) {
		t.Errorf("timestamp %v", got)
	}
}

func TestParquetOfNothingHasTheSchema(t *testing.T) {
	table := readParquet(t, encode(t, formatNamed(t, "parquet"), "shortlists", nil))
	defer table.Release()
	if table.NumRows() != 0 || int(table.NumCols()) != len(shortlistsLayout.columns) {
		t.Errorf("%d rows, %d columns", table.NumRows(), table.NumCols())
	}
}

// Many rows make several row groups, all read back.
func TestParquetSpansRowGroups(t *testing.T) {
	records := make([]*mdcv1.ExportRecord, parquetRowGroupRows+parquetBatchRows+3)
	for i := range records {
		records[i] = sampleRecords["candles"][0]
	}
	data := encode(t, formatNamed(t, "parquet"), "candles", records)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRows() != int64(len(records)) || pf.NumRowGroups() < 2 {
		t.Errorf("%d rows in %d row groups", pf.NumRows(), pf.NumRowGroups())
	}
}

func TestFormatParameter(t *testing.T) {
	for query, want := range map[string]string{"": "csv", "format=parquet": "parquet", "format=NDJSON": "ndjson"} {
		values, _ := parseQuery(query)
		f, err := formatOf(values)
		if err != nil || f.name != want {
			t.Errorf("%q: %v %v, want %s", query, f.name, err, want)
		}
	}
	for _, query := range []string{"format=xlsx", "format=", "format=csv&format=csv"} {
		values, _ := parseQuery(query)
		if _, err := formatOf(values); err == nil || !strings.Contains(err.Error(), "csv, parquet or ndjson") {
			t.Errorf("%q: %v", query, err)
		}
	}
}

func parseQuery(q string) (map[string][]string, error) {
	values, err := url.ParseQuery(q)
	return values, err
}
