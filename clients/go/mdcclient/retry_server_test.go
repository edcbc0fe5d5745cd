package mdcclient_test

// Dial's retries (retry.go) against a real mdc-server (stack_test.go): a
// call whose answer was lost on the way back is sent again only when its
// descriptor says that is harmless, and reads get through a server restart.

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// attemptCounter counts the attempts of the calls it sees: Dial chains it
// inside the retry interceptor, so it sees each attempt.
type attemptCounter struct{ n atomic.Int64 }

func (c *attemptCounter) option() grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any,
		cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		c.n.Add(1)
		return invoker(ctx, method, req, reply, cc, opts...)
	})
}

// during returns how many attempts call took and its error.
func (c *attemptCounter) during(call func() error) (int64, error) {
	before := c.n.Load()
	err := call()
	return c.n.Load() - before, err
}

func TestOnlyIdempotentCallsAreSentAgainAfterTheirAnswerWasLost(t *testing.T) {
	s := startMdcServer(t)
	token := s.newDeveloper(t, "go-retry-")
	proxy := startAnswerCuttingProxy(t, s.addr)
	var attempts attemptCounter
	conn := dialAddr(t, proxy.addr(), token, attempts.option()) // DefaultRetryPolicy
	dashboard := mdcv1.NewDashboardServiceClient(conn)
	direct := mdcv1.NewDashboardServiceClient(s.dial(t, token))
	ctx := testContext(t)
	lossy := func(answersLost int, call func() error) (int64, error) {
		proxy.cutNext(answersLost)
		defer proxy.cutNext(0)
		return attempts.during(call)
	}
	storedRuns := func() []*mdcv1.Run {
		t.Helper()
		page, err := direct.ListRuns(ctx, &mdcv1.ListRunsRequest{})
		if err != nil {
			t.Fatalf("ListRuns: %v", err)
		}
		return page.GetRuns()
	}

	// A create (IDEMPOTENCY_UNKNOWN) whose answer was lost is not sent
	// again: it took effect, and a second attempt would create a second run.
	var run *mdcv1.Run
	n, err := lossy(1, func() (err error) {
		run, err = dashboard.CreateRun(ctx, &mdcv1.CreateRunRequest{
			StartDatetime: "2025-12-31T09:15:00", EndDatetime: "2025-12-31T15:30:00", Name: "answer lost"})
		return err
	})
	if status.Code(err) != codes.Unavailable || n != 1 {
		t.Fatalf("CreateRun with its answer lost: %d attempts, %v (%v); want 1 attempt and UNAVAILABLE", n, err, run)
	}
	runs := storedRuns()
	if len(runs) != 1 || runs[0].GetName() != "answer lost" {
		t.Fatalf("after the create whose answer was lost the runs are %v, want that one run", runs)
	}
	runID := runs[0].GetId()

	// A read (NO_SIDE_EFFECTS) is: the second attempt gets the answer.
	var page *mdcv1.ListRunsResponse
	n, err = lossy(1, func() (err error) {
		page, err = dashboard.ListRuns(ctx, &mdcv1.ListRunsRequest{})
		return err
	})
	if err != nil || n != 2 || len(page.GetRuns()) != 1 || page.GetRuns()[0].GetId() != runID {
		t.Errorf("ListRuns with one answer lost: %d attempts, %v, %v; want 2 attempts and run %s", n, err, page, runID)
	}

	// So is an IDEMPOTENT write: Update Run sets the name twice to the same.
	n, err = lossy(1, func() error {
		_, err := dashboard.UpdateRun(ctx, &mdcv1.UpdateRunRequest{RunId: runID,
			Run: &mdcv1.RunUpdate{Name: "renamed"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"name"}}})
		return err
	})
	if runs := storedRuns(); err != nil || n != 2 || len(runs) != 1 || runs[0].GetName() != "renamed" {
		t.Errorf("UpdateRun with one answer lost: %d attempts, %v; runs %v; want 2 attempts and the one run renamed", n, err, runs)
	}

	// And a collector write, which stores by its natural key.
	collector := mdcv1.NewCollectorServiceClient(conn)
	n, err = lossy(1, func() error {
		_, err := collector.SaveQuotes(ctx, &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
			Timestamp: "2025-12-31T09:20:00", Timezone: "Asia/Kolkata",
			Quotes: []*mdcv1.QuoteItem{{NseSymbol: "INFY", QuoteData: &mdcv1.QuoteData{
				Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(1612.5)}}}}}})
		return err
	})
	if err != nil || n != 2 {
		t.Errorf("SaveQuotes with one answer lost: %d attempts, %v; want 2 attempts and success", n, err)
	}
	quote, err := mdcv1.NewDeveloperServiceClient(conn).GetQuote(ctx, &mdcv1.GetQuoteRequest{Symbol: "INFY", Datetime: "2025-12-31T09:21:00"})
	if err != nil || quote.GetQuoteData().GetPayload().GetLastPrice() != 1612.5 {
		t.Errorf("GetQuote after the retried save: %v, %v", quote, err)
	}

	// The attempts are bounded: with every answer lost, the last attempt's
	// error.
	maxAttempts := mdcclient.DefaultRetryPolicy.MaxAttempts
	n, err = lossy(maxAttempts+1, func() error {
		_, err := dashboard.ListRuns(ctx, &mdcv1.ListRunsRequest{})
		return err
	})
	if status.Code(err) != codes.Unavailable || n != int64(maxAttempts) {
		t.Errorf("ListRuns with every answer lost: %d attempts, %v; want %d and UNAVAILABLE", n, err, maxAttempts)
	}
	if want := 4 + maxAttempts; proxy.cuts() != want {
		t.Errorf("the proxy cut %d answers, want %d", proxy.cuts(), want)
	}
}

func TestReadsAreRetriedAcrossAServerRestart(t *testing.T) {
	s := startMdcServer(t)
	token := s.newDeveloper(t, "go-restart-")
	var attempts attemptCounter
	patient := mdcclient.RetryPolicy{MaxAttempts: 40, InitialBackoff: 50 * time.Millisecond, MaxBackoff: time.Second}
	conn := s.dial(t, token, mdcclient.WithRetryPolicy(patient), attempts.option())
	developer := mdcv1.NewDeveloperServiceClient(conn)
	ctx := testContext(t)
	if _, err := developer.ListHolidays(ctx, &mdcv1.ListHolidaysRequest{Year: 2025}); err != nil {
		t.Fatalf("ListHolidays: %v", err)
	}

	s.stop()
	// While the server is down, a create fails at once.
	n, err := attempts.during(func() error {
		_, err := mdcv1.NewDashboardServiceClient(conn).CreateRun(ctx, &mdcv1.CreateRunRequest{
			StartDatetime: "2025-12-31T09:15:00", EndDatetime: "2025-12-31T15:30:00"})
		return err
	})
	if status.Code(err) != codes.Unavailable || n != 1 {
		t.Errorf("CreateRun with the server down: %d attempts, %v; want 1 attempt and UNAVAILABLE", n, err)
	}

	// A read keeps trying until the server is back.
	before := attempts.n.Load()
	done := make(chan error, 1)
	go func() {
		_, err := developer.ListHolidays(ctx, &mdcv1.ListHolidaysRequest{Year: 2025})
		done <- err
	}()
	for attempts.n.Load() < before+2 {
		select {
		case err := <-done:
			t.Fatalf("ListHolidays ended while the server was down: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	s.start()
	if err := <-done; err != nil {
		t.Fatalf("ListHolidays across the restart: %v after %d attempts", err, attempts.n.Load()-before)
	}
	if n := attempts.n.Load() - before; n < 3 {
		t.Errorf("ListHolidays across the restart took %d attempts, want at least 3 (two failed while the server was down)", n)
	}
}
