package e2e

// mdc-server killed with SIGKILL under concurrent collector writes: no drain,
// no clean shutdown. A 200 means the batch is durably committed (docs/api.md
// 2), and a batch of quotes is stored atomically (2.3), so after the crash
// every acknowledged batch is in the database whole and no batch is there in
// part. While the server is down the gateway answers 503 (UNAVAILABLE,
// docs/api.md 1); a call cut by the crash is UNAVAILABLE too. The server is
// then started again on the same address and database and the writes
// succeed again through the same gateway.

import (
	"sync"
	"testing"
	"time"
)

func TestFailureServerKilledUnderWrites(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	const (
		writers   = 8
		perWriter = 5000 // count bound of one writer; the phases end the load first
		maxTime   = 60 * time.Second
	)
	const before, killing, down, restarting, after = 0, 1, 2, 3, 4
	phases := []string{"before the kill", "while killing", "server down", "while restarting", "after the restart"}
	load := newBatchLoad(s, token, writers, perWriter, maxTime, time.Date(2034, 3, 6, 4, 0, 0, 0, time.UTC), len(phases))
	var once sync.Once
	stop := func() { once.Do(load.stopAll) }
	t.Cleanup(stop)

	load.start()
	if !load.hold(before, "200", 40, 2*time.Second, 15*time.Second) {
		t.Fatalf("the writes did not flow: %s", load.summary(phases...))
	}
	load.setPhase(killing)
	s.KillServer(t) // returns once the process is gone
	load.setPhase(down)
	if !load.hold(down, "503", writers, time.Second, 10*time.Second) {
		t.Errorf("no 503 while the server was down: %s", load.summary(phases...))
	}
	load.setPhase(restarting)
	s.StartServer(t) // same address and database; waits for /health 200 and for calls to reach it
	load.setPhase(after)
	if !load.hold(after, "200", 40, 2*time.Second, 20*time.Second) {
		t.Errorf("the writes did not recover after the restart: %s", load.summary(phases...))
	}
	stop()

	t.Logf("answers: %s", load.summary(phases...))
	load.checkAnswers(t, "200", "503")
	if n := load.count(down, "200"); n > 0 {
		t.Errorf("%d writes acknowledged while the server was dead", n)
	}
	// Once /health answers 200 again, every write succeeds.
	if n := load.count(after, "503"); n > 0 {
		t.Errorf("%d writes answered 503 after the server was back", n)
	}
	batches, rows := load.verifyStored(t)
	t.Logf("stored: %d whole batches (%d rows); the %d acknowledged are all among them",
		batches, rows, len(load.acked))
}
