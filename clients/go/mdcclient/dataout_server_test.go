package mdcclient_test

// The data-out helpers (dataout.go) against a real mdc-server: the
// cross-section over pages, and an export read to its end.

import (
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestDataOutHelpersAgainstTheServer(t *testing.T) {
	s := startMdcServer(t)
	token := s.newDeveloper(t, "go-dataout-")
	conn := s.dial(t, token)
	ctx := testContext(t)
	collector := mdcv1.NewCollectorServiceClient(conn)
	const day = "2035-08-07"
	for i, at := range []string{"09:15:00", "09:16:00"} {
		var quotes []*mdcv1.QuoteItem
		for _, symbol := range []string{"GOA", "GOB", "GOC"} {
			quotes = append(quotes, &mdcv1.QuoteItem{NseSymbol: symbol, QuoteData: &mdcv1.QuoteData{
				Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(float64(100 + i))}}})
		}
		if _, err := collector.SaveQuotes(ctx, &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
			Timestamp: day + "T" + at, Quotes: quotes}}); err != nil {
			t.Fatalf("SaveQuotes: %v", err)
		}
	}

	xs, err := mdcclient.QuotesAt(ctx, conn, &mdcv1.GetQuotesRequest{Symbols: []string{"GOC", "NONE", "GOA"}, Datetime: day + "T09:15:30"})
	if err != nil {
		t.Fatal(err)
	}
	if len(xs.GetQuotes()) != 2 || xs.GetQuotes()[0].GetNseSymbol() != "GOC" || xs.GetQuotes()[1].GetQuoteData().GetPayload().GetLastPrice() != 100 ||
		!slices.Equal(xs.GetMissing(), []string{"NONE"}) {
		t.Errorf("QuotesAt with symbols: %v", xs)
	}
	every, err := mdcclient.QuotesAt(ctx, conn, &mdcv1.GetQuotesRequest{Datetime: day + "T10:00:00", PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	var symbols []string
	for _, q := range every.GetQuotes() {
		symbols = append(symbols, q.GetNseSymbol())
	}
	if !slices.Equal(symbols, []string{"GOA", "GOB", "GOC"}) || every.GetNextPageToken() != "" {
		t.Errorf("QuotesAt of every symbol in pages of 1: %v", symbols)
	}

	var rows []string
	for rec, err := range mdcclient.ExportQuotes(ctx, conn, &mdcv1.ExportQuotesRequest{StartDate: day, Symbols: []string{"GOB,GOA"}}) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, rec.GetTradingDay()+" "+rec.GetQuote().GetNseSymbol())
	}
	if want := []string{day + " GOA", day + " GOB", day + " GOA", day + " GOB"}; !slices.Equal(rows, want) {
		t.Errorf("ExportQuotes: %v, want %v", rows, want)
	}
	for _, err := range mdcclient.ExportCandles(ctx, conn, &mdcv1.ExportCandlesRequest{StartDate: day}) {
		if e := mdcclient.ErrorOf(err); e == nil || e.Code != codes.InvalidArgument {
			t.Errorf("ExportCandles without interval: %v", err)
		} else if _, ok := e.Violation("interval"); !ok {
			t.Errorf("ExportCandles without interval names %v", e.FieldViolations)
		}
	}
}
