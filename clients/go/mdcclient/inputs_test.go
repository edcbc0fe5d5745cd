package mdcclient_test

// Unmarshal (inputs.go): a broker's JSON into the request's messages, unknown
// keys refused with the server's field paths and the key meant.

import (
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestUnmarshalRefusesUnknownKeys(t *testing.T) {
	for _, c := range []struct {
		json, field, says string
	}{
		{`{"status":"SUCCESS","payload":{"lastPrice":5}}`, "data.quotes[0].quoteData.payload.lastPrice",
			"unknown key 'lastPrice' of QuotePayload; did you mean 'last_price'?"},
		{`{"status":"SUCCESS","payload":{"last_price":5,"volumee":1}}`, "data.quotes[0].quoteData.payload.volumee",
			"did you mean 'volume'?"},
		{`{"status":"SUCCESS","payload":{"last_price":5,"depth":{"buy":[{"price":1},{"qty":2}]}}}`,
			"data.quotes[0].quoteData.payload.depth.buy[1].qty", "did you mean 'quantity'?"},
		{`{"staus":"SUCCESS"}`, "data.quotes[0].quoteData.staus", "did you mean 'status'?"},
		{`{"status":"SUCCESS","payload":{"zzz":1}}`, "data.quotes[0].quoteData.payload.zzz",
			"unknown key 'zzz' of QuotePayload; the keys are last_price, "},
		{`{"status":"SUCCESS","payload":{"last_price":"12a"}}`, "data.quotes[0].quoteData", "last_price"},
		{`{"status":`, "data.quotes[0].quoteData", "not JSON"},
	} {
		var q mdcv1.QuoteData
		err := mdcclient.Unmarshal([]byte(c.json), &q, "data.quotes[0].quoteData")
		e := mdcclient.ErrorOf(err)
		if e == nil || e.Code != codes.InvalidArgument || len(e.FieldViolations) != 1 {
			t.Errorf("%s: %v, want one InvalidArgument violation", c.json, err)
			continue
		}
		if desc, ok := e.Violation(c.field); !ok || !contains(desc, c.says) {
			t.Errorf("%s: %+v, want %s: ...%s...", c.json, e.FieldViolations, c.field, c.says)
		}
	}
	var q mdcv1.QuoteData
	if err := mdcclient.Unmarshal([]byte(`{"status":"SUCCESS","payload":{"last_price":5,"volume":null,"ohlc":{"open":4}}}`), &q, "x"); err != nil {
		t.Fatal(err)
	}
	if p, ok := (&mdcv1.StockQuote{QuoteData: &q}).LastPrice(); !ok || p != 5 {
		t.Errorf("LastPrice %v %v", p, ok)
	}
	if _, ok := (&mdcv1.StockQuote{QuoteData: &q}).Volume(); ok {
		t.Error("a null volume reads as reported")
	}
}

func contains(s, part string) bool {
	return len(part) == 0 || (len(s) >= len(part) && (s == part || indexOf(s, part) >= 0))
}

func indexOf(s, part string) int {
	for i := 0; i+len(part) <= len(s); i++ {
		if s[i:i+len(part)] == part {
			return i
		}
	}
	return -1
}
