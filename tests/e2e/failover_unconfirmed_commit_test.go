//go:build failover

package e2e

// A commit whose synchronous standby never confirms (docs/deployment.md,
// "Synchronous replication"): PostgreSQL waits for the standby (no
// statement_timeout applies to that wait); when the wait is cancelled
// (pg_cancel_backend, as an operator or a tool does) it reports the commit
// as done although the write is on one machine only. mdc answers 503,
// reason COMMIT_UNCONFIRMED, not 200, so the collector sends it again; once
// the standby confirms again the same write is answered 200.
//
// A single PostgreSQL stands in for the primary: synchronous_standby_names
// names a standby that never connects, exactly what a primary whose
// standbys are gone looks like under Patroni's synchronous_mode_strict.

import (
	"strings"
	"testing"
	"time"
)

func TestFailoverUnconfirmedCommitIsUnavailable(t *testing.T) {
	cluster := startStoppableCluster(t)
	s := StartStackWith(t, StackOptions{DatabaseURL: cluster.url("mdc")})
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "UC")
	body := map[string]any{"data": map[string]any{
		"timestamp": "2031-03-04T10:00:00", "timezone": "Asia/Kolkata",
		"quotes": []any{map[string]any{"nseSymbol": sym, "quoteData": devPayload(devQuote{price: 7})}},
	}}

	setStandbyNames := func(value string) {
		t.Helper()
		if _, err := psql(cluster.url("postgres"), "ALTER SYSTEM SET synchronous_standby_names = '"+value+"'"); err != nil {
			t.Fatal(err)
		}
		if _, err := psql(cluster.url("postgres"), "SELECT pg_reload_conf()"); err != nil {
			t.Fatal(err)
		}
		// The reload reaches sessions when they next start a command.
		eventually(t, "synchronous_standby_names = '"+value+"'", func() string {
			got, err := psql(cluster.url("postgres"), "SHOW synchronous_standby_names")
			if err != nil {
				return err.Error()
			}
			if strings.TrimSpace(got) != value {
				return "still " + got
			}
			return ""
		})
	}

	setStandbyNames("standby_that_never_connects")
	answered := make(chan *Response, 1)
	go func() {
		answered <- s.Do(t, "POST", "/v1/developer/collector/quotes", token, body)
	}()
	// The write's commit waits for the standby: cancel that wait (and the
	// other commits waiting, e.g. the token's last-seen update) until the
	// write is answered.
	deadline := time.Now().Add(30 * time.Second)
	var r *Response
	for r == nil {
		select {
		case r = <-answered:
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("the write was not answered within 30 s of cancelling its commit's wait")
			}
			if _, err := psql(cluster.url("postgres"), "SELECT pg_cancel_backend(pid) FROM pg_stat_activity "+
				"WHERE wait_event = 'SyncRep' AND application_name = 'mdc-server'"); err != nil {
				t.Fatal(err)
			}
		}
	}
	expectReason(t, r, 503, "COMMIT_UNCONFIRMED")

	setStandbyNames("")
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, body), 200)
	if got := strings.TrimSpace(s.SQL(t, "SELECT count(*) FROM stock_quotes WHERE nse_symbol = '"+sym+"'")); got != "1" {
		t.Fatalf("stored %s records of %s, want 1", got, sym)
	}
}
