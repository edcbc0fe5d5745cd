package export

import (
	"google.golang.org/protobuf/encoding/protojson"

	"mdc/gateway/gen/mdcv1"
)

// payloadColumns are the numbers of a quote's payload, in the order of
// mdc.v1.QuotePayload, named as its JSON names (docs/api.md 2.2); a test
// checks the table against the message.
var payloadColumns = []struct {
	name string
	get  func(p *mdcv1.QuotePayload) *float64
}{
	{"last_price", func(p *mdcv1.QuotePayload) *float64 { return p.LastPrice }},
	{"day_change", func(p *mdcv1.QuotePayload) *float64 { return p.DayChange }},
	{"day_change_perc", func(p *mdcv1.QuotePayload) *float64 { return p.DayChangePerc }},
	{"volume", func(p *mdcv1.QuotePayload) *float64 { return p.Volume }},
	{"average_price", func(p *mdcv1.QuotePayload) *float64 { return p.AveragePrice }},
	{"bid_quantity", func(p *mdcv1.QuotePayload) *float64 { return p.BidQuantity }},
	{"bid_price", func(p *mdcv1.QuotePayload) *float64 { return p.BidPrice }},
	{"upper_circuit_limit", func(p *mdcv1.QuotePayload) *float64 { return p.UpperCircuitLimit }},
	{"lower_circuit_limit", func(p *mdcv1.QuotePayload) *float64 { return p.LowerCircuitLimit }},
	{"high_trade_range", func(p *mdcv1.QuotePayload) *float64 { return p.HighTradeRange }},
	{"low_trade_range", func(p *mdcv1.QuotePayload) *float64 { return p.LowTradeRange }},
	{"implied_volatility", func(p *mdcv1.QuotePayload) *float64 { return p.ImpliedVolatility }},
	{"last_trade_quantity", func(p *mdcv1.QuotePayload) *float64 { return p.LastTradeQuantity }},
	{"market_cap", func(p *mdcv1.QuotePayload) *float64 { return p.MarketCap }},
	{"offer_price", func(p *mdcv1.QuotePayload) *float64 { return p.OfferPrice }},
	{"offer_quantity", func(p *mdcv1.QuotePayload) *float64 { return p.OfferQuantity }},
	{"oi_day_change", func(p *mdcv1.QuotePayload) *float64 { return p.OiDayChange }},
	{"oi_day_change_percentage", func(p *mdcv1.QuotePayload) *float64 { return p.OiDayChangePercentage }},
	{"open_interest", func(p *mdcv1.QuotePayload) *float64 { return p.OpenInterest }},
	{"previous_open_interest", func(p *mdcv1.QuotePayload) *float64 { return p.PreviousOpenInterest }},
	{"total_buy_quantity", func(p *mdcv1.QuotePayload) *float64 { return p.TotalBuyQuantity }},
	{"total_sell_quantity", func(p *mdcv1.QuotePayload) *float64 { return p.TotalSellQuantity }},
	{"week_52_high", func(p *mdcv1.QuotePayload) *float64 { return p.Week_52High }},
	{"week_52_low", func(p *mdcv1.QuotePayload) *float64 { return p.Week_52Low }},
	{"last_trade_time", func(p *mdcv1.QuotePayload) *float64 { return p.LastTradeTime }},
}

// ohlcColumns are the payload's ohlc, flattened.
var ohlcColumns = []struct {
	name string
	get  func(o *mdcv1.Ohlc) *float64
}{
	{"ohlc_open", func(o *mdcv1.Ohlc) *float64 { return o.Open }},
	{"ohlc_high", func(o *mdcv1.Ohlc) *float64 { return o.High }},
	{"ohlc_low", func(o *mdcv1.Ohlc) *float64 { return o.Low }},
	{"ohlc_close", func(o *mdcv1.Ohlc) *float64 { return o.Close }},
}

// jsonText is the proto JSON of nested data kept whole in one text column
// (order book depth, a shortlist entry's quote).
var jsonText = protojson.MarshalOptions{UseProtoNames: false}

// quoteDataColumns are the columns of a mdc.v1.QuoteData: its status, every
// payload number, the ohlc and the depth as JSON text.
func quoteDataColumns() []column {
	cols := []column{{"status", colString}}
	for _, c := range payloadColumns {
		cols = append(cols, column{c.name, colFloat})
	}
	for _, c := range ohlcColumns {
		cols = append(cols, column{c.name, colFloat})
	}
	return append(cols, column{"depth", colString})
}

// writeQuoteData writes the cells of quoteDataColumns.
func writeQuoteData(q *mdcv1.QuoteData, w rowWriter) error {
	w.String(q.GetStatus().String())
	p := q.GetPayload()
	for _, c := range payloadColumns {
		if p == nil {
			w.Null()
		} else {
			optFloat(w, c.get(p))
		}
	}
	o := p.GetOhlc()
	for _, c := range ohlcColumns {
		if o == nil {
			w.Null()
		} else {
			optFloat(w, c.get(o))
		}
	}
	if d := p.GetDepth(); d != nil {
		text, err := jsonText.Marshal(d)
		if err != nil {
			return err
		}
		w.String(string(text))
	} else {
		w.Null()
	}
	return nil
}

var quotesLayout = layout{
	kind: "quotes",
	columns: append([]column{
		{"timestamp", colTime}, {"trading_day", colDate}, {"nse_symbol", colString},
	}, quoteDataColumns()...),
	rows: func(rec *mdcv1.ExportRecord, w rowWriter) error {
		q := rec.GetQuote()
		ts := q.GetTimestamp()
		w.Time(instant(ts.GetSeconds(), ts.GetNanos()))
		w.Date(rec.GetTradingDay())
		w.String(q.GetNseSymbol())
		if err := writeQuoteData(q.GetQuoteData(), w); err != nil {
			return err
		}
		return w.EndRow()
	},
}

var niftyLayout = layout{
	kind: "nifty",
	columns: append(append([]column{
		{"timestamp", colTime}, {"trading_day", colDate},
	}, quoteDataColumns()...), column{"index_day_change_perc", colFloat}),
	rows: func(rec *mdcv1.ExportRecord, w rowWriter) error {
		q := rec.GetNifty()
		ts := q.GetTimestamp()
		w.Time(instant(ts.GetSeconds(), ts.GetNanos()))
		w.Date(rec.GetTradingDay())
		if err := writeQuoteData(q.GetQuoteData(), w); err != nil {
			return err
		}
		optFloat(w, q.DayChangePerc)
		return w.EndRow()
	},
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
	rows: func(rec *mdcv1.ExportRecord, w rowWriter) error {
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
				w.String(string(text))
			} else {
				w.Null()
			}
			if err := w.EndRow(); err != nil {
				return err
			}
		}
		return nil
	},
}

var candlesLayout = layout{
	kind: "candles",
	columns: []column{
		{"timestamp", colTime}, {"trading_day", colDate}, {"symbol", colString}, {"interval", colString},
		{"open", colFloat}, {"high", colFloat}, {"low", colFloat}, {"close", colFloat}, {"volume", colFloat},
	},
	rows: func(rec *mdcv1.ExportRecord, w rowWriter) error {
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
		w.Float(k.GetVolume())
		return w.EndRow()
	},
}
