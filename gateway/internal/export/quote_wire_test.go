package export

import (
	"math"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// The depth's JSON written from the wire is what protojson reads back as
// the same Depth, for depths of every shape: no side, one side, levels
// without price or quantity, numbers of every magnitude.
func TestDepthJSONReadsBackAsTheSameDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	numbers := []float64{0, math.Copysign(0, -1), 1, -1, 99.5, 1e-6, 9.99e-7, 1e-7, 1.5e-300,
		1e20, 1e21, 123456789012345678901234.0, -1e15, 1e15, 0.1 + 0.2, 2072919300000}
	number := func() *float64 {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			v := numbers[rng.IntN(len(numbers))]
			return &v
		default:
			v := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
			return &v
		}
	}
	levels := func() []*mdcv1.DepthLevel {
		var out []*mdcv1.DepthLevel
		for range rng.IntN(4) {
			out = append(out, &mdcv1.DepthLevel{Price: number(), Quantity: number()})
		}
		return out
	}
	for i := range 2000 {
		want := &mdcv1.Depth{Buy: levels(), Sell: levels()}
		text, err := appendDepthJSON(nil, wireOf(t, want))
		if err != nil {
			t.Fatal(err)
		}
		got := &mdcv1.Depth{}
		if err := protojson.Unmarshal(text, got); err != nil {
			t.Fatalf("depth %d: %s: %v", i, text, err)
		}
		if !proto.Equal(got, want) {
			t.Fatalf("depth %d: %s reads back as %v, want %v", i, text, got, want)
		}
	}
}

func TestDepthJSONIsCompactProtoJSON(t *testing.T) {
	for _, c := range []struct {
		depth *mdcv1.Depth
		want  string
	}{
		{&mdcv1.Depth{}, `{}`},
		{&mdcv1.Depth{Sell: []*mdcv1.DepthLevel{{Price: f64(100.5)}, {}}}, `{"sell":[{"price":100.5},{}]}`},
		{&mdcv1.Depth{Buy: []*mdcv1.DepthLevel{{Price: f64(99.5), Quantity: f64(10)}}, Sell: []*mdcv1.DepthLevel{{Quantity: f64(1e21)}}},
			`{"buy":[{"price":99.5,"quantity":10}],"sell":[{"quantity":1e+21}]}`},
		{&mdcv1.Depth{Buy: []*mdcv1.DepthLevel{{Price: f64(1e-7), Quantity: f64(1e20)}}},
			`{"buy":[{"price":1e-7,"quantity":100000000000000000000}]}`},
	} {
		got, err := appendDepthJSON(nil, wireOf(t, c.depth))
		if err != nil || string(got) != c.want {
			t.Errorf("%v: %s (%v), want %s", c.depth, got, err, c.want)
		}
	}
}

// Bytes that are not the message they should be end the export with an
// error, never a panic: every prefix of a record is read without error
// exactly when protobuf reads it as a message.
func TestMalformedWireIsAnError(t *testing.T) {
	good := wireOf(t, &mdcv1.ExportRecord{TradingDay: "2035-03-06", Record: &mdcv1.ExportRecord_Quote{Quote: &mdcv1.StockQuote{
		Timestamp: at, NseSymbol: "TCS", QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{
			LastPrice: f64(1), Depth: &mdcv1.Depth{Buy: []*mdcv1.DepthLevel{{Price: f64(2)}}}}}}}})
	for _, l := range []layout{quotesLayout, niftyLayout, shortlistsLayout, candlesLayout} {
		for cut := 1; cut < len(good); cut++ {
			var c cells
			err := l.rows()(good[:cut], &c)
			protoErr := proto.Unmarshal(good[:cut], &mdcv1.ExportRecord{})
			if (err == nil) != (protoErr == nil) {
				t.Errorf("%s: %d of %d bytes: %v, protobuf says %v", l.kind, cut, len(good), err, protoErr)
			}
		}
	}
	var c cells
	if err := quotesLayout.rows()(good, &c); err != nil || len(c.rows) != 1 {
		t.Fatalf("the whole record: %v %v", err, c.rows)
	}
	if err := eachRecord([]byte{0x0a, 0x05, 0x01}, func([]byte) error { return nil }); err == nil {
		t.Error("a cut chunk read without an error")
	}
}
