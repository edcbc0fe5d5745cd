package e2e

// Several mdc-server processes on one database behind one gateway
// (docs/architecture.md and docs/operations.md, "Several servers"): calls
// are spread round robin over the healthy servers, and an idempotent call
// whose server dies or drains is answered by another one, so clients see no
// error at all. A collector write is an upsert on its natural key, so one
// that committed on the dying server and is sent again commits the same
// rows; a batch is one transaction, so none is stored in part.

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// readLoad is readers calling GET /v1/developer/holidays (a read that needs
// the database) in a loop until stopped; every answer is counted.
type readLoad struct {
	stop   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	counts map[string]int
}

func startReads(s *Stack, token string, readers int) *readLoad {
	r := &readLoad{stop: make(chan struct{}), counts: map[string]int{}}
	client := &http.Client{Timeout: 15 * time.Second}
	for i := 0; i < readers; i++ {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for {
				select {
				case <-r.stop:
					return
				default:
				}
				answer := connErrAnswer
				req, _ := http.NewRequest("GET", s.BaseURL()+"/v1/developer/holidays", nil)
				req.Header.Set("Authorization", "Bearer "+token)
				if resp, err := client.Do(req); err == nil {
					resp.Body.Close()
					answer = http.StatusText(resp.StatusCode)
				}
				r.mu.Lock()
				r.counts[answer]++
				r.mu.Unlock()
			}
		}()
	}
	return r
}

func (r *readLoad) stopAll() {
	close(r.stop)
	r.wg.Wait()
}

// check fails t unless every read was answered 200, and there were reads.
func (r *readLoad) check(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	t.Logf("reads: %v", r.counts)
	for answer, n := range r.counts {
		if answer != http.StatusText(http.StatusOK) {
			t.Errorf("%d reads answered %q; every read must succeed", n, answer)
		}
	}
	if r.counts[http.StatusText(http.StatusOK)] == 0 {
		t.Error("no read succeeded")
	}
}

// (a) Calls are spread over both servers.
func TestScaleCallsAreSpreadOverTheServers(t *testing.T) {
	f := startFleet(t, 2)
	_, token := f.NewDeveloper(t, "developer")
	load := newBatchLoad(f.Stack, token, 1, 1000, time.Minute, time.Date(2034, 6, 5, 4, 0, 0, 0, time.UTC), 1)
	n := 0
	post := func() {
		if answer := load.post(n); answer != "200" {
			t.Fatalf("write %d: %s", n, answer)
		}
		n++
	}
	// The gateway connects to each server on its own; wait until both
	// have answered a write.
	deadline := time.Now().Add(20 * time.Second)
	for f.calls(t, 0, "SaveQuotes", 0) == 0 || f.calls(t, 1, "SaveQuotes", 0) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after %d writes one server has had none (%d / %d)", n,
				f.calls(t, 0, "SaveQuotes", 0), f.calls(t, 1, "SaveQuotes", 0))
		}
		post()
	}
	marks := []int64{f.logSize(0), f.logSize(1)}
	const writes = 40
	for i := 0; i < writes; i++ {
		post()
	}
	got := []int{f.calls(t, 0, "SaveQuotes", marks[0]), f.calls(t, 1, "SaveQuotes", marks[1])}
	t.Logf("%d writes: %d on the first server, %d on the second", writes, got[0], got[1])
	if got[0]+got[1] != writes {
		t.Errorf("the servers logged %d writes, want %d", got[0]+got[1], writes)
	}
	// Round robin alternates; a quarter each is far from one-sided.
	for i, c := range got {
		if c < writes/4 {
			t.Errorf("server %d took %d of %d writes: the calls are not spread", i+1, c, writes)
		}
	}
}

// (b) and (d): one server is killed with SIGKILL under concurrent writes
// and reads. Every call is answered 200 (the gateway sends the calls cut by
// the kill to the other server), no acknowledged batch is lost, none is
// stored in part; the server started again gets calls again.
func TestScaleServerKilledUnderLoad(t *testing.T) {
	f := startFleet(t, 2)
	_, token := f.NewDeveloper(t, "developer")
	const (
		writers   = 8
		perWriter = 5000 // count bound; the phases end the load first
		maxTime   = 90 * time.Second
	)
	const before, killing, alone, restarting, rejoined = 0, 1, 2, 3, 4
	phases := []string{"before the kill", "while killing", "one server", "while restarting", "after the restart"}
	load := newBatchLoad(f.Stack, token, writers, perWriter, maxTime, time.Date(2034, 7, 3, 4, 0, 0, 0, time.UTC), len(phases))
	reads := startReads(f.Stack, token, 2)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			load.stopAll()
			reads.stopAll()
		})
	}
	t.Cleanup(stop)

	load.start()
	if !load.hold(before, "200", 40, 2*time.Second, 15*time.Second) {
		t.Fatalf("the writes did not flow: %s", load.summary(phases...))
	}
	if f.calls(t, 0, "SaveQuotes", 0) == 0 {
		t.Fatalf("the server to be killed took no writes: %s", load.summary(phases...))
	}
	load.setPhase(killing)
	f.servers[0].kill(t) // returns once the process is gone
	load.setPhase(alone)
	if !load.hold(alone, "200", 40, 2*time.Second, 15*time.Second) {
		t.Errorf("the writes did not go on with one server: %s", load.summary(phases...))
	}
	load.setPhase(restarting)
	f.restart(t, 0)
	mark := f.logSize(0)
	load.setPhase(rejoined)
	// The gateway reconnects by itself (within 5 s of the server's return).
	deadline := time.Now().Add(30 * time.Second)
	for f.calls(t, 0, "SaveQuotes", mark) < 20 {
		if time.Now().After(deadline) {
			t.Fatalf("the restarted server got %d writes in 30 s: it did not rejoin: %s",
				f.calls(t, 0, "SaveQuotes", mark), load.summary(phases...))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !load.hold(rejoined, "200", 40, time.Second, 15*time.Second) {
		t.Errorf("the writes did not go on after the restart: %s", load.summary(phases...))
	}
	stop()

	t.Logf("answers: %s", load.summary(phases...))
	load.checkAnswers(t, "200")
	reads.check(t)
	batches, rows := load.verifyStored(t)
	t.Logf("stored: %d whole batches (%d rows); the %d acknowledged are all among them; "+
		"the restarted server took %d writes; calls the gateway sent again on the other server, by error: %v",
		batches, rows, len(load.acked), f.calls(t, 0, "SaveQuotes", mark), f.retriedRequests(t))
}

// (c) One server gets SIGTERM under concurrent writes and reads: it drains
// (reports NOT_SERVING, finishes the calls under way, refuses the rest) and
// exits cleanly, and no client sees an error.
func TestScaleServerDrainedUnderLoad(t *testing.T) {
	f := startFleet(t, 2)
	_, token := f.NewDeveloper(t, "developer")
	const before, draining, alone = 0, 1, 2
	phases := []string{"before the drain", "while draining", "one server"}
	load := newBatchLoad(f.Stack, token, 8, 5000, 60*time.Second, time.Date(2034, 8, 7, 4, 0, 0, 0, time.UTC), len(phases))
	reads := startReads(f.Stack, token, 2)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			load.stopAll()
			reads.stopAll()
		})
	}
	t.Cleanup(stop)

	load.start()
	if !load.hold(before, "200", 40, 2*time.Second, 15*time.Second) {
		t.Fatalf("the writes did not flow: %s", load.summary(phases...))
	}
	if f.calls(t, 0, "SaveQuotes", 0) == 0 {
		t.Fatalf("the server to be drained took no writes: %s", load.summary(phases...))
	}
	load.setPhase(draining)
	if err := f.servers[0].stop(stopGrace); err != nil {
		t.Errorf("the drained server: %v", err)
	}
	load.setPhase(alone)
	if !load.hold(alone, "200", 40, 2*time.Second, 15*time.Second) {
		t.Errorf("the writes did not go on with one server: %s", load.summary(phases...))
	}
	stop()

	t.Logf("answers: %s", load.summary(phases...))
	load.checkAnswers(t, "200")
	reads.check(t)
	batches, rows := load.verifyStored(t)
	t.Logf("stored: %d whole batches (%d rows); the %d acknowledged are all among them; "+
		"calls the gateway sent again on the other server, by error: %v", batches, rows, len(load.acked), f.retriedRequests(t))
}
