package mdcclient_test

// ErrorOf and the wall-clock helpers against a real mdc-server
// (stack_test.go): the refusals of docs/api.md come out with their reason,
// metadata and field violations, and times from any location reach the
// server as their instant, backtest clock included.

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestRefusalsAndTimesAgainstTheServer(t *testing.T) {
	s := startMdcServer(t)
	conn := s.dial(t, s.newDeveloper(t, "go-errors-"))
	ctx := testContext(t)
	collector := mdcv1.NewCollectorServiceClient(conn)
	developer := mdcv1.NewDeveloperServiceClient(conn)

	// Quotes of one symbol stamped from three locations, each sent as
	// WallClock gives it; the second 01:30 of New York's autumn change
	// included (its zone name would make the server pick the first).
	newYork := mustLocation(t, "America/New_York")
	stamps := []time.Time{
		time.Date(2025, 11, 2, 1, 30, 0, 0, time.UTC).Add(5 * time.Hour).In(newYork), // 01:30 EST
		time.Date(2025, 11, 2, 12, 1, 0, 0, mdcclient.IST),
		time.Date(2025, 11, 2, 7, 2, 0, 0, time.UTC),
	}
	for i, at := range stamps {
		timestamp, timezone := mdcclient.WallClock(at)
		_, err := collector.SaveQuotes(ctx, &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
			Timestamp: timestamp, Timezone: timezone,
			Quotes: []*mdcv1.QuoteItem{{NseSymbol: "WIPRO", QuoteData: &mdcv1.QuoteData{
				Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(float64(240 + i))}}}}}})
		if err != nil {
			t.Fatalf("SaveQuotes at %v (%s %s): %v", at, timestamp, timezone, err)
		}
		datetime, timezone := mdcclient.WallClock(at)
		quote, err := developer.GetQuote(ctx, &mdcv1.GetQuoteRequest{Symbol: "WIPRO", Datetime: datetime, Timezone: timezone})
		if err != nil || !quote.GetTimestamp().AsTime().Equal(at) {
			t.Errorf("GetQuote as of %v: %v, %v; want the quote stamped then", at, quote.GetTimestamp().AsTime(), err)
		}
	}

	// The backtest clock at the second stamp, set from a New York time:
	// reads see the first only, and asking for the third is FUTURE_READ.
	clocked := mdcclient.WithBacktestClock(ctx, stamps[1].In(newYork))
	quote, err := developer.GetQuote(clocked, &mdcv1.GetQuoteRequest{Symbol: "WIPRO"})
	if err != nil || !quote.GetTimestamp().AsTime().Equal(stamps[0]) {
		t.Errorf("GetQuote under the clock %v: %v, %v; want the quote of %v", stamps[1], quote.GetTimestamp().AsTime(), err, stamps[0])
	}
	datetime, timezone := mdcclient.WallClock(stamps[2])
	_, err = developer.GetQuote(clocked, &mdcv1.GetQuoteRequest{Symbol: "WIPRO", Datetime: datetime, Timezone: timezone})
	e := mdcclient.ErrorOf(err)
	if e.Code != codes.PermissionDenied || e.Reason != mdcclient.ReasonFutureRead || e.Domain != "mdc.v1" ||
		e.Metadata["field"] != "datetime" || e.Metadata["backtestClock"] != "2025-11-02T06:31:00Z" {
		t.Errorf("a read past the backtest clock: %v, metadata %v; want PermissionDenied FUTURE_READ naming datetime and the clock", e, e.Metadata)
	}

	// Every bad field of a write at once.
	_, err = collector.SaveShortlist(ctx, &mdcv1.SaveShortlistRequest{Data: &mdcv1.ShortlistData{
		Timestamp: "2025-02-30T10:00:00", ShortlistType: mdcv1.ShortlistType_TOP_GAINERS,
		Entries: []*mdcv1.ShortlistEntry{{NseSymbol: "TCS", Price: proto.Float64(-1)}}}})
	e = mdcclient.ErrorOf(err)
	_, timestampNamed := e.Violation("data.timestamp")
	_, priceNamed := e.Violation("data.entries[0].price")
	if e.Code != codes.InvalidArgument || !timestampNamed || !priceNamed || e.Reason != "" {
		t.Errorf("a shortlist with a bad timestamp and price: %v, violations %v; want InvalidArgument naming both, no reason", e, e.FieldViolations)
	}

	// Nothing stored: NotFound, without details.
	_, err = developer.GetList(ctx, &mdcv1.GetListRequest{Type: "TOP_GAINERS", Datetime: "2025-11-02T12:00:00"})
	if e = mdcclient.ErrorOf(err); e.Code != codes.NotFound || e.Reason != "" || e.FieldViolations != nil || e.HasRetryDelay {
		t.Errorf("GetList of nothing: %+v, want a plain NotFound", e)
	}
}
