package e2e

// Harness for the read-replica tests (replica_test.go, topology_test.go): a
// PostgreSQL primary of the test's own (startStoppableCluster) and a
// streaming standby of it, made with pg_basebackup -R as an operator would
// (docs/operations.md, "Read replica"), each on a free port; and the
// replica's metrics as a server reports them.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// replicated is a primary and a streaming standby of it.
type replicated struct {
	primary *stoppableCluster
	standby *stoppableCluster
}

// pgBin is a PostgreSQL 15 program: Debian's own, else the PATH's.
func pgBin(name string) string {
	own := filepath.Join("/usr/lib/postgresql/15/bin", name)
	if _, err := os.Stat(own); err == nil {
		return own
	}
	return name
}

// startReplicated starts a primary with database mdc, copies it with
// pg_basebackup -R (a standby.signal and primary_conninfo pointing at the
// primary) and starts the copy as a hot standby. It returns once the standby
// answers queries and has replayed the database's creation. Both stop when
// t ends.
func startReplicated(t *testing.T) *replicated {
	t.Helper()
	primary := startStoppableCluster(t)
	dir, err := os.MkdirTemp("", "mdc-standby-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if out, err := exec.Command("chown", "postgres", dir).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	standby := &stoppableCluster{t: t, dir: dir, addr: addr}
	host, port := splitAddr(t, primary.addr)
	// Initdb's trust rules admit replication connections from 127.0.0.1;
	// wal_level replica and max_wal_senders 10 are PostgreSQL 15's defaults.
	asPostgres(t, pgBin("pg_basebackup"), "-h", host, "-p", port, "-U", "mdc",
		"-D", filepath.Join(dir, "data"), "-R", "-X", "stream", "--checkpoint=fast", "--no-sync")
	standby.start() // -w: returns once it accepts connections
	t.Cleanup(func() {
		exec.Command("runuser", "-u", "postgres", "--", "pg_ctl", "-D", filepath.Join(dir, "data"),
			"stop", "-m", "immediate").Run()
	})
	r := &replicated{primary: primary, standby: standby}
	if got := r.onStandby(t, "SELECT pg_is_in_recovery()"); got != "t" {
		t.Fatalf("the copy is not a standby: pg_is_in_recovery() = %q", got)
	}
	return r
}

func splitAddr(t *testing.T, addr string) (host, port string) {
	t.Helper()
	i := strings.LastIndex(addr, ":")
	if i < 0 {
		t.Fatalf("bad address %q", addr)
	}
	return addr[:i], addr[i+1:]
}

// onStandby runs SQL as the superuser in the standby's database mdc.
func (r *replicated) onStandby(t *testing.T, query string) string {
	t.Helper()
	out, err := psql(r.standby.url("mdc"), query)
	if err != nil {
		t.Fatalf("on the standby, %q: %v", query, err)
	}
	return out
}

// onPrimary runs SQL as the superuser in the primary's database mdc.
func (r *replicated) onPrimary(t *testing.T, query string) string {
	t.Helper()
	out, err := psql(r.primary.url("mdc"), query)
	if err != nil {
		t.Fatalf("on the primary, %q: %v", query, err)
	}
	return out
}

// pauseReplay stops the standby applying WAL (it still receives it), so it
// falls behind as the primary writes; resumeReplay lets it catch up.
func (r *replicated) pauseReplay(t *testing.T) {
	t.Helper()
	r.onStandby(t, "SELECT pg_wal_replay_pause()")
}

func (r *replicated) resumeReplay(t *testing.T) {
	t.Helper()
	r.onStandby(t, "SELECT pg_wal_replay_resume()")
}

// caughtUp waits until the standby has replayed everything the primary has
// written so far.
func (r *replicated) caughtUp(t *testing.T) {
	t.Helper()
	target := r.onPrimary(t, "SELECT pg_current_wal_lsn()")
	eventually(t, "the standby replays up to "+target, func() string {
		got, err := psql(r.standby.url("mdc"), "SELECT pg_last_wal_replay_lsn() >= '"+target+"'::pg_lsn")
		if err != nil {
			return err.Error()
		}
		if got != "t" {
			return "not yet"
		}
		return ""
	})
}

// replicaEnv is the server environment that reads from the standby with the
// lag bound maxLag (e.g. "5s"), serving metrics on metricsAddr.
func (r *replicated) replicaEnv(maxLag, metricsAddr string) []string {
	return []string{
		"DATABASE_READ_URL=" + r.standby.url("mdc"),
		"MDC_REPLICA_MAX_LAG=" + maxLag,
		"MDC_METRICS_ADDR=" + metricsAddr,
	}
}

// replicaMetrics is what a server's /metrics says of the replica.
type replicaMetrics struct {
	inUse        float64
	lag          float64
	replicaReads float64
	primaryReads float64
	fallbacks    map[string]float64 // by reason
}

func scrapeReplica(t *testing.T, metricsAddr string) replicaMetrics {
	t.Helper()
	sc := fetchScrape(t, metricsAddr)
	m := replicaMetrics{
		inUse:        sc.sum("mdc_replica_in_use", nil),
		lag:          sc.sum("mdc_replica_lag_seconds", nil),
		replicaReads: sc.sum("mdc_replica_reads_total", map[string]string{"database": "replica"}),
		primaryReads: sc.sum("mdc_replica_reads_total", map[string]string{"database": "primary"}),
		fallbacks:    map[string]float64{},
	}
	for _, smp := range sc.find("mdc_replica_fallbacks_total", nil) {
		m.fallbacks[smp.labels["reason"]] += smp.value
	}
	return m
}

func (m replicaMetrics) String() string {
	return fmt.Sprintf("in_use %v, lag %vs, reads replica %v / primary %v, fallbacks %v",
		m.inUse, m.lag, m.replicaReads, m.primaryReads, m.fallbacks)
}

// waitReplicaInUse waits until the server says replica reads go to the
// replica (mdc_replica_in_use 1) or not (0).
func waitReplicaInUse(t *testing.T, metricsAddr string, inUse bool) {
	t.Helper()
	want := 0.0
	if inUse {
		want = 1
	}
	eventually(t, "mdc_replica_in_use = "+strconv.FormatFloat(want, 'f', -1, 64), func() string {
		if m := scrapeReplica(t, metricsAddr); m.inUse != want {
			return m.String()
		}
		return ""
	})
}
