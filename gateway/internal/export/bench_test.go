package export

import (
	"io"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// benchPayload is bench/export/run.sh's template quote: every payload
// number, the ohlc and five depth levels a side.
const benchPayload = `{"last_price":100.25,"day_change":1.5,"day_change_perc":1.52,"volume":123456,"average_price":99.9,"bid_quantity":10,"bid_price":100.2,"upper_circuit_limit":110,"lower_circuit_limit":90,"high_trade_range":105,"low_trade_range":95,"implied_volatility":12.5,"last_trade_quantity":5,"market_cap":1000000,"offer_price":100.3,"offer_quantity":12,"oi_day_change":0,"oi_day_change_percentage":0,"open_interest":0,"previous_open_interest":0,"total_buy_quantity":5000,"total_sell_quantity":6000,"week_52_high":120,"week_52_low":80,"last_trade_time":2072919300000,"ohlc":{"open":99,"high":101,"low":98,"close":98.8},"depth":{"buy":[{"price":99.5,"quantity":10},{"price":99.4,"quantity":20},{"price":99.3,"quantity":30},{"price":99.2,"quantity":40},{"price":99.1,"quantity":50}],"sell":[{"price":100.5,"quantity":10},{"price":100.6,"quantity":20},{"price":100.7,"quantity":30},{"price":100.8,"quantity":40},{"price":100.9,"quantity":50}]}}`

// benchChunk is the wire form of one full page of full quotes.
func benchChunk(b *testing.B) []byte {
	var p mdcv1.QuotePayload
	if err := protojson.Unmarshal([]byte(benchPayload), &p); err != nil {
		b.Fatal(err)
	}
	chunk := &mdcv1.ExportChunk{}
	for i := range 1000 {
		chunk.Records = append(chunk.Records, &mdcv1.ExportRecord{TradingDay: "2035-09-04",
			Record: &mdcv1.ExportRecord_Quote{Quote: &mdcv1.StockQuote{Timestamp: at, NseSymbol: "LD" + string(rune('0'+i%10)),
				QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &p}}}})
	}
	wire, err := proto.Marshal(chunk)
	if err != nil {
		b.Fatal(err)
	}
	return wire
}

func benchmarkFormat(b *testing.B, name string) {
	wire := benchChunk(b)
	var f format
	for _, ff := range formats {
		if ff.name == name {
			f = ff
		}
	}
	enc, err := f.open(io.Discard, quotesLayout)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := eachRecord(wire, enc.Write); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	_ = enc.Close()
}

// One iteration is one page of 1,000 rows: ns/op / 1000 is the time per row.
func BenchmarkQuotesPageCSV(b *testing.B)     { benchmarkFormat(b, "csv") }
func BenchmarkQuotesPageParquet(b *testing.B) { benchmarkFormat(b, "parquet") }
