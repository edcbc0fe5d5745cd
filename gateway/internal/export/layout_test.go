package export

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"mdc/gateway/gen/mdcv1"
)

// The payload table is every number of mdc.v1.QuotePayload, in its order,
// by its JSON name, and the ohlc table every field of mdc.v1.Ohlc: a field
// added to the proto without a column fails here. Each column reads its
// own field from the wire.
func TestPayloadColumnsAreTheMessagesNumbers(t *testing.T) {
	fields := (&mdcv1.QuotePayload{}).ProtoReflect().Descriptor().Fields()
	var numbers []protoreflect.FieldDescriptor
	for i := 0; i < fields.Len(); i++ {
		if f := fields.Get(i); f.Kind() == protoreflect.DoubleKind {
			numbers = append(numbers, f)
		}
	}
	if len(numbers) != len(payloadColumns) {
		t.Fatalf("%d number fields, %d columns", len(numbers), len(payloadColumns))
	}
	columns := quoteDataColumns()
	for i, f := range numbers {
		if string(payloadColumns[i]) != f.JSONName() {
			t.Errorf("column %d is %q, field %q", i, payloadColumns[i], f.JSONName())
		}
		p := &mdcv1.QuotePayload{}
		p.ProtoReflect().Set(f, protoreflect.ValueOfFloat64(float64(i+1)))
		row := quoteDataRow(t, &mdcv1.QuoteData{Payload: p})
		for j, cell := range row {
			if want := j == 1+i; (cell == float64(i+1)) != want {
				t.Errorf("field %s: column %s holds %v", f.Name(), columns[j].name, cell)
			}
		}
	}
	ohlc := (&mdcv1.Ohlc{}).ProtoReflect().Descriptor().Fields()
	if ohlc.Len() != len(ohlcColumns) {
		t.Fatalf("%d ohlc fields, %d columns", ohlc.Len(), len(ohlcColumns))
	}
	for i := 0; i < ohlc.Len(); i++ {
		o := &mdcv1.Ohlc{}
		o.ProtoReflect().Set(ohlc.Get(i), protoreflect.ValueOfFloat64(7))
		row := quoteDataRow(t, &mdcv1.QuoteData{Payload: &mdcv1.QuotePayload{Ohlc: o}})
		col := 1 + len(payloadColumns) + i
		if row[col] != float64(7) || columns[col].name != "ohlc_"+string(ohlc.Get(i).Name()) {
			t.Errorf("column %q does not read field %q: %v", columns[col].name, ohlc.Get(i).Name(), row)
		}
	}
}

// quoteDataRow is the cells of quoteDataColumns that q becomes.
func quoteDataRow(t *testing.T, q *mdcv1.QuoteData) []any {
	t.Helper()
	b, err := proto.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var q2 quoteCells
	if err := q2.read(b); err != nil {
		t.Fatal(err)
	}
	var c cells
	if err := q2.write(&c); err != nil {
		t.Fatal(err)
	}
	return c.row
}

// cells records what a layout writes.
type cells struct {
	rows [][]any
	row  []any
}

func (c *cells) Time(t time.Time) { c.row = append(c.row, t) }
func (c *cells) Date(d string)    { c.row = append(c.row, "date:"+d) }
func (c *cells) String(s string)  { c.row = append(c.row, s) }
func (c *cells) Text(b []byte)    { c.row = append(c.row, string(b)) }
func (c *cells) Float(f float64)  { c.row = append(c.row, f) }
func (c *cells) Int(i int32)      { c.row = append(c.row, i) }
func (c *cells) Null()            { c.row = append(c.row, nil) }
func (c *cells) EndRow() error {
	c.rows = append(c.rows, c.row)
	c.row = nil
	return nil
}

func f64(v float64) *float64 { return &v }

// wireOf is the wire form of m, as the server sends it.
func wireOf(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var at = timestamppb.New(time.Date(2035, 3, 6, 3, 45, 0, 0, time.UTC))

// sampleRecords are records of every kind, with and without optional data.
var sampleRecords = map[string][]*mdcv1.ExportRecord{
	"quotes": {
		{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Quote{Quote: &mdcv1.StockQuote{Timestamp: at, NseSymbol: "M&M",
			QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: f64(1.5),
				Ohlc: &mdcv1.Ohlc{High: f64(2)}, Depth: &mdcv1.Depth{Buy: []*mdcv1.DepthLevel{{Price: f64(1.25)}}}}}}}},
		{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Quote{Quote: &mdcv1.StockQuote{Timestamp: at, NseSymbol: "TCS",
			QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_FAILURE}}}},
	},
	"nifty": {
		{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Nifty{Nifty: &mdcv1.NiftyQuote{Timestamp: at, DayChangePerc: f64(0.5),
			QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: f64(22000)}}}}},
	},
	"shortlists": {
		{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Shortlist{Shortlist: &mdcv1.Shortlist{Timestamp: at,
			ShortlistType: mdcv1.ShortlistType_TOP_GAINERS, Scope: mdcv1.Scope_TOP_5, Entries: []*mdcv1.ShortlistEntry{
				{NseSymbol: "A", Name: "A, Ltd", Price: f64(10)},
				{NseSymbol: "B", Price: f64(11), QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS}},
			}}}},
		{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Shortlist{Shortlist: &mdcv1.Shortlist{Timestamp: at,
			ShortlistType: mdcv1.ShortlistType_VOLUME_SHOCKERS, Scope: mdcv1.Scope_FULL}}},
	},
	"candles": {
		{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Candle{Candle: &mdcv1.SymbolCandle{Symbol: "A", Interval: "1minute",
			Candle: &mdcv1.Candle{Time: at, Open: 1, High: 2, Low: 0.5, Close: 1.5, Volume: f64(10)}}}},
		// No quote of the bucket reported a volume: a null cell, not 0.
		{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Candle{Candle: &mdcv1.SymbolCandle{Symbol: "NIFTY", Interval: "1minute",
			Candle: &mdcv1.Candle{Time: at, Open: 1, High: 2, Low: 0.5, Close: 1.5}}}},
	},
}

func layoutOf(t *testing.T, kind string) layout {
	t.Helper()
	for _, rt := range routes {
		if rt.layout.kind == kind {
			return rt.layout
		}
	}
	t.Fatalf("no layout %q", kind)
	return layout{}
}

func TestEveryRowHasACellPerColumnOfItsType(t *testing.T) {
	for kind, records := range sampleRecords {
		l := layoutOf(t, kind)
		var c cells
		for _, rec := range records {
			if err := l.rows()(wireOf(t, rec), &c); err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
		}
		for r, row := range c.rows {
			if len(row) != len(l.columns) {
				t.Fatalf("%s row %d: %d cells for %d columns", kind, r, len(row), len(l.columns))
			}
			for i, cell := range row {
				if cell == nil {
					continue
				}
				var ok bool
				switch l.columns[i].typ {
				case colTime:
					_, ok = cell.(time.Time)
				case colDate:
					s, isString := cell.(string)
					ok = isString && len(s) == len("date:2035-03-06")
				case colString:
					_, ok = cell.(string)
				case colFloat:
					_, ok = cell.(float64)
				case colInt:
					_, ok = cell.(int32)
				}
				if !ok {
					t.Errorf("%s row %d column %s: %#v", kind, r, l.columns[i].name, cell)
				}
			}
		}
	}
}

func TestShortlistsFlattenToOneRowPerEntry(t *testing.T) {
	var c cells
	for _, rec := range sampleRecords["shortlists"] {
		if err := shortlistsLayout.rows()(wireOf(t, rec), &c); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.rows) != 3 {
		t.Fatalf("%d rows", len(c.rows))
	}
	// entry_count, rank, symbol of each row; the empty snapshot has no entry.
	for i, want := range [][3]any{{int32(2), int32(1), "A"}, {int32(2), int32(2), "B"}, {int32(0), nil, nil}} {
		if got := [3]any{c.rows[i][4], c.rows[i][5], c.rows[i][6]}; got != want {
			t.Errorf("row %d: %v, want %v", i, got, want)
		}
	}
	if c.rows[0][9] != nil || c.rows[1][9] != `{"status":"SUCCESS"}` {
		t.Errorf("quote_data %v %v", c.rows[0][9], c.rows[1][9])
	}
}
