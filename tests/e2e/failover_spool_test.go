//go:build failover

package e2e

// A collector that writes through the Go client's spool (mdcclient.Spool)
// during the failover test: one observation every few milliseconds, each
// spooled and delivered when mdc takes it.

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

type spoolingCollector struct {
	spool  *mdcclient.Spool
	symbol string
	day    string
	done   chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex
	observed []string // the keys of every observation saved
	maxHeld  int
	failed   error
}

func startSpoolingCollector(t *testing.T, s *Stack, token, day, symbol string) *spoolingCollector {
	t.Helper()
	conn, err := mdcclient.Dial(s.GRPCAddr(), token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	spool, err := mdcclient.OpenSpool(mdcv1.NewCollectorServiceClient(conn), t.TempDir(), mdcclient.SpoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := &spoolingCollector{spool: spool, symbol: symbol, day: day, done: make(chan struct{})}
	ist := time.FixedZone("IST", 5*3600+1800)
	base, _ := time.ParseInLocation("2006-01-02T15:04:05", day+"T09:15:00", ist)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for i := 0; ; i++ {
			select {
			case <-c.done:
				return
			case <-time.After(20 * time.Millisecond): // the collector's pace
			}
			at := base.Add(time.Duration(i) * time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := spool.SaveQuotes(ctx, &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
				Timestamp: at.Format("2006-01-02T15:04:05"), Timezone: "Asia/Kolkata",
				Quotes: []*mdcv1.QuoteItem{{NseSymbol: symbol, QuoteData: &mdcv1.QuoteData{
					Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(float64(100 + i))}}}},
			}})
			cancel()
			st, _ := spool.State()
			c.mu.Lock()
			if err != nil && c.failed == nil {
				c.failed = err
			}
			c.observed = append(c.observed, symbol+" "+at.UTC().Format(time.RFC3339))
			c.maxHeld = max(c.maxHeld, st.Writes)
			c.mu.Unlock()
		}
	}()
	return c
}

// finish stops the collector, waits (bounded) until its spool has
// delivered everything, and checks every observation is stored.
func (c *spoolingCollector) finish(t *testing.T, s *Stack) {
	t.Helper()
	close(c.done)
	c.wg.Wait()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := c.spool.Flush(ctx)
		cancel()
		st, serr := c.spool.State()
		if err == nil && serr == nil && st.Writes == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the spool still holds %+v (%v, %v)", st, err, serr)
		}
		time.Sleep(200 * time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed != nil {
		t.Errorf("a spooled save failed: %v", c.failed)
	}
	if st, _ := c.spool.State(); st.Rejected != 0 {
		t.Errorf("the spool rejected %d writes: %s", st.Rejected, st.LastError)
	}
	stored := map[string]bool{}
	out := s.SQL(t, "SELECT nse_symbol || ' ' || to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') "+
		"FROM stock_quotes WHERE nse_symbol = '"+c.symbol+"'")
	for _, line := range strings.Split(out, "\n") {
		if line != "" {
			stored[line] = true
		}
	}
	var missing []string
	for _, key := range c.observed {
		if !stored[key] {
			missing = append(missing, key)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of %d spooled observations are not stored, e.g. %v", len(missing), len(c.observed), missing[:min(5, len(missing))])
	}
	t.Logf("spooling collector: %d observations, all stored; its spool held up to %d at once", len(c.observed), c.maxHeld)
	if c.maxHeld == 0 {
		t.Error("the spool never held a write: the failover did not reach this collector")
	}
}
