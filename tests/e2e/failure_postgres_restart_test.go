package e2e

// The PostgreSQL cluster restarted under concurrent collector writes, with
// mdc-server left running. The suite's cluster is shared by every test, so
// the stack runs on a private cluster (startStoppableCluster,
// admin_health_test.go) that this test stops and starts. While the database
// is down the writes are 503 (UNAVAILABLE, docs/api.md 1); the server
// reconnects by itself; every acknowledged batch is stored whole and none in
// part.

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestFailurePostgresRestartedUnderWrites(t *testing.T) {
	for _, mode := range []string{
		"fast",      // sessions are ended, their transactions rolled back
		"immediate", // a crash: no shutdown checkpoint, WAL recovery on start
	} {
		t.Run(mode, func(t *testing.T) {
			cluster := startStoppableCluster(t)
			s := StartStackWith(t, StackOptions{DatabaseURL: cluster.url("mdc")})
			_, token := s.NewDeveloper(t, "developer")
			const (
				writers   = 8
				perWriter = 5000
				maxTime   = 60 * time.Second
			)
			const before, stopping, down, restarting, after = 0, 1, 2, 3, 4
			phases := []string{"before the stop", "while stopping", "PostgreSQL down", "until healthy again", "after recovery"}
			load := newBatchLoad(s, token, writers, perWriter, maxTime, time.Date(2034, 5, 8, 4, 0, 0, 0, time.UTC), len(phases))
			var once sync.Once
			stop := func() { once.Do(load.stopAll) }
			t.Cleanup(stop)

			load.start()
			if !load.hold(before, "200", 40, 2*time.Second, 15*time.Second) {
				t.Fatalf("the writes did not flow: %s", load.summary(phases...))
			}
			load.setPhase(stopping)
			// -w: returns once the postmaster is gone.
			asPostgres(t, "pg_ctl", "-D", filepath.Join(cluster.dir, "data"), "-w", "stop", "-m", mode)
			load.setPhase(down)
			if !load.hold(down, "503", writers, time.Second, 15*time.Second) {
				t.Errorf("no 503 while PostgreSQL was down: %s", load.summary(phases...))
			}
			load.setPhase(restarting)
			cluster.start()
			// No restart of mdc-server: it reconnects by itself.
			if err := s.waitHealthy(); err != nil {
				t.Errorf("after PostgreSQL came back: %v", err)
			}
			load.setPhase(after)
			if !load.hold(after, "200", 40, 2*time.Second, 30*time.Second) {
				t.Errorf("the writes did not recover after PostgreSQL came back: %s", load.summary(phases...))
			}
			stop()

			t.Logf("answers: %s", load.summary(phases...))
			load.checkAnswers(t, "200", "503")
			if n := load.count(down, "200"); n > 0 {
				t.Errorf("%d writes acknowledged while PostgreSQL was down", n)
			}
			// The down phase used, found broken and dropped every pooled
			// connection: once /health answers 200, every write succeeds.
			if n := load.count(after, "503"); n > 0 {
				t.Errorf("%d writes answered 503 after the server had recovered", n)
			}
			batches, rows := load.verifyStored(t)
			t.Logf("stored: %d whole batches (%d rows); the %d acknowledged are all among them",
				batches, rows, len(load.acked))
		})
	}
}
