package mdcclient_test

// The paged-read iterators (pages.go) against a real mdc-server
// (stack_test.go): each yields every item across pages of 1 or 2, in the
// server's order, and a refused request is one error.

import (
	"fmt"
	"iter"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// collect is every item of items, as key gives them; the test fails on an
// error.
func collect[T any](t *testing.T, items iter.Seq2[T, error], key func(T) string) []string {
	t.Helper()
	var keys []string
	for item, err := range items {
		if err != nil {
			t.Fatalf("after %d items: %v", len(keys), err)
		}
		keys = append(keys, key(item))
	}
	return keys
}

func TestIteratorsReadEveryPageFromTheServer(t *testing.T) {
	s := startMdcServer(t)
	token := s.newDeveloper(t, "go-pages-")
	conn := s.dial(t, token)
	ctx := testContext(t)
	dashboard := mdcv1.NewDashboardServiceClient(conn)
	collector := mdcv1.NewCollectorServiceClient(conn)
	const day = "2025-12-31"

	// Runs, newest first: five tagged, one not.
	var runIDs []string
	for i, tags := range [][]string{{"paged"}, {"paged"}, nil, {"paged"}, {"paged"}, {"paged"}} {
		run, err := dashboard.CreateRun(ctx, &mdcv1.CreateRunRequest{
			StartDatetime: day + "T09:15:00", EndDatetime: day + "T15:30:00", Name: fmt.Sprintf("run %d", i), Tags: tags})
		if err != nil {
			t.Fatalf("CreateRun: %v", err)
		}
		runIDs = append(runIDs, run.GetId())
	}
	runName := func(r *mdcv1.Run) string { return r.GetName() }
	if got, want := collect(t, mdcclient.AllRuns(ctx, conn, &mdcv1.ListRunsRequest{Tag: "paged", PageSize: 2}), runName),
		[]string{"run 5", "run 4", "run 3", "run 1", "run 0"}; !slices.Equal(got, want) {
		t.Errorf("AllRuns(tag paged, pages of 2) = %v, want %v", got, want)
	}
	if got := collect(t, mdcclient.AllRuns(ctx, conn, &mdcv1.ListRunsRequest{PageSize: 1}), runName); len(got) != 6 {
		t.Errorf("AllRuns(pages of 1) = %v, want the 6 runs", got)
	}

	// Orders of a run, by time.
	for _, minute := range []string{"20", "16", "18", "17", "19"} {
		_, err := dashboard.CreateOrder(ctx, &mdcv1.CreateOrderRequest{RunId: runIDs[0], NseSymbol: "TCS",
			EntryPrice: proto.Float64(100), StopLossPrice: proto.Float64(95), TakeProfitPrice: proto.Float64(110),
			Datetime: day + "T09:" + minute + ":00"})
		if err != nil {
			t.Fatalf("CreateOrder: %v", err)
		}
	}
	orderTime := func(o *mdcv1.Order) string { return o.GetTime().AsTime().In(mdcclient.IST).Format("15:04") }
	if got, want := collect(t, mdcclient.AllOrders(ctx, conn, &mdcv1.ListOrdersRequest{RunId: runIDs[0], PageSize: 2}), orderTime),
		[]string{"09:16", "09:17", "09:18", "09:19", "09:20"}; !slices.Equal(got, want) {
		t.Errorf("AllOrders(pages of 2) = %v, want %v", got, want)
	}

	// A symbol's quotes and NIFTY's, by time.
	for _, minute := range []string{"15", "16", "17", "18", "19"} {
		_, err := collector.SaveQuotes(ctx, &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
			Timestamp: day + "T09:" + minute + ":00", Timezone: "Asia/Kolkata",
			Quotes: []*mdcv1.QuoteItem{{NseSymbol: "TCS", QuoteData: &mdcv1.QuoteData{
				Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(3500)}}}}}})
		if err != nil {
			t.Fatalf("SaveQuotes: %v", err)
		}
		_, err = collector.SaveNifty(ctx, &mdcv1.SaveNiftyRequest{Data: &mdcv1.NiftyData{
			Timestamp: day + "T09:" + minute + ":00", DayChangePerc: proto.Float64(0.1),
			QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(22000)}}}})
		if err != nil {
			t.Fatalf("SaveNifty: %v", err)
		}
	}
	wantTimes := []string{"09:15", "09:16", "09:17", "09:18", "09:19"}
	quoteTime := func(q *mdcv1.StockQuote) string { return q.GetTimestamp().AsTime().In(mdcclient.IST).Format("15:04") }
	if got := collect(t, mdcclient.AllQuotes(ctx, conn, &mdcv1.GetQuoteTimelineRequest{Symbol: "TCS",
		StartDatetime: day + "T09:00:00", EndDatetime: day + "T10:00:00", PageSize: 2}), quoteTime); !slices.Equal(got, wantTimes) {
		t.Errorf("AllQuotes(pages of 2) = %v, want %v", got, wantTimes)
	}
	niftyTime := func(q *mdcv1.NiftyQuote) string { return q.GetTimestamp().AsTime().In(mdcclient.IST).Format("15:04") }
	if got := collect(t, mdcclient.AllNiftyQuotes(ctx, conn, &mdcv1.GetNiftyTimelineRequest{
		StartDatetime: day + "T09:00:00", EndDatetime: day + "T10:00:00", PageSize: 2}), niftyTime); !slices.Equal(got, wantTimes) {
		t.Errorf("AllNiftyQuotes(pages of 2) = %v, want %v", got, wantTimes)
	}

	// Developers, with the admin token.
	admin := s.dial(t, s.adminToken)
	s.newDeveloper(t, "go-pages-other-")
	first, err := mdcv1.NewAdminServiceClient(admin).ListDevelopers(ctx, &mdcv1.ListDevelopersRequest{PageSize: 1000})
	if err != nil {
		t.Fatalf("ListDevelopers: %v", err)
	}
	developerID := func(d *mdcv1.Developer) string { return d.GetId() }
	var want []string
	for _, d := range first.GetDevelopers() {
		want = append(want, d.GetId())
	}
	if got := collect(t, mdcclient.AllDevelopers(ctx, admin, &mdcv1.ListDevelopersRequest{PageSize: 1}), developerID); !slices.Equal(got, want) || len(got) < 3 {
		t.Errorf("AllDevelopers(pages of 1) = %v, want %v (at least the admin and two developers)", got, want)
	}

	// A refused request is one error, and the end.
	var errs []error
	for run, err := range mdcclient.AllRuns(ctx, conn, &mdcv1.ListRunsRequest{PageSize: -1}) {
		if run != nil {
			t.Errorf("a refused read yielded run %v", run)
		}
		errs = append(errs, err)
	}
	if len(errs) != 1 {
		t.Fatalf("a refused read yielded %d errors, want 1: %v", len(errs), errs)
	}
	e := mdcclient.ErrorOf(errs[0])
	if _, named := e.Violation("pageSize"); e.Code != codes.InvalidArgument || !named {
		t.Errorf("page size -1: %v with violations %v; want InvalidArgument naming pageSize", e, e.FieldViolations)
	}
}
