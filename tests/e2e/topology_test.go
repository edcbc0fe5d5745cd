package e2e

// The scale-out topology on one box (issue 15, deliver 4; compose.yaml's
// `scale` profile runs the same): a PostgreSQL primary and a streaming
// standby made with pg_basebackup, two mdc-servers reading from the standby
// (DATABASE_READ_URL), and two gateways each given both servers. Under
// write and read load through both gateways one server is killed with
// SIGKILL: no acknowledged write is lost and clients see only 200s (the
// gateways send the calls cut by the kill again, on the other server);
// reads are answered by the standby; then the standby is stopped and reads
// still work, from the primary.

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// addGateway starts one more mdc-gateway in front of the fleet's servers
// (the first gateway's settings on its own address) and returns a view of
// the fleet through it: its BaseURL is the new gateway's. It stops when t
// ends.
func (f *fleet) addGateway(t *testing.T, name string) *Stack {
	t.Helper()
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	g := &process{
		name:    name,
		bin:     env.gatewayBin,
		logPath: filepath.Join(f.logDir, name+".log"),
		env:     append(append([]string{}, f.gateway.env...), "MDC_HTTP_ADDR="+addr),
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("\n%s", tail(g))
		}
		if err := g.stop(stopGrace); err != nil {
			t.Logf("shutdown: %v", err)
		}
	})
	if err := g.start(); err != nil {
		t.Fatal(err)
	}
	view := *f.Stack
	view.httpAddr = addr
	view.gateway = g
	view.dbName = "" // the fleet's stack owns the database
	if err := view.waitHealthy(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &view
}

func TestTopologyPrimaryStandbyTwoServersTwoGateways(t *testing.T) {
	r := startReplicated(t)
	metrics := []string{}
	for i := 0; i < 2; i++ {
		addr, err := freeAddr()
		if err != nil {
			t.Fatal(err)
		}
		metrics = append(metrics, addr)
	}
	f := startFleetWith(t, 2, StackOptions{DatabaseURL: r.primary.url("mdc")}, func(i int) []string {
		return r.replicaEnv("5s", metrics[i])
	})
	second := f.addGateway(t, "mdc-gateway-2")
	gateways := []*Stack{f.Stack, second}
	_, token := f.NewDeveloper(t, "developer")
	for _, m := range metrics {
		waitReplicaInUse(t, m, true)
	}

	const before, killing, alone, standbyDown = 0, 1, 2, 3
	phases := []string{"before the kill", "while killing", "one server", "standby stopped"}
	var loads []*batchLoad
	var reads []*readLoad
	for i, g := range gateways {
		// A day apart: each load's batches are its own instants.
		base := time.Date(2034, 9, 4+i, 4, 0, 0, 0, time.UTC)
		loads = append(loads, newBatchLoad(g, token, 4, 5000, 90*time.Second, base, len(phases)))
		reads = append(reads, startReads(g, token, 2))
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			for i := range loads {
				loads[i].stopAll()
				reads[i].stopAll()
			}
		})
	}
	t.Cleanup(stop)
	hold := func(p int, what string) {
		for i, l := range loads {
			if !l.hold(p, "200", 40, 2*time.Second, 20*time.Second) {
				t.Fatalf("%s through gateway %d: %s", what, i+1, l.summary(phases...))
			}
		}
	}
	setPhase := func(p int) {
		for _, l := range loads {
			l.setPhase(p)
		}
	}

	for _, l := range loads {
		l.start()
	}
	hold(before, "the writes did not flow")
	if f.calls(t, 1, "SaveQuotes", 0) == 0 {
		t.Fatal("the server to be killed took no writes")
	}
	setPhase(killing)
	f.servers[1].kill(t)
	setPhase(alone)
	readsBefore := scrapeReplica(t, metrics[0])
	hold(alone, "the writes did not go on with one server")
	// The survivor's replica-routed reads (GET /v1/developer/holidays)
	// went to the standby under the load.
	if m := scrapeReplica(t, metrics[0]); m.replicaReads <= readsBefore.replicaReads {
		t.Errorf("no read went to the standby with one server under load: %v", m)
	}

	setPhase(standbyDown)
	r.standby.stop()
	hold(standbyDown, "the writes did not go on with the standby stopped")
	waitReplicaInUse(t, metrics[0], false)
	primaryBefore := scrapeReplica(t, metrics[0])
	eventually(t, "reads answered by the primary with the standby stopped", func() string {
		if m := scrapeReplica(t, metrics[0]); m.primaryReads <= primaryBefore.primaryReads {
			return m.String()
		}
		return ""
	})
	stop()

	for i := range loads {
		t.Logf("gateway %d answers: %s", i+1, loads[i].summary(phases...))
		loads[i].checkAnswers(t, "200")
		reads[i].check(t)
		batches, rows := loads[i].verifyStored(t)
		t.Logf("gateway %d: %d whole batches (%d rows) stored on the primary; the %d acknowledged are all among them",
			i+1, batches, rows, len(loads[i].acked))
	}
	t.Logf("survivor's replica metrics: %v; calls the first gateway sent again, by error: %v",
		scrapeReplica(t, metrics[0]), f.retriedRequests(t))
}
