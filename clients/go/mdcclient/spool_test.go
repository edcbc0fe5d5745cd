package mdcclient_test

// The collector spool (spool.go) against a real mdc-server: writes mdc
// cannot take now wait on disk, are reported, survive a restart of the
// collector (a new Spool on the same folder) and are delivered oldest first
// once mdc is back; the spool is bounded. "Unavailable" is a server address
// nothing listens on; the failover test (tests/e2e, TestFailover) runs a
// spooling collector through a database failover.

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

func spoolQuote(symbol, clock string, price float64) *mdcv1.SaveQuotesRequest {
	return &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
		Timestamp: "2031-05-06T" + clock, Timezone: "Asia/Kolkata",
		Quotes: []*mdcv1.QuoteItem{{NseSymbol: symbol, QuoteData: &mdcv1.QuoteData{
			Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(price)}}}},
	}}
}

// unavailableCollector is a collector client of an address where nothing
// listens; each call gives up after a second.
func unavailableCollector(t *testing.T) (mdcv1.CollectorServiceClient, context.Context) {
	conn := dialAddr(t, freeAddr(t), "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return mdcv1.NewCollectorServiceClient(conn), ctx
}

func TestSpoolKeepsWritesUntilMdcIsBackAndDeliversThemInOrder(t *testing.T) {
	s := startMdcServer(t)
	token := s.newDeveloper(t, "go-spool-")
	dir := filepath.Join(t.TempDir(), "spool")
	symbol := "GOSPOOL" + strings.ToUpper(randomHex(t, 2))

	down, ctx := unavailableCollector(t)
	spool, err := mdcclient.OpenSpool(down, dir, mdcclient.SpoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []*mdcv1.SaveQuotesRequest{
		spoolQuote(symbol, "10:00:00", 1),
		spoolQuote(symbol, "10:00:00", 2), // the same key again: the last one wins
		spoolQuote(symbol, "10:01:00", 3),
	} {
		callCtx, cancel := context.WithTimeout(ctx, time.Second)
		err := spool.SaveQuotes(callCtx, req)
		cancel()
		if err != nil {
			t.Fatalf("SaveQuotes while mdc is unavailable: %v (want it spooled)", err)
		}
	}
	held, err := spool.State()
	if err != nil || held.Writes != 3 || held.Bytes == 0 || held.Oldest.IsZero() || held.LastError == "" || held.Rejected != 0 {
		t.Fatalf("state while unavailable: %+v, %v; want 3 writes held and the last error", held, err)
	}

	// The collector restarts; mdc is back.
	conn := s.dial(t, token)
	restarted, err := mdcclient.OpenSpool(mdcv1.NewCollectorServiceClient(conn), dir, mdcclient.SpoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := restarted.Flush(ctx); n != 3 || err != nil {
		t.Fatalf("Flush: %d, %v; want the 3 writes delivered", n, err)
	}
	if st, _ := restarted.State(); st.Writes != 0 || st.Bytes != 0 || st.LastError != "" {
		t.Fatalf("state after delivery: %+v", st)
	}
	developer := mdcv1.NewDeveloperServiceClient(conn)
	for clock, want := range map[string]float64{"10:00:00": 2, "10:01:00": 3} {
		q, err := developer.GetQuote(ctx, &mdcv1.GetQuoteRequest{Symbol: symbol, Datetime: "2031-05-06T" + clock, Timezone: "Asia/Kolkata"})
		if err != nil || q.GetQuoteData().GetPayload().GetLastPrice() != want {
			t.Errorf("quote at %s: %v, %v; want last price %v", clock, q, err, want)
		}
	}
}

func TestSpoolIsBounded(t *testing.T) {
	down, ctx := unavailableCollector(t)
	spool, err := mdcclient.OpenSpool(down, t.TempDir(), mdcclient.SpoolOptions{MaxWrites: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, clock := range []string{"10:00:00", "10:01:00", "10:02:00"} {
		callCtx, cancel := context.WithTimeout(ctx, time.Second)
		err := spool.SaveQuotes(callCtx, spoolQuote("TCS", clock, 1))
		cancel()
		if want := i == 2; errors.Is(err, mdcclient.ErrSpoolFull) != want {
			t.Fatalf("write %d: %v (full expected: %v)", i, err, want)
		}
	}
	if st, _ := spool.State(); st.Writes != 2 {
		t.Fatalf("held %d writes, want 2", st.Writes)
	}
}
