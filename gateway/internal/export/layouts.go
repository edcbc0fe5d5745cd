package export

import (
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"mdc/gateway/gen/mdcv1"
)

// Field numbers of the records, from the descriptors.
var (
	chunkRecordsField     = fieldNumber(&mdcv1.ExportChunk{}, "records")
	recordDayField        = fieldNumber(&mdcv1.ExportRecord{}, "trading_day")
	recordQuoteField      = fieldNumber(&mdcv1.ExportRecord{}, "quote")
	recordNiftyField      = fieldNumber(&mdcv1.ExportRecord{}, "nifty")
	quoteTimestampField   = fieldNumber(&mdcv1.StockQuote{}, "timestamp")
	quoteSymbolField      = fieldNumber(&mdcv1.StockQuote{}, "nse_symbol")
	quoteDataField        = fieldNumber(&mdcv1.StockQuote{}, "quote_data")
	niftyTimestampField   = fieldNumber(&mdcv1.NiftyQuote{}, "timestamp")
	niftyDataField        = fieldNumber(&mdcv1.NiftyQuote{}, "quote_data")
	niftyDayChangeField   = fieldNumber(&mdcv1.NiftyQuote{}, "day_change_perc")
	timestampSecondsField = fieldNumber(&timestamppb.Timestamp{}, "seconds")
	timestampNanosField   = fieldNumber(&timestamppb.Timestamp{}, "nanos")
)

// jsonText is the proto JSON of nested data kept whole in one text column
// (a shortlist entry's quote).
var jsonText = protojson.MarshalOptions{UseProtoNames: false}

// quoteDataColumns are the columns of a mdc.v1.QuoteData: its status, every
// payload number, the ohlc and the depth as JSON text.
func quoteDataColumns() []column {
	cols := []column{{"status", colString}}
	for _, name := range payloadColumns {
		cols = append(cols, column{string(name), colFloat})
	}
	for _, name := range ohlcColumns {
		cols = append(cols, column{"ohlc_" + string(name), colFloat})
	}
	return append(cols, column{"depth", colString})
}

// readTimestamp is the instant of a google.protobuf.Timestamp's wire bytes.
func readTimestamp(b []byte) (time.Time, error) {
	var seconds int64
	var nanos int32
	r := newWireReader(b)
	for r.next() {
		switch r.num {
		case timestampSecondsField:
			seconds = int64(r.varint())
		case timestampNanosField:
			nanos = int32(r.varint())
		default:
			r.skip()
		}
	}
	return instant(seconds, nanos), r.err()
}

// recordParts are the fields of an mdc.v1.ExportRecord: its trading day
// and the wire bytes of its record of the field wanted.
func recordParts(rec []byte, want protowire.Number) (day, record []byte, err error) {
	r := newWireReader(rec)
	for r.next() {
		switch r.num {
		case recordDayField:
			day = r.bytes()
		case want:
			record = r.bytes()
		default:
			r.skip()
		}
	}
	return day, record, r.err()
}

// quoteFields are the field numbers of a record's StockQuote or
// NiftyQuote; 0 where the message has no such field.
type quoteFields struct {
	record, timestamp, data, symbol, dayChange protowire.Number
}

var (
	stockFields = quoteFields{record: recordQuoteField, timestamp: quoteTimestampField,
		data: quoteDataField, symbol: quoteSymbolField}
	niftyFields = quoteFields{record: recordNiftyField, timestamp: niftyTimestampField,
		data: niftyDataField, dayChange: niftyDayChangeField}
)

// quoteRecord is one stock or NIFTY quote read from the wire, reused from
// row to row of an export.
type quoteRecord struct {
	at        time.Time
	day       []byte
	symbol    []byte
	dayChange float64
	hasChange bool
	cells     quoteCells
}

// read takes the record rec, whose quote has the fields f.
func (q *quoteRecord) read(rec []byte, f quoteFields) error {
	day, quote, err := recordParts(rec, f.record)
	if err != nil {
		return err
	}
	q.at, q.day, q.symbol, q.hasChange = instant(0, 0), day, nil, false
	q.cells.reset()
	r := newWireReader(quote)
	for r.next() {
		switch r.num {
		case f.timestamp:
			if ts := r.bytes(); r.err() == nil {
				q.at, err = readTimestamp(ts)
			}
		case f.data:
			if data := r.bytes(); r.err() == nil {
				err = q.cells.read(data)
			}
		case f.symbol:
			q.symbol = r.bytes()
		case f.dayChange:
			q.dayChange, q.hasChange = r.double(), true
		default:
			r.skip()
		}
		if err != nil {
			return err
		}
	}
	return r.err()
}

var quotesLayout = layout{
	kind: "quotes", rowPerRecord: true,
	columns: append([]column{
		{"timestamp", colTime}, {"trading_day", colDate}, {"nse_symbol", colString},
	}, quoteDataColumns()...),
	rows: func() rowsFunc {
		var q quoteRecord
		return func(rec []byte, w rowWriter) error {
			if err := q.read(rec, stockFields); err != nil {
				return err
			}
			w.Time(q.at)
			w.Date(string(q.day))
			w.Text(q.symbol)
			if err := q.cells.write(w); err != nil {
				return err
			}
			return w.EndRow()
		}
	},
}

var niftyLayout = layout{
	kind: "nifty", rowPerRecord: true,
	columns: append(append([]column{
		{"timestamp", colTime}, {"trading_day", colDate},
	}, quoteDataColumns()...), column{"index_day_change_perc", colFloat}),
	rows: func() rowsFunc {
		var q quoteRecord
		return func(rec []byte, w rowWriter) error {
			if err := q.read(rec, niftyFields); err != nil {
				return err
			}
			w.Time(q.at)
			w.Date(string(q.day))
			if err := q.cells.write(w); err != nil {
				return err
			}
			if q.hasChange {
				w.Float(q.dayChange)
			} else {
				w.Null()
			}
			return w.EndRow()
		}
	},
}

// typedRows decodes each record into an mdc.v1.ExportRecord for layouts
// whose records are few or small (shortlists, candles), where reading the
// generated message costs little.
func typedRows(rows func(rec *mdcv1.ExportRecord, w rowWriter) error) func() rowsFunc {
	return func() rowsFunc {
		return func(wire []byte, w rowWriter) error {
			var rec mdcv1.ExportRecord
			if err := proto.Unmarshal(wire, &rec); err != nil {
				return errWire
			}
			return rows(&rec, w)
		}
	}
}

// A shortlist snapshot is one row per entry, its rank beside it; a snapshot
// without entries (a real observation) is one row whose entry cells are
// null.
var shortlistsLayout = layout{
	kind: "shortlists",
	columns: []column{
		{"timestamp", colTime}, {"trading_day", colDate}, {"shortlist_type", colString},
		{"scope", colString}, {"entry_count", colInt}, {"rank", colInt},
		{"nse_symbol", colString}, {"name", colString}, {"price", colFloat}, {"quote_data", colString},
	},
	rows: typedRows(func(rec *mdcv1.ExportRecord, w rowWriter) error {
		s := rec.GetShortlist()
		ts := s.GetTimestamp()
		at := instant(ts.GetSeconds(), ts.GetNanos())
		head := func() {
			w.Time(at)
			w.Date(rec.GetTradingDay())
			w.String(s.GetShortlistType().String())
			w.String(s.GetScope().String())
			w.Int(int32(len(s.GetEntries())))
		}
		if len(s.GetEntries()) == 0 {
			head()
			for range 5 {
				w.Null()
			}
			return w.EndRow()
		}
		for i, e := range s.GetEntries() {
			head()
			w.Int(int32(i + 1))
			w.String(e.GetNseSymbol())
			w.String(e.GetName())
			optFloat(w, e.Price)
			if e.GetQuoteData() != nil {
				text, err := jsonText.Marshal(e.GetQuoteData())
				if err != nil {
					return err
				}
				w.Text(text)
			} else {
				w.Null()
			}
			if err := w.EndRow(); err != nil {
				return err
			}
		}
		return nil
	}),
}

var candlesLayout = layout{
	kind: "candles", rowPerRecord: true,
	columns: []column{
		{"timestamp", colTime}, {"trading_day", colDate}, {"symbol", colString}, {"interval", colString},
		{"open", colFloat}, {"high", colFloat}, {"low", colFloat}, {"close", colFloat}, {"volume", colFloat},
	},
	rows: typedRows(func(rec *mdcv1.ExportRecord, w rowWriter) error {
		c := rec.GetCandle()
		k := c.GetCandle()
		ts := k.GetTime()
		w.Time(instant(ts.GetSeconds(), ts.GetNanos()))
		w.Date(rec.GetTradingDay())
		w.String(c.GetSymbol())
		w.String(c.GetInterval())
		w.Float(k.GetOpen())
		w.Float(k.GetHigh())
		w.Float(k.GetLow())
		w.Float(k.GetClose())
		if k != nil && k.Volume != nil { // absent: no quote of the bucket reported a volume
			w.Float(*k.Volume)
		} else {
			w.Null()
		}
		return w.EndRow()
	}),
}
