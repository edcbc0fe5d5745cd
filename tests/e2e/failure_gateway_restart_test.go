package e2e

// mdc-gateway killed with SIGKILL under concurrent collector writes and
// started again on the same address. While it is down clients get connection
// errors (no HTTP answer at all, counted apart from statuses); a call cut by
// the kill may or may not have been committed, but it was not acknowledged.
// Every acknowledged batch is stored whole, none in part, and the writes
// succeed again once the gateway is back.

import (
	"sync"
	"testing"
	"time"
)

func TestFailureGatewayRestartedUnderWrites(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	const (
		writers   = 8
		perWriter = 5000
		maxTime   = 60 * time.Second
	)
	const before, killing, down, restarting, after = 0, 1, 2, 3, 4
	phases := []string{"before the kill", "while killing", "gateway down", "while restarting", "after the restart"}
	load := newBatchLoad(s, token, writers, perWriter, maxTime, time.Date(2034, 4, 3, 4, 0, 0, 0, time.UTC), len(phases))
	var once sync.Once
	stop := func() { once.Do(load.stopAll) }
	t.Cleanup(stop)

	load.start()
	if !load.hold(before, "200", 40, 2*time.Second, 15*time.Second) {
		t.Fatalf("the writes did not flow: %s", load.summary(phases...))
	}
	load.setPhase(killing)
	s.KillGateway(t)
	load.setPhase(down)
	if !load.hold(down, connErrAnswer, writers, time.Second, 10*time.Second) {
		t.Errorf("no connection errors while the gateway was down: %s", load.summary(phases...))
	}
	load.setPhase(restarting)
	s.StartGateway(t) // same address; waits for /health 200
	load.setPhase(after)
	if !load.hold(after, "200", 40, 2*time.Second, 20*time.Second) {
		t.Errorf("the writes did not recover after the restart: %s", load.summary(phases...))
	}
	stop()

	t.Logf("answers: %s", load.summary(phases...))
	// The server never went away: no 503 is expected, only successes and,
	// around the gateway's death, connection errors.
	load.checkAnswers(t, "200", connErrAnswer)
	if n := load.count(down, "200"); n > 0 {
		t.Errorf("%d writes answered 200 while the gateway was dead", n)
	}
	if n := load.count(after, connErrAnswer); n > 0 {
		t.Errorf("%d connection errors after the gateway was back", n)
	}
	batches, rows := load.verifyStored(t)
	t.Logf("stored: %d whole batches (%d rows); the %d acknowledged are all among them",
		batches, rows, len(load.acked))
}
