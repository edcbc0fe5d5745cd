package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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

var fastCases = []fastCase{
	// Taken: the bodies clients send, and JSON at its edges.
	{"empty object", "shortlist", `{}`, true},
	{"empty data", "shortlist", `{"data":{}}`, true},
	{"empty entries", "shortlist", `{"data":{"entries":[]}}`, true},
	{"no entries (the required check's job)", "shortlist", `{"data":{"timestamp":"2025-01-01T10:00:00"}}`, true},
	{"whitespace everywhere", "shortlist", " \r\n\t{ \"data\" :\n{\t\"entries\"\r: [ { \"nseSymbol\" : \"A\" , \"price\" : 1 } , {} ] , \"scope\" : \"FULL\" } } \n", true},
	{"proto names", "shortlist", `{"data":{"shortlist_type":"VOLUME_SHOCKERS","entries":[{"nse_symbol":"A","quote_data":{"status":"FAILURE"}}]}}`, true},
	{"every enum name", "shortlist", `{"data":{"shortlistType":"SHORTLIST_TYPE_UNSPECIFIED","scope":"SCOPE_UNSPECIFIED","entries":[{"quoteData":{"status":"QUOTE_STATUS_UNSPECIFIED"}}]}}`, true},
	{"escaped enum name", "shortlist", `{"data":{"shortlistType":"TOP\u005fGAINERS","entries":[]}}`, true},
	{"empty message values", "shortlist", payload(`{"ohlc":{},"depth":{"buy":[],"sell":[{}]}}`), true},
	{"simple escapes", "shortlist", name(`q\"b\\s\/b\bf\fn\nr\rt\t`), true},
	{"unicode escapes", "shortlist", name(`\u00e9\u20AC\u0041\ud83d\ude00\uD83D\uDE00\u0000\u001f`), true},
	{"raw UTF-8", "shortlist", name("é€😀\u007f\u2028"), true},
	{"escapes next to raw UTF-8", "shortlist", name(`é\n€\u00e9😀`), true},
	{"empty strings", "shortlist", sl(`{"nseSymbol":"","name":""}`), true},
	{"zero", "shortlist", price(`0`), true},
	{"negative zero", "shortlist", price(`-0`), true},
	{"negative zero fraction", "shortlist", price(`-0.0e-0`), true},
	{"exponents", "shortlist", payload(`{"last_price":1e3,"day_change":1E+3,"volume":1e-3,"bid_price":-1.5e-7,"open_interest":0e5,"offer_price":0.1E1}`), true},
	{"huge integer", "shortlist", price(`123456789012345678901234567890123456789`), true},
	{"largest double", "shortlist", price(`1.7976931348623157e308`), true},
	{"smallest double", "shortlist", price(`4.9e-324`), true},
	{"underflow to zero", "shortlist", price(`1e-400`), true},
	{"long fraction", "shortlist", price(`0.30000000000000000000000000000000000000001`), true},
	{"nifty", "nifty", `{"data":{"timestamp":"t","timezone":"UTC","dayChangePerc":-0.5,"quoteData":{"status":"SUCCESS","payload":{"last_price":1}}}}`, true},
	{"nifty proto names", "nifty", `{"data":{"day_change_perc":1,"quote_data":{}}}`, true},
	{"quotes", "quotes", `{"data":{"timestamp":"t","quotes":[{"nseSymbol":"A","quoteData":{"payload":{"ohlc":{"open":1,"high":2,"low":0.5,"close":1.5}}}},{"nse_symbol":"B","quote_data":{}}]}}`, true},
	{"quotes empty", "quotes", `{"data":{"quotes":[]}}`, true},

	// Taken: null for a field of each kind leaves it unset, as in protojson
	// (TestFastDecodeNullEveryField nulls every field of a full body).
	{"null data", "shortlist", `{"data":null}`, true},
	{"null data nifty", "nifty", `{"data":null}`, true},
	{"null data quotes", "quotes", `{"data":null}`, true},
	{"null strings", "shortlist", `{"data":{"timestamp":null,"timezone":null,"entries":[{"nseSymbol":null,"name":null}]}}`, true},
	{"null enums", "shortlist", `{"data":{"shortlistType":null,"scope":null,"entries":[{"quoteData":{"status":null}}]}}`, true},
	{"null enum, proto name", "shortlist", `{"data":{"shortlist_type":null,"entries":[]}}`, true},
	{"null price", "shortlist", price(`null`), true},
	{"null string, proto name", "shortlist", sl(`{"nse_symbol":null,"price":2}`), true},
	{"null payload field", "shortlist", payload(`{"last_price":null}`), true},
	{"null payload fields among values", "shortlist", payload(`{"last_price":1,"day_change":null,"volume":3,"ohlc":null,"depth":{"buy":null,"sell":[{"price":null,"quantity":4}]},"week_52_high":null}`), true},
	{"null ohlc values", "shortlist", payload(`{"ohlc":{"open":null,"high":null,"low":null,"close":null}}`), true},
	{"null payload", "shortlist", sl(`{"quoteData":{"status":"SUCCESS","payload":null}}`), true},
	{"null depth", "shortlist", payload(`{"depth":null}`), true},
	{"null quoteData", "shortlist", sl(`{"nseSymbol":"A","quoteData":null}`), true},
	{"null quote_data", "shortlist", sl(`{"nseSymbol":"A","quote_data":null}`), true},
	{"null entries", "shortlist", `{"data":{"entries":null}}`, true},
	{"null quotes list", "quotes", `{"data":{"timestamp":"t","quotes":null}}`, true},
	{"null quote fields", "quotes", `{"data":{"quotes":[{"nseSymbol":null,"quoteData":null},{"nse_symbol":"B","quote_data":{"status":null,"payload":null}}]}}`, true},
	{"null dayChangePerc", "nifty", `{"data":{"dayChangePerc":null}}`, true},
	{"null day_change_perc", "nifty", `{"data":{"day_change_perc":null,"quote_data":null,"timestamp":null}}`, true},
	{"null nifty quoteData", "nifty", `{"data":{"quoteData":null,"dayChangePerc":1}}`, true},
	{"null with whitespace", "shortlist", "{ \"data\" : { \"timezone\" :\tnull\n, \"entries\" : null\r} }", true},
	{"null at the end", "shortlist", `{"data":{"entries":[],"scope":null}}`, true},

	// Declined: protojson accepts these, but the fast path does not read
	// them its way.
	{"double as string", "shortlist", price(`"1.5"`), false},
	{"NaN string", "shortlist", price(`"NaN"`), false},
	{"Infinity string", "shortlist", price(`"Infinity"`), false},
	{"-Infinity string", "shortlist", price(`"-Infinity"`), false},
	{"enum number", "shortlist", `{"data":{"shortlistType":1,"entries":[]}}`, false},
	{"escaped key", "shortlist", `{"\u0064ata":{"entries":[]}}`, false},

	// Declined: protojson refuses these.
	{"unknown top field", "shortlist", `{"data":{"entries":[]},"meta":1}`, false},
	{"unknown data field", "shortlist", `{"data":{"entries":[],"sector":"IT"}}`, false},
	{"unknown entry field", "shortlist", sl(`{"nseSymbol":"A","sector":"IT"}`), false},
	{"unknown quoteData field", "shortlist", sl(`{"quoteData":{"extra":1}}`), false},
	{"unknown payload field", "shortlist", payload(`{"brand_new_metric":7}`), false},
	{"json name of a payload field", "shortlist", payload(`{"lastPrice":7}`), false},
	{"unknown ohlc field", "shortlist", payload(`{"ohlc":{"mid":1}}`), false},
	{"unknown depth field", "shortlist", payload(`{"depth":{"mid":[]}}`), false},
	{"unknown depth level field", "shortlist", payload(`{"depth":{"buy":[{"orders":1}]}}`), false},
	{"unknown nifty field", "nifty", `{"data":{"x":1}}`, false},
	{"unknown quotes field", "quotes", `{"data":{"quotes":[{"x":1}]}}`, false},
	{"wrong case", "shortlist", `{"Data":{}}`, false},
	{"duplicate data", "shortlist", `{"data":{},"data":{}}`, false},
	{"duplicate under both names", "shortlist", sl(`{"nseSymbol":"A","nse_symbol":"B"}`), false},
	{"duplicate price", "shortlist", sl(`{"price":1,"price":1}`), false},
	{"duplicate entries", "shortlist", `{"data":{"entries":[],"entries":[]}}`, false},
	{"duplicate payload field", "shortlist", payload(`{"volume":1,"volume":2}`), false},
	{"duplicate depth side", "shortlist", payload(`{"depth":{"buy":[],"buy":[]}}`), false},
	{"unknown enum name", "shortlist", `{"data":{"shortlistType":"TOP_LOSERS","entries":[]}}`, false},
	{"lower-case enum name", "shortlist", `{"data":{"scope":"full","entries":[]}}`, false},
	{"number for string", "shortlist", sl(`{"nseSymbol":5}`), false},
	{"bool for double", "shortlist", price(`true`), false},
	{"object for double", "shortlist", price(`{}`), false},
	{"object for list", "shortlist", `{"data":{"entries":{}}}`, false},
	{"list for object", "shortlist", `{"data":[]}`, false},
	{"null in list", "shortlist", sl(`null`), false},
	{"null after an entry", "shortlist", sl(`{},null`), false},
	{"null quote", "quotes", `{"data":{"quotes":[null]}}`, false},
	{"null depth level", "shortlist", payload(`{"depth":{"buy":[{"price":1},null]}}`), false},
	{"null depth sell level", "shortlist", payload(`{"depth":{"sell":[null]}}`), false},
	{"null then value", "shortlist", sl(`{"price":null,"price":1}`), false},
	{"value then null", "shortlist", sl(`{"price":1,"price":null}`), false},
	{"null twice", "shortlist", sl(`{"price":null,"price":null}`), false},
	{"null data then data", "shortlist", `{"data":null,"data":{"entries":[]}}`, false},
	{"data then null data", "nifty", `{"data":{},"data":null}`, false},
	{"null entries then entries", "shortlist", `{"data":{"entries":null,"entries":[]}}`, false},
	{"entries then null entries", "shortlist", `{"data":{"entries":[],"entries":null}}`, false},
	{"null enum then enum", "shortlist", `{"data":{"scope":null,"scope":"FULL","entries":[]}}`, false},
	{"null proto name then json name", "shortlist", sl(`{"nse_symbol":null,"nseSymbol":"A"}`), false},
	{"json name then null proto name", "shortlist", sl(`{"quoteData":{},"quote_data":null}`), false},
	{"null json name then null proto name", "nifty", `{"data":{"dayChangePerc":null,"day_change_perc":null}}`, false},
	{"null payload field twice", "shortlist", payload(`{"ohlc":null,"ohlc":{}}`), false},
	{"null unknown field", "shortlist", `{"data":{"entries":[],"sector":null}}`, false},
	{"null json name of a payload field", "shortlist", payload(`{"lastPrice":null}`), false},
	{"null unknown top field", "quotes", `{"data":null,"meta":null}`, false},
	{"nul", "shortlist", price(`nul`), false},
	{"nulll", "shortlist", price(`nulll`), false},
	{"null then letter", "shortlist", price(`nullx`), false},
	{"null then digit", "shortlist", price(`null1`), false},
	{"null then quote", "shortlist", price(`null"`), false},
	{"null then minus", "shortlist", price(`null-`), false},
	{"Null", "shortlist", price(`Null`), false},
	{"NULL", "shortlist", price(`NULL`), false},
	{"truncated null", "shortlist", `{"data":nul`, false},
	{"null at end of body", "shortlist", `{"data":null`, false},
	{"quoted null", "shortlist", price(`"null"`), false},
	{"null key", "shortlist", `{null:{}}`, false},
	{"leading zero", "shortlist", price(`01`), false},
	{"negative leading zero", "shortlist", price(`-01`), false},
	{"plus sign", "shortlist", price(`+1`), false},
	{"bare fraction", "shortlist", price(`.5`), false},
	{"trailing dot", "shortlist", price(`1.`), false},
	{"dot exponent", "shortlist", price(`1.e5`), false},
	{"empty exponent", "shortlist", price(`1e`), false},
	{"signed empty exponent", "shortlist", price(`1e+`), false},
	{"lone minus", "shortlist", price(`-`), false},
	{"double minus", "shortlist", price(`--1`), false},
	{"hex", "shortlist", price(`0x10`), false},
	{"underscore", "shortlist", price(`1_000`), false},
	{"bare Infinity", "shortlist", price(`Infinity`), false},
	{"bare NaN", "shortlist", price(`NaN`), false},
	{"overflow", "shortlist", price(`1e400`), false},
	{"negative overflow", "shortlist", price(`-1e400`), false},
	{"number then letters", "shortlist", price(`1.5x`), false},
	{"number then quote", "shortlist", price(`1"`), false},
	{"invalid UTF-8", "shortlist", name("\xff"), false},
	{"UTF-8 surrogate", "shortlist", name("\xed\xa0\x80"), false},
	{"truncated UTF-8", "shortlist", name("\xe2\x82"), false},
	{"overlong UTF-8", "shortlist", name("\xc0\xaf"), false},
	{"invalid UTF-8 after an escape", "shortlist", name(`\n` + "\xff"), false},
	{"lone high surrogate", "shortlist", name(`\ud800`), false},
	{"lone low surrogate", "shortlist", name(`\udc00`), false},
	{"reversed surrogates", "shortlist", name(`\udc00\ud800`), false},
	{"high surrogate then BMP escape", "shortlist", name(`\ud800\u0041`), false},
	{"high surrogate then text", "shortlist", name(`\ud800xxxxxx`), false},
	{"unknown escape", "shortlist", name(`\x41`), false},
	{"upper-case U escape", "shortlist", name(`\U0041`), false},
	{"short unicode escape", "shortlist", name(`\u12`), false},
	{"non-hex unicode escape", "shortlist", name(`\u12G4`), false},
	{"raw tab", "shortlist", name("a\tb"), false},
	{"raw newline", "shortlist", name("a\nb"), false},
	{"raw NUL", "shortlist", name("a\x00b"), false},
	{"trailing comma in object", "shortlist", `{"data":{"entries":[],}}`, false},
	{"trailing comma in array", "shortlist", sl(`{},`), false},
	{"leading comma in array", "shortlist", sl(`,{}`), false},
	{"leading comma in object", "shortlist", `{,"data":{}}`, false},
	{"missing comma", "shortlist", `{"data":{"timestamp":"t" "entries":[]}}`, false},
	{"missing colon", "shortlist", `{"data" {}}`, false},
	{"single quotes", "shortlist", `{'data':{}}`, false},
	{"trailing garbage", "shortlist", `{"data":{"entries":[]}} x`, false},
	{"two objects", "shortlist", `{}{}`, false},
	{"trailing NUL", "shortlist", "{}\x00", false},
	{"NUL in place of a value", "shortlist", price("\x00"), false},
	{"extra close", "shortlist", `{}}`, false},
	{"truncated", "shortlist", `{"data":{"entries":[`, false},
	{"unclosed string", "shortlist", `{"data":{"timestamp":"2025`, false},
	{"byte order mark", "shortlist", "\ufeff{}", false},
	{"top-level array", "shortlist", `[]`, false},
	{"top-level null", "shortlist", `null`, false},
	{"top-level string", "shortlist", `"data"`, false},
	{"top-level number", "shortlist", `1`, false},
	{"empty", "shortlist", ``, false},
	{"comment", "shortlist", `{/**/}`, false},
}

func TestFastDecodeMatchesProtojson(t *testing.T) {
	for _, tc := range fastCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkFastDecode(t, []byte(tc.body), collectorRequests[tc.kind]); got != tc.fast {
				t.Errorf("fast path took %q: %v, want %v", tc.body, got, tc.fast)
			}
		})
	}
}

// TestFastDecodeTruncated checks every prefix of a body that uses each
// kind of token: none may be taken (no prefix of it is a whole object).
func TestFastDecodeTruncated(t *testing.T) {
	body := jsonBody(t, benchShortlist(2, true))
	body = append(body[:len(body)-1], []byte(`,"timezone":"\u00e9\ud83d\ude00"}`)...)
	// The timezone is now given twice: use the full body to check the
	// duplicate is declined, and prefixes for truncation.
	for n := range body {
		if checkFastDecode(t, body[:n], collectorRequests["shortlist"]) {
			t.Fatalf("took the truncated body %q", body[:n])
		}
	}
}

// TestFastDecodeTakesBenchmarkBodies makes sure the fast path is used for
// the bodies that matter, rather than declining everything safely.
func TestFastDecodeTakesBenchmarkBodies(t *testing.T) {
	bodies := map[string]struct {
		kind string
		msg  proto.Message
	}{
		"shortlist of 20":            {"shortlist", benchShortlist(20, false)},
		"shortlist of 20 with quote": {"shortlist", benchShortlist(20, true)},
		"nifty, full payload":        {"nifty", benchNifty()},
		"300 quotes":                 {"quotes", benchQuotes(300)},
	}
	for name, b := range bodies {
		t.Run(name, func(t *testing.T) {
			for _, protoNames := range []bool{false, true} {
				body, err := protojson.MarshalOptions{UseProtoNames: protoNames, Multiline: protoNames}.Marshal(b.msg)
				if err != nil {
					t.Fatal(err)
				}
				if !checkFastDecode(t, body, collectorRequests[b.kind]) {
					t.Fatalf("fast path declined %.200s...", body)
				}
			}
		})
	}
	for name, b := range nullBodies(t) {
		t.Run(name, func(t *testing.T) {
			if !checkFastDecode(t, b.body, collectorRequests[b.kind]) {
				t.Fatalf("fast path declined %.200s...", b.body)
			}
		})
	}
}

// quoteNulls are the payload fields a collector sends as null for an index
// or a stock without derivatives, and one nested message.
var quoteNulls = []string{
	"bid_quantity", "bid_price", "offer_price", "offer_quantity", "implied_volatility",
	"oi_day_change", "oi_day_change_percentage", "open_interest", "previous_open_interest",
	"market_cap", "last_trade_quantity", "depth",
}

// nullBodies are benchmark bodies with payload fields sent as null.
func nullBodies(t testing.TB) map[string]struct {
	kind string
	body []byte
} {
	type body = struct {
		kind string
		body []byte
	}
	return map[string]body{
		"nifty, payload with nulls":        {"nifty", withNulls(t, jsonBody(t, benchNifty()), quoteNulls...)},
		"shortlist quoted, with nulls":     {"shortlist", withNulls(t, jsonBody(t, benchShortlist(5, true)), append([]string{"name"}, quoteNulls...)...)},
		"300 quotes, null volume, ohlc":    {"quotes", withNulls(t, jsonBody(t, benchQuotes(300)), "volume", "ohlc")},
		"300 quotes, null day_change_perc": {"quotes", withNulls(t, jsonBody(t, benchQuotes(300)), "day_change_perc", "timezone")},
	}
}

// withNulls sets every member named one of keys, at any depth of body, to
// null.
func withNulls(t testing.TB, body []byte, keys ...string) []byte {
	t.Helper()
	v := decodeJSON(t, body)
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if slices.Contains(keys, k) {
					v[k] = nil
					n++
				} else {
					walk(e)
				}
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	if n == 0 {
		t.Fatalf("withNulls: none of %v in %.200s", keys, body)
	}
	return encodeJSON(t, v)
}

// decodeJSON and encodeJSON read and write a body as plain JSON values,
// numbers kept as written.
func decodeJSON(t testing.TB, body []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func encodeJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonPaths lists the path (object keys and array indexes) of every value
// inside v, at any depth.
func jsonPaths(v any, prefix []any, out *[][]any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := append(slices.Clip(prefix), k)
			*out = append(*out, p)
			jsonPaths(e, p, out)
		}
	case []any:
		for i, e := range v {
			p := append(slices.Clip(prefix), i)
			*out = append(*out, p)
			jsonPaths(e, p, out)
		}
	}
}

// setNull sets the value at path in v (a path of jsonPaths) to null.
func setNull(v any, path []any) {
	for i, step := range path {
		last := i == len(path)-1
		switch step := step.(type) {
		case string:
			m := v.(map[string]any)
			if last {
				m[step] = nil
			}
			v = m[step]
		case int:
			l := v.([]any)
			if last {
				l[step] = nil
			}
			v = l[step]
		}
	}
}

// TestFastDecodeNullEveryField takes the body of TestFastDecodeKnowsEveryField
// (every field of every message set, lists of two) and, one at a time, sets
// each value in it to null. A field's value (a member) must be taken, and
// decoded as protojson decodes it (the field unset); a list element must be
// declined, and protojson must refuse it.
func TestFastDecodeNullEveryField(t *testing.T) {
	for kind, newMsg := range collectorRequests {
		msg := newMsg()
		fillAll(msg.ProtoReflect())
		for _, protoNames := range []bool{false, true} {
			body, err := protojson.MarshalOptions{UseProtoNames: protoNames}.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			var paths [][]any
			jsonPaths(decodeJSON(t, body), nil, &paths)
			members := 0
			for _, path := range paths {
				v := decodeJSON(t, body)
				setNull(v, path)
				nulled := encodeJSON(t, v)
				_, member := path[len(path)-1].(string)
				if member {
					members++
				}
				got := checkFastDecode(t, nulled, newMsg)
				if got != member {
					t.Errorf("%s: null at %v: fast path took it: %v, want %v", kind, path, got, member)
				}
				if !member {
					if err := protojson.Unmarshal(nulled, newMsg()); err == nil {
						t.Errorf("%s: protojson accepts a null list element at %v", kind, path)
					}
				}
			}
			if members < 10 {
				t.Fatalf("%s: only %d members nulled", kind, members)
			}
		}
	}
}

// TestFastDecodeNullScope checks what field() assumes of protojson's null
// rule for every message the fast path reads: no field is a
// google.protobuf.Value or NullValue (protojson stores null in those), a
// map, a well-known type (its own JSON rules) or part of a real oneof
// (where protojson's null skips the oneof check; proto3 optional fields
// are synthetic oneofs of one field, which the duplicate check covers).
func TestFastDecodeNullScope(t *testing.T) {
	seen := map[protoreflect.FullName]bool{}
	var walk func(md protoreflect.MessageDescriptor)
	walk = func(md protoreflect.MessageDescriptor) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		if md.ParentFile().Package() != "mdc.v1" {
			t.Errorf("%s: message outside mdc.v1", md.FullName())
		}
		fields := md.Fields()
		for i := 0; i < fields.Len(); i++ {
			fd := fields.Get(i)
			if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
				t.Errorf("%s: in oneof %s", fd.FullName(), od.FullName())
			}
			if fd.IsMap() {
				t.Errorf("%s: a map", fd.FullName())
			}
			if ed := fd.Enum(); ed != nil && ed.FullName() == "google.protobuf.NullValue" {
				t.Errorf("%s: a NullValue", fd.FullName())
			}
			if fd.IsList() && fd.Message() == nil {
				t.Errorf("%s: a list of scalars", fd.FullName())
			}
			if sub := fd.Message(); sub != nil {
				walk(sub)
			}
		}
	}
	for _, newMsg := range collectorRequests {
		walk(newMsg().ProtoReflect().Descriptor())
	}
	if len(seen) < 10 {
		t.Fatalf("walked only %d messages", len(seen))
	}
}

// TestFastDecodeKnowsEveryField fills every field of each request type (the
// descriptors say which) and checks the fast path takes the body under
// both spellings of the names: a field added to the proto fails here until
// decodeFast reads it.
func TestFastDecodeKnowsEveryField(t *testing.T) {
	for kind, newMsg := range collectorRequests {
		msg := newMsg()
		fillAll(msg.ProtoReflect())
		for _, protoNames := range []bool{false, true} {
			body, err := protojson.MarshalOptions{UseProtoNames: protoNames}.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			if !checkFastDecode(t, body, newMsg) {
				t.Errorf("%s: fast path declined %s", kind, body)
			}
		}
	}
}

// fillAll sets every field of m to a value that is not the default, lists to
// two elements.
func fillAll(m protoreflect.Message) {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		n := float64(fd.Number())
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := m.Mutable(fd).List()
			for j := 0; j < 2; j++ {
				e := l.NewElement()
				fillAll(e.Message())
				l.Append(e)
			}
		case fd.Message() != nil:
			fillAll(m.Mutable(fd).Message())
		case fd.Kind() == protoreflect.DoubleKind:
			m.Set(fd, protoreflect.ValueOfFloat64(n+0.25))
		case fd.Kind() == protoreflect.StringKind:
			m.Set(fd, protoreflect.ValueOfString(string(fd.Name())+" é"))
		case fd.Kind() == protoreflect.EnumKind:
			values := fd.Enum().Values()
			m.Set(fd, protoreflect.ValueOfEnum(values.Get(values.Len()-1).Number()))
		default:
			panic(fmt.Sprintf("fillAll: no value for %s", fd.FullName()))
		}
	}
}

// TestFastDecodeThenRequiredCheck checks decode still refuses an absent
// required list when the fast path took the body.
func TestFastDecodeThenRequiredCheck(t *testing.T) {
	for _, body := range []string{
		`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS"}}`,
		`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS","entries":null}}`,
	} {
		if !decodeFast([]byte(body), &mdcv1.SaveShortlistRequest{}) {
			t.Fatalf("fast path declined %s; this test needs it taken", body)
		}
		st := newMarshaler().decode([]byte(body), &mdcv1.SaveShortlistRequest{})
		if st == nil || !strings.Contains(st.Message(), "data.entries: is required") {
			t.Fatalf("decode(%s) = %v, want data.entries is required", body, st)
		}
	}
	body := []byte(`{"data":{"timestamp":"2025-01-01T10:00:00","entries":[]}}`)
	if st := newMarshaler().decode(body, &mdcv1.SaveShortlistRequest{}); st != nil {
		t.Fatalf("decode = %v, want nil", st)
	}
}

// TestFastDecodeOtherTypes: any other message is left to protojson.
func TestFastDecodeOtherTypes(t *testing.T) {
	if decodeFast([]byte(`{"date":"2025-01-01"}`), &mdcv1.CheckHolidayRequest{}) {
		t.Fatal("fast path took a CheckHolidayRequest")
	}
}
