package mdcclient_test

// Issue 37 against a real mdc-server: a SUCCESS quote without last_price is
// refused naming the field; quotes read through flat accessors; a candle's
// volume is absent (nil) when no quote of its bucket reported one; a list
// parameter's items may be separated by commas in a stream too.

import (
	"slices"
	"strconv"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestResearchShapesAgainstTheServer(t *testing.T) {
	s := startMdcServer(t)
	conn := s.dial(t, s.newDeveloper(t, "go-research-"))
	ctx := testContext(t)
	collector := mdcv1.NewCollectorServiceClient(conn)
	developer := mdcv1.NewDeveloperServiceClient(conn)
	const day = "2035-09-12"
	save := func(at string, quotes ...*mdcv1.QuoteItem) error {
		_, err := collector.SaveQuotes(ctx, &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{Timestamp: day + "T" + at, Quotes: quotes}})
		return err
	}
	item := func(symbol string, status mdcv1.QuoteStatus, payload *mdcv1.QuotePayload) *mdcv1.QuoteItem {
		return &mdcv1.QuoteItem{NseSymbol: symbol, QuoteData: &mdcv1.QuoteData{Status: status, Payload: payload}}
	}

	// The server's rule: a SUCCESS quote carries its last_price.
	err := save("10:00:00", item("GRA", mdcv1.QuoteStatus_SUCCESS, &mdcv1.QuotePayload{LastPrice: proto.Float64(1)}),
		item("GRB", mdcv1.QuoteStatus_SUCCESS, &mdcv1.QuotePayload{Volume: proto.Float64(5)}))
	e := mdcclient.ErrorOf(err)
	if e == nil || e.Code != codes.InvalidArgument {
		t.Fatalf("SaveQuotes without last_price: %v", err)
	}
	if desc, ok := e.Violation("data.quotes[1].quoteData.payload.last_price"); !ok || !contains(desc, "is required when status is SUCCESS") {
		t.Errorf("violations %+v", e.FieldViolations)
	}
	// A broker's JSON with a misspelled key never gets that far.
	var parsed mdcv1.QuoteData
	if err := mdcclient.Unmarshal([]byte(`{"status":"SUCCESS","payload":{"lastPrice":5}}`), &parsed, "data.quotes[1].quoteData"); err == nil {
		t.Error("Unmarshal took lastPrice")
	}

	// RSV reports a volume that does not move; RSN never reports one.
	for i, at := range []string{"09:15:10", "09:16:10"} {
		if err := save(at, item("RSV", mdcv1.QuoteStatus_SUCCESS, &mdcv1.QuotePayload{LastPrice: proto.Float64(float64(100 + i)), Volume: proto.Float64(50)}),
			item("RSN", mdcv1.QuoteStatus_SUCCESS, &mdcv1.QuotePayload{LastPrice: proto.Float64(float64(7 + i))})); err != nil {
			t.Fatal(err)
		}
	}
	q, err := developer.GetQuote(ctx, &mdcv1.GetQuoteRequest{Symbol: "RSV", Datetime: day + "T09:15:30"})
	if err != nil {
		t.Fatal(err)
	}
	price, hasPrice := q.LastPrice()
	volume, hasVolume := q.Volume()
	if q.Symbol() != "RSV" || price != 100 || !hasPrice || volume != 50 || !hasVolume {
		t.Errorf("accessors: %s %v %v %v %v", q.Symbol(), price, hasPrice, volume, hasVolume)
	}
	n, err := developer.GetQuote(ctx, &mdcv1.GetQuoteRequest{Symbol: "RSN", Datetime: day + "T09:15:30"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := n.Volume(); ok || n.GetQuoteData().GetPayload().GetVolume() != 0 {
		t.Errorf("a quote without volume: %v", n)
	}

	series, err := developer.GetCandlesOfSymbols(ctx, &mdcv1.GetCandlesOfSymbolsRequest{Symbols: []string{"RSV,RSN"}, Interval: "1minute",
		StartDatetime: day + "T09:15:00", EndDatetime: day + "T15:30:00"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range series.GetSeries() {
		for _, c := range s.GetCandles() {
			v, ok := c.VolumeReported()
			got = append(got, s.GetSymbol()+" "+map[bool]string{true: "reported", false: "absent"}[ok]+" "+fmtFloat(v))
			if ok != (c.Volume != nil) {
				t.Errorf("VolumeReported disagrees with Volume != nil")
			}
		}
	}
	if want := []string{"RSV reported 50", "RSV reported 0", "RSN absent 0", "RSN absent 0"}; !slices.Equal(got, want) {
		t.Errorf("candle volumes %v, want %v", got, want)
	}

	// Stream list parameters take commas as the reads do.
	stream, err := mdcclient.ReplayDay(ctx, conn, &mdcv1.ReplayDayRequest{Date: day, Symbols: []string{"RSN,RSV"}, Kinds: []string{"quotes"}})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var replayed []string
	for stream.Next() {
		replayed = append(replayed, stream.Event().GetQuote().Symbol())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"RSN", "RSV", "RSN", "RSV"}; !slices.Equal(replayed, want) {
		t.Errorf("replayed %v, want %v", replayed, want)
	}
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
