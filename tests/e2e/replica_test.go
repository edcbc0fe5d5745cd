package e2e

// The read replica (DATABASE_READ_URL; docs/architecture.md, "Reads and the
// replica"): reads that may lag are answered by a streaming standby while
// it is within MDC_REPLICA_MAX_LAG of the primary; writes and reads of the
// caller's own data go to the primary; a standby that is down or too far
// behind is not read, and clients see only fresh answers and 200s.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
)

// replicaStack is a stack on a replicated pair whose server reads from the
// standby with the lag bound maxLag, and its developer token.
func replicaStack(t *testing.T, maxLag string) (r *replicated, s *Stack, metrics, token string) {
	t.Helper()
	r = startReplicated(t)
	metrics, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	s = StartStackWith(t, StackOptions{DatabaseURL: r.primary.url("mdc"), Env: r.replicaEnv(maxLag, metrics)})
	// An admin write, and the new token works at once: token checks read
	// the primary.
	_, token = s.NewDeveloper(t, "developer")
	waitReplicaInUse(t, metrics, true)
	return r, s, metrics, token
}

// lastPrice is the last_price of the quote of sym as of datetime (IST), or
// the status when it is not 200.
func lastPrice(t *testing.T, s *Stack, token, sym, datetime string) string {
	t.Helper()
	got := s.Do(t, "GET", query("/v1/developer/quote", map[string]string{"symbol": sym, "datetime": datetime}), token, nil)
	if got.Status != http.StatusOK {
		return fmt.Sprintf("status %d", got.Status)
	}
	return fmt.Sprint(field(got.JSON, "quoteData", "payload", "last_price"))
}

func TestReplicaAnswersReadsThatMayLagAndThePrimaryTheRest(t *testing.T) {
	r, s, metrics, token := replicaStack(t, "1h")
	sym := uniqueSymbol(t, "REPL")
	const asOf = "2033-04-05T10:05:00"
	postQuotes(t, s, token, sym, devQuote{"2033-04-05T10:00:00", 100, 1})
	r.caughtUp(t)
	before := scrapeReplica(t, metrics)
	if got := lastPrice(t, s, token, sym, asOf); got != "100" {
		t.Fatalf("as of %s: %s, want last_price 100", asOf, got)
	}
	after := scrapeReplica(t, metrics)
	if d := after.replicaReads - before.replicaReads; d != 1 {
		t.Errorf("one quote read: replica reads went up by %v, want 1 (%v)", d, after)
	}

	// The standby stops replaying: the primary moves on, the standby does
	// not, and with a 1 h bound it is still read.
	r.pauseReplay(t)
	postQuotes(t, s, token, sym, devQuote{"2033-04-05T10:01:00", 101, 2})
	if n := r.onPrimary(t, "SELECT count(*) FROM stock_quotes WHERE nse_symbol = '"+sym+"'"); n != "2" {
		t.Fatalf("the primary holds %s quotes of %s, want 2 (writes go to the primary)", n, sym)
	}
	if n := r.onStandby(t, "SELECT count(*) FROM stock_quotes WHERE nse_symbol = '"+sym+"'"); n != "1" {
		t.Fatalf("the paused standby holds %s quotes of %s, want 1", n, sym)
	}
	// Stale, so the standby answered it.
	if got := lastPrice(t, s, token, sym, asOf); got != "100" {
		t.Errorf("as of %s with replay paused: %s, want the standby's stale last_price 100", asOf, got)
	}

	// Read-your-write: the caller's runs are read on the primary, so the run
	// just created is listed although the standby does not hold it.
	created := s.Do(t, "POST", "/v1/dashboard/runs", token, map[string]any{
		"start_datetime": "2033-04-05T09:15:00", "end_datetime": "2033-04-05T15:30:00", "tags": []string{"replica"}})
	expectStatus(t, created, 200)
	runs := s.Do(t, "GET", "/v1/dashboard/runs", token, nil)
	expectStatus(t, runs, 200)
	listed := false
	for _, run := range asSlice(runs.JSON["runs"]) {
		if m, ok := run.(map[string]any); ok && fmt.Sprint(m["id"]) == fmt.Sprint(created.JSON["id"]) {
			listed = true
		}
	}
	if !listed {
		t.Errorf("the run just created (%v) is not listed: %s", created.JSON["id"], runs.Text())
	}
	if n := r.onStandby(t, "SELECT count(*) FROM runs"); n != "0" {
		t.Errorf("the paused standby holds %s runs; the test needs it to hold none", n)
	}

	r.resumeReplay(t)
	eventually(t, "the standby's answer after replay resumes", func() string {
		if got := lastPrice(t, s, token, sym, asOf); got != "101" {
			return got
		}
		return ""
	})

	// Every replica-routed REST route answers from the standby (read-only:
	// a route that wrote there would fail).
	day := "2033-04-05"
	routes := []string{
		"/v1/developer/lists?type=TOP_GAINERS&scope=FULL&datetime=" + asOf,
		"/v1/developer/quote?symbol=" + sym,
		"/v1/developer/quote-timeline?symbol=" + sym + "&start_datetime=2033-04-05T09:15:00&end_datetime=2033-04-05T15:30:00",
		"/v1/developer/nifty?datetime=" + asOf,
		"/v1/developer/nifty-timeline?start_datetime=2033-04-05T09:15:00&end_datetime=2033-04-05T15:30:00",
		"/v1/developer/historical-candles?symbol=" + sym + "&interval=1minute&start_datetime=2033-04-05T09:15:00&end_datetime=2033-04-05T15:30:00",
		"/v1/developer/shortlists/persistence?type=TOP_GAINERS&scope=FULL&start_datetime=2033-04-05T09:15:00&end_datetime=2033-04-05T15:30:00",
		"/v1/developer/holidays?year=2033",
		"/v1/dashboard/available-datetimes?date=" + day,
		"/v1/dashboard/candles?symbol=" + sym + "&date=" + day,
		"/v1/dashboard/daily-persistent-companies?date=" + day + "&type=TOP_GAINERS",
		"/v1/dashboard/daily-unique-companies?date=" + day + "&type=TOP_GAINERS",
		"/v1/dashboard/shortlists?type=TOP_GAINERS&scope=FULL&datetime=" + asOf,
		"/v1/dashboard/quote-timelines?symbol=" + sym + "&date=" + day,
	}
	before = scrapeReplica(t, metrics)
	for _, path := range routes {
		got := s.Do(t, "GET", path, token, nil)
		if got.Status != 200 && got.Status != 404 {
			t.Errorf("GET %s on the replica: %v", path, got)
		}
	}
	after = scrapeReplica(t, metrics)
	if d := after.replicaReads - before.replicaReads; d != float64(len(routes)) {
		t.Errorf("%d replica-routed reads: the replica got %v (%v)", len(routes), d, after)
	}
	if d := after.primaryReads - before.primaryReads; d != 0 {
		t.Errorf("%v replica-routed reads went to the primary while the replica was in use (%v)", d, after)
	}
}

func TestReplicaDownReadsGoToThePrimaryAndBack(t *testing.T) {
	r, s, metrics, token := replicaStack(t, "1h")
	sym := uniqueSymbol(t, "RDWN")
	const asOf = "2033-04-06T10:05:00"
	postQuotes(t, s, token, sym, devQuote{"2033-04-06T10:00:00", 100, 1})
	r.caughtUp(t)
	if got := lastPrice(t, s, token, sym, asOf); got != "100" {
		t.Fatalf("as of %s: %s", asOf, got)
	}

	r.standby.stop()
	// At once, before the monitor has noticed: a read that fails on the
	// standby is answered by the primary.
	for i := 0; i < 20; i++ {
		if got := lastPrice(t, s, token, sym, asOf); got != "100" {
			t.Fatalf("read %d after the standby stopped: %s, want 100", i, got)
		}
	}
	postQuotes(t, s, token, sym, devQuote{"2033-04-06T10:01:00", 101, 2})
	if got := lastPrice(t, s, token, sym, asOf); got != "101" {
		t.Errorf("with the standby down: %s, want the primary's 101", got)
	}
	waitReplicaInUse(t, metrics, false)
	down := scrapeReplica(t, metrics)
	if down.fallbacks["unreachable"]+down.fallbacks["read_failed"] == 0 {
		t.Errorf("no read counted as sent to the primary for an unreachable replica: %v", down)
	}

	r.standby.start()
	waitReplicaInUse(t, metrics, true)
	before := scrapeReplica(t, metrics)
	if got := lastPrice(t, s, token, sym, asOf); got != "101" {
		t.Errorf("with the standby back: %s, want 101", got)
	}
	if after := scrapeReplica(t, metrics); after.replicaReads-before.replicaReads != 1 {
		t.Errorf("the standby is back but the read did not go to it: %v", after)
	}
}

func TestReplicaPastTheBoundReadsGoToThePrimary(t *testing.T) {
	// 2 s, not the minimum 1 s: between two checks (every 0.5 s) an idle
	// standby's lag grows by the interval, and a loaded machine may stretch
	// it, which must not make the read after catching up go elsewhere.
	r, s, metrics, token := replicaStack(t, "2s")
	sym := uniqueSymbol(t, "RLAG")
	const asOf = "2033-04-07T10:05:00"
	postQuotes(t, s, token, sym, devQuote{"2033-04-07T10:00:00", 100, 1})
	r.caughtUp(t)
	waitReplicaInUse(t, metrics, true)

	r.pauseReplay(t)
	postQuotes(t, s, token, sym, devQuote{"2033-04-07T10:01:00", 101, 2})
	// Once the standby is 2 s behind, reads go to the primary: the
	// fresh answer comes back although the standby still lacks it.
	eventually(t, "the fresh answer with replay paused", func() string {
		if got := lastPrice(t, s, token, sym, asOf); got != "101" {
			return got
		}
		return ""
	})
	if n := r.onStandby(t, "SELECT count(*) FROM stock_quotes WHERE nse_symbol = '"+sym+"'"); n != "1" {
		t.Fatalf("the paused standby holds %s quotes, want 1: the test proves nothing", n)
	}
	waitReplicaInUse(t, metrics, false)
	lagging := scrapeReplica(t, metrics)
	if lagging.fallbacks["lagging"] == 0 || lagging.lag <= 2 {
		t.Errorf("past the bound: %v", lagging)
	}
	if !serverLogged(t, s, "replica not used; its reads go to the primary", "lagging") {
		t.Error("the server did not log that the replica lags")
	}

	r.resumeReplay(t)
	waitReplicaInUse(t, metrics, true)
	before := scrapeReplica(t, metrics)
	if got := lastPrice(t, s, token, sym, asOf); got != "101" {
		t.Errorf("caught up again: %s, want 101", got)
	}
	if after := scrapeReplica(t, metrics); after.replicaReads-before.replicaReads != 1 {
		t.Errorf("the standby caught up but the read did not go to it: %v", after)
	}
	if !serverLogged(t, s, "replica in use", "") {
		t.Error("the server did not log that the replica is in use")
	}
}

// serverLogged reports whether the stack's server logged msg (with the
// field reason, unless "").
func serverLogged(t *testing.T, s *Stack, msg, reason string) bool {
	t.Helper()
	data, err := os.ReadFile(s.server.logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range strings.Split(string(data), "\n") {
		var line struct {
			Msg    string `json:"msg"`
			Reason string `json:"reason"`
		}
		if json.Unmarshal([]byte(raw), &line) == nil && line.Msg == msg && (reason == "" || line.Reason == reason) {
			return true
		}
	}
	return false
}
