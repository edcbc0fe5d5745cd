package codec

import (
	"runtime"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// list is a JSON list of n copies of item.
func list(n int, item string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

func niftyWithBuy(levels string) string {
	return `{"data":{"timestamp":"2025-03-10T10:00:00","quoteData":{"status":"SUCCESS","payload":{"last_price":1,` +
		`"depth":{"buy":` + levels + `}}},"dayChangePerc":1}}`
}

func TestCheckShape(t *testing.T) {
	level := `{"price":101.25,"quantity":40}`
	quote := func(sell string) string {
		return `{"nseSymbol":"A","quoteData":{"status":"SUCCESS","payload":{"last_price":1,"depth":{"sell":` + sell + `}}}}`
	}
	for _, tt := range []struct {
		name, body, field, rule string
	}{
		{"empty levels by the million", niftyWithBuy(list(1_390_000, `{}`)), "data.quoteData.payload.depth.buy", "at most one per 8 bytes"},
		{"201 levels", niftyWithBuy(list(201, level)), "data.quoteData.payload.depth.buy", "has 201 levels; at most 200"},
		{"a side of the fourth quote", `{"data":{"timestamp":"2025-03-10T10:00:00","quotes":[` + quote("[]") + "," + quote("[]") + "," +
			quote("[]") + "," + quote(list(250, level)) + `]}}`, "data.quotes[3].quoteData.payload.depth.sell", "has 250 levels; at most 200"},
		{"an escaped key", `{"data":{"quoteData":{"payload":{"depth":{"\u0062uy":` + list(300, level) + `}}}}}`,
			"data.quoteData.payload.depth.buy", "has 300 levels"},
		{"lists of lists in an unknown field", `{"pad":"` + strings.Repeat("x", 1000) + `","data":{"extra":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`,
			"data.extra", "nests deeper than 32 levels"},
		{"empty holidays", `{"holidays":` + list(200_000, `{}`) + `}`, "holidays", "at most one per 8 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := checkShape([]byte(tt.body))
			if v == nil {
				t.Fatal("accepted")
			}
			if !strings.HasPrefix(v.Field, tt.field) || !strings.Contains(v.Description, tt.rule) {
				t.Errorf("got %q: %q, want %q: ...%q...", v.Field, v.Description, tt.field, tt.rule)
			}
		})
	}
	for _, tt := range []struct{ name, body string }{
		{"200 levels", niftyWithBuy(list(200, level))},
		{"levels of one number", niftyWithBuy(list(200, `{"price":1}`))},
		// Found by the contract test: valid, if useless, and small.
		{"a full depth of empty levels", niftyWithBuy(list(200, `{}`) + `,"sell":` + list(200, `{}`))},
		{"1000 shortlist entries", `{"data":{"timestamp":"2025-03-10T10:00:00","shortlistType":"TOP_GAINERS","entries":` +
			list(1000, `{"nseSymbol":"A","name":"","price":0}`) + `}}`},
		{"every literal", `{"a":[true,false,null,-1.5e+10,"x\"y\\\/"],"b":{},"c":[]}`},
		{"empty", `{}`},
		// Not JSON: the decoder names the error.
		{"cut", `{"data":{"quoteData":{"payload":{"depth":{"buy":[{},{},`},
		{"garbage after an empty list", `{"a":[]]]]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if v := checkShape([]byte(tt.body)); v != nil {
				t.Errorf("refused: %v", v)
			}
		})
	}
}

// The hostile body: 4 MiB of empty depth levels. It is refused with
// a 400 naming the list, and decoding it allocates less than a sixteenth
// of the body (it decoded to ~200 MB before).
func TestHostileDepthAllocatesLittle(t *testing.T) {
	body := []byte(niftyWithBuy(list((4<<20)/3, `{}`)))
	m := NewMarshaler()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	st := m.decode(body, &mdcv1.SaveNiftyRequest{})
	runtime.ReadMemStats(&after)
	if st == nil {
		t.Fatal("accepted")
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > uint64(len(body))/16 {
		t.Errorf("decoding a %d-byte body allocated %d bytes", len(body), allocated)
	}
	var field string
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok && len(br.FieldViolations) > 0 {
			field = br.FieldViolations[0].Field
		}
	}
	if field != "data.quoteData.payload.depth.buy" {
		t.Errorf("field %q, status %v", field, st)
	}
}

// Legitimate bodies decode as before: the fast path still takes them.
func TestShapeRulesKeepFullQuotes(t *testing.T) {
	levels := list(200, `{"price":101.25,"quantity":40}`)
	body := niftyWithBuy(levels)
	var req mdcv1.SaveNiftyRequest
	if !decodeFast([]byte(body), &req) {
		t.Fatal("fast path declined 200 levels")
	}
	if n := len(req.GetData().GetQuoteData().GetPayload().GetDepth().GetBuy()); n != 200 {
		t.Errorf("%d levels", n)
	}
	if st := NewMarshaler().decode([]byte(body), proto.Clone(&req)); st != nil {
		t.Errorf("refused: %v", st)
	}
}
