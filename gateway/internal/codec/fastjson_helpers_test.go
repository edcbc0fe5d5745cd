package codec

// Builders and checks shared by the fast decoder's tests (fastjson_test.go,
// fastjson_cases_test.go, fastjson_fuzz_test.go, fastjson_bench_test.go).

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/gen/mdcv1"
)

// The bodies of bench/grpcload (the load benchmarks), built the same way.

func benchShortlist(entries int, quoted bool) *mdcv1.SaveShortlistRequest {
	es := make([]*mdcv1.ShortlistEntry, entries)
	for i := range es {
		es[i] = &mdcv1.ShortlistEntry{
			NseSymbol: fmt.Sprintf("STOCK%02d", i+1),
			Name:      fmt.Sprintf("Stock %02d Industries Limited", i+1),
			Price:     proto.Float64(100 + float64(i)*37.25),
		}
		if quoted {
			es[i].QuoteData = fullQuote(100 + float64(i)*37.25)
		}
	}
	return &mdcv1.SaveShortlistRequest{Data: &mdcv1.ShortlistData{
		Timestamp:     "2025-01-01T10:00:00",
		Timezone:      "UTC",
		ShortlistType: mdcv1.ShortlistType_TOP_GAINERS,
		Scope:         mdcv1.Scope_TOP_5,
		Entries:       es,
	}}
}

func benchNifty() *mdcv1.SaveNiftyRequest {
	return &mdcv1.SaveNiftyRequest{Data: &mdcv1.NiftyData{
		Timestamp:     "2025-01-01T10:00:00",
		Timezone:      "UTC",
		QuoteData:     fullQuote(24350.55),
		DayChangePerc: proto.Float64(0.42),
	}}
}

func benchQuotes(n int) *mdcv1.SaveQuotesRequest {
	items := make([]*mdcv1.QuoteItem, n)
	for i := range items {
		f := proto.Float64
		price := 100 + float64(i)*3.5
		items[i] = &mdcv1.QuoteItem{NseSymbol: fmt.Sprintf("SYM%04d", i+1), QuoteData: &mdcv1.QuoteData{
			Status: mdcv1.QuoteStatus_SUCCESS,
			Payload: &mdcv1.QuotePayload{
				LastPrice: f(price), DayChangePerc: f(1.25), Volume: f(float64(100000 + i*1000)),
				Ohlc: &mdcv1.Ohlc{Open: f(price - 1), High: f(price + 2), Low: f(price - 3), Close: f(price - 1.2)},
			},
		}}
	}
	return &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{Timestamp: "2025-01-01T10:00:00", Timezone: "UTC", Quotes: items}}
}

// fullQuote is a quote with every payload field set, five depth levels a side.
func fullQuote(price float64) *mdcv1.QuoteData {
	f := proto.Float64
	depth := &mdcv1.Depth{}
	for i := 0; i < 5; i++ {
		depth.Buy = append(depth.Buy, &mdcv1.DepthLevel{Price: f(price - 0.05*float64(i+1)), Quantity: f(float64(75 * (i + 1)))})
		depth.Sell = append(depth.Sell, &mdcv1.DepthLevel{Price: f(price + 0.05*float64(i+1)), Quantity: f(float64(50 * (i + 1)))})
	}
	return &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{
		LastPrice: f(price), DayChange: f(101.8), DayChangePerc: f(0.42), Volume: f(182736450),
		AveragePrice: f(price - 12.3), BidQuantity: f(1500), BidPrice: f(price - 0.05),
		UpperCircuitLimit: f(price * 1.1), LowerCircuitLimit: f(price * 0.9),
		HighTradeRange: f(price + 80), LowTradeRange: f(price - 95), ImpliedVolatility: f(13.7),
		LastTradeQuantity: f(75), MarketCap: f(1.9e14), OfferPrice: f(price + 0.05), OfferQuantity: f(900),
		OiDayChange: f(-1200), OiDayChangePercentage: f(-0.8), OpenInterest: f(150000),
		PreviousOpenInterest: f(151200), TotalBuyQuantity: f(2.4e6), TotalSellQuantity: f(2.1e6),
		Week_52High: f(26277.35), Week_52Low: f(21281.45), LastTradeTime: f(1735632000000),
		Ohlc:  &mdcv1.Ohlc{Open: f(price - 60), High: f(price + 80), Low: f(price - 95), Close: f(price - 101.8)},
		Depth: depth,
	}}
}

// jsonBody is msg as a client sends it: the gateway's own JSON names.
func jsonBody(t testing.TB, msg proto.Message) []byte {
	t.Helper()
	b, err := protojson.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// collectorRequests makes an empty request of each type decodeFast knows.
var collectorRequests = map[string]func() proto.Message{
	"shortlist": func() proto.Message { return &mdcv1.SaveShortlistRequest{} },
	"nifty":     func() proto.Message { return &mdcv1.SaveNiftyRequest{} },
	"quotes":    func() proto.Message { return &mdcv1.SaveQuotesRequest{} },
}

// sentinel is a message decodeFast must overwrite completely on success and
// leave alone when it declines.
func sentinel(newMsg func() proto.Message) proto.Message {
	m := newMsg()
	data := m.ProtoReflect().Descriptor().Fields().ByName("data")
	sub := m.ProtoReflect().Mutable(data).Message()
	sub.Set(sub.Descriptor().Fields().ByName("timezone"), protoreflect.ValueOfString("sentinel"))
	return m
}

// checkFastDecode is the property of decodeFast: it either declines and
// leaves the message alone, or it produces exactly what strict protojson
// produces, and strict protojson succeeds. It reports whether the fast path
// took the body.
func checkFastDecode(t testing.TB, body []byte, newMsg func() proto.Message) bool {
	t.Helper()
	got := sentinel(newMsg)
	if !decodeFast(body, got) {
		if !proto.Equal(got, sentinel(newMsg)) {
			t.Fatalf("declined %q but changed the message to %v", body, got)
		}
		return false
	}
	want := sentinel(newMsg)
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(body, want); err != nil {
		t.Fatalf("fast path took %q, which protojson refuses: %v", body, err)
	}
	if !proto.Equal(got, want) {
		t.Fatalf("fast path decoded %q as\n%v\nprotojson as\n%v", body, got, want)
	}
	// proto.Equal treats -0 and 0 as equal; the stored bytes do not.
	gb, err1 := proto.MarshalOptions{Deterministic: true}.Marshal(got)
	wb, err2 := proto.MarshalOptions{Deterministic: true}.Marshal(want)
	if err1 != nil || err2 != nil || string(gb) != string(wb) {
		t.Fatalf("fast path and protojson encode %q differently (%v, %v)", body, err1, err2)
	}
	return true
}

// fastCase is a body and whether the fast path must take it.
type fastCase struct {
	name string
	kind string // key of collectorRequests
	body string
	fast bool
}

// sl wraps a shortlist entry; ent wraps a payload into an entry.
func sl(entry string) string {
	return `{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS","entries":[` + entry + `]}}`
}

func payload(p string) string {
	return sl(`{"nseSymbol":"A","price":1,"quoteData":{"status":"SUCCESS","payload":` + p + `}}`)
}

func price(v string) string { return sl(`{"nseSymbol":"A","price":` + v + `}`) }

func name(v string) string { return sl(`{"nseSymbol":"A","name":"` + v + `"}`) }
