//go:build failover

package e2e

// Harness of the failover tests (failover_*_test.go, the ctest test
// `failover`): a highly available PostgreSQL of three members managed by
// Patroni with one etcd, all local processes on free loopback ports under a
// temporary folder, configured as docs/deployment.md describes
// (synchronous_mode and synchronous_mode_strict on).

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pgBinDir holds PostgreSQL 15's server programs on Debian 12.
const pgBinDir = "/usr/lib/postgresql/15/bin"

// haCluster is etcd and three Patroni members, each managing a PostgreSQL.
type haCluster struct {
	t       *testing.T
	dir     string
	etcd    *process
	members []*haMember
}

// haMember is one Patroni member: its names, ports, and process.
type haMember struct {
	name    string
	dir     string // config, logs, socket; data in dir/data
	pgAddr  string // 127.0.0.1:port of its PostgreSQL
	apiAddr string // 127.0.0.1:port of Patroni's REST API
	patroni *process
}

func (m *haMember) config() string  { return filepath.Join(m.dir, "patroni.yml") }
func (m *haMember) dataDir() string { return filepath.Join(m.dir, "data") }

// startHACluster starts etcd and three members and waits until one leads
// and both others stream from it, one of them as the synchronous standby.
func startHACluster(t *testing.T) *haCluster {
	t.Helper()
	for _, bin := range []string{"etcd", "patroni", "patronictl", filepath.Join(pgBinDir, "postgres")} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is missing: scripts/install-deps.sh test installs it (Debian's patroni, etcd-server, postgresql-15)", bin)
		}
	}
	pg, err := user.Lookup("postgres")
	if err != nil {
		t.Fatalf("no postgres user: %v", err)
	}
	uid, _ := strconv.Atoi(pg.Uid)
	gid, _ := strconv.Atoi(pg.Gid)
	asPG := &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}

	dir, err := os.MkdirTemp("", "mdc-failover-")
	if err != nil {
		t.Fatal(err)
	}
	// Patroni runs as postgres and reads its configuration under dir.
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	c := &haCluster{t: t, dir: dir}
	t.Cleanup(func() {
		c.stopAll()
		if !t.Failed() {
			os.RemoveAll(dir)
		} else {
			t.Logf("failover cluster logs kept in %s", dir)
		}
	})

	clientAddr, peerAddr := mustFreeAddr(t), mustFreeAddr(t)
	c.etcd = &process{
		name:    "etcd",
		bin:     "etcd",
		logPath: filepath.Join(dir, "etcd.log"),
		args: []string{
			"--name", "e0", "--data-dir", filepath.Join(dir, "etcd"),
			"--listen-client-urls", "http://" + clientAddr, "--advertise-client-urls", "http://" + clientAddr,
			"--listen-peer-urls", "http://" + peerAddr, "--initial-advertise-peer-urls", "http://" + peerAddr,
			"--initial-cluster", "e0=http://" + peerAddr,
		},
	}
	if err := c.etcd.start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		m := &haMember{
			name:    fmt.Sprintf("m%d", i),
			dir:     filepath.Join(dir, fmt.Sprintf("m%d", i)),
			pgAddr:  mustFreeAddr(t),
			apiAddr: mustFreeAddr(t),
		}
		if err := os.MkdirAll(m.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(m.config(), []byte(patroniConfig(m, clientAddr)), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(m.dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(m.config(), uid, gid); err != nil {
			t.Fatal(err)
		}
		m.patroni = &process{
			name:    "patroni " + m.name,
			bin:     "patroni",
			args:    []string{m.config()},
			logPath: filepath.Join(m.dir, "patroni.log"),
			runAs:   asPG,
		}
		c.members = append(c.members, m)
	}
	// The first member bootstraps the cluster alone; the others then clone
	// it (started together, they would race for the initialize key, which
	// Patroni handles, but the log is easier to read this way).
	if err := c.members[0].patroni.start(); err != nil {
		t.Fatal(err)
	}
	c.waitFor("the first member leads", 60*time.Second, func(ms []memberState) string {
		if leader := leaderOf(ms); leader != "m0" {
			return fmt.Sprintf("leader %q", leader)
		}
		return ""
	})
	for _, m := range c.members[1:] {
		if err := m.patroni.start(); err != nil {
			t.Fatal(err)
		}
	}
	c.waitHealthy("three members")
	return c
}

// patroniConfig is one member's Patroni configuration: the settings of
// docs/deployment.md, with loop_wait and ttl at their minimum so that the
// test's failover is quick.
func patroniConfig(m *haMember, etcdAddr string) string {
	_, pgPort, _ := net.SplitHostPort(m.pgAddr)
	return fmt.Sprintf(`scope: mdc-failover-test
name: %[1]s
restapi:
  listen: %[2]s
  connect_address: %[2]s
etcd3:
  hosts: %[3]s
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 1
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        max_connections: 60
        shared_buffers: 32MB
  initdb:
    - encoding: UTF8
    - auth: trust
postgresql:
  listen: 127.0.0.1:%[4]s
  connect_address: 127.0.0.1:%[4]s
  data_dir: %[5]s
  bin_dir: %[6]s
  pgpass: %[7]s
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
  authentication:
    superuser:
      username: postgres
      password: failover-test
    replication:
      username: replicator
      password: failover-test
  parameters:
    unix_socket_directories: %[8]s
    port: %[4]s
`, m.name, m.apiAddr, etcdAddr, pgPort, m.dataDir(), pgBinDir, filepath.Join(m.dir, "pgpass"), m.dir)
}

// url is the libpq multi-host URL of database db on the cluster: every
// member, and target_session_attrs=read-write so a connection finds the
// primary wherever it is (docs/deployment.md).
func (c *haCluster) url(db string) string {
	hosts := make([]string, len(c.members))
	for i, m := range c.members {
		hosts[i] = m.pgAddr
	}
	return "postgres://postgres@" + strings.Join(hosts, ",") + "/" + db + "?target_session_attrs=read-write"
}

// memberState is one member as Patroni's GET /cluster reports it.
type memberState struct {
	Name  string `json:"name"`
	Role  string `json:"role"`  // leader, sync_standby, replica
	State string `json:"state"` // running, streaming, starting, ...
	Lag   any    `json:"lag"`
}

// states asks the members' REST APIs, in turn, for the cluster's members.
func (c *haCluster) states() ([]memberState, error) {
	client := &http.Client{Timeout: 2 * time.Second}
	var lastErr error
	for _, m := range c.members {
		resp, err := client.Get("http://" + m.apiAddr + "/cluster")
		if err != nil {
			lastErr = err
			continue
		}
		var body struct {
			Members []memberState `json:"members"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil {
			lastErr = err
			continue
		}
		return body.Members, nil
	}
	return nil, lastErr
}

func leaderOf(ms []memberState) string {
	for _, m := range ms {
		if m.Role == "leader" && m.State == "running" {
			return m.Name
		}
	}
	return ""
}

// waitFor polls the cluster's state until check returns "" or within
// passes.
func (c *haCluster) waitFor(what string, within time.Duration, check func([]memberState) string) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	problem := ""
	for time.Now().Before(deadline) {
		ms, err := c.states()
		if err != nil {
			problem = err.Error()
		} else if problem = check(ms); problem == "" {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	ms, _ := c.states()
	c.t.Fatalf("%s: not within %v: %s (members %+v)", what, within, problem, ms)
}

// waitHealthy waits until a leader runs and both other members stream
// from it, one as its synchronous standby.
func (c *haCluster) waitHealthy(what string) string {
	c.t.Helper()
	var leader string
	c.waitFor(what+": a leader, a synchronous standby and a replica", 120*time.Second, func(ms []memberState) string {
		leader = leaderOf(ms)
		roles := map[string]int{}
		for _, m := range ms {
			if m.State == "running" || m.State == "streaming" {
				roles[m.Role]++
			}
		}
		if leader == "" || roles["sync_standby"] != 1 || roles["replica"] != 1 || len(ms) != 3 {
			return fmt.Sprintf("roles %v", roles)
		}
		return ""
	})
	return leader
}

func (c *haCluster) member(name string) *haMember {
	for _, m := range c.members {
		if m.name == name {
			return m
		}
	}
	c.t.Fatalf("no member %q", name)
	return nil
}

// loseDatabaseMachine is the loss of a member's database machine as far
// as PostgreSQL goes: its data directory disappears and its postmaster is
// killed (SIGKILL, no shutdown). Its Patroni keeps running, as the agent of
// a replaced machine would: it finds the data directory empty, gives up the
// leader key, and rebuilds the member as a standby of the new leader.
//
// The directory is first renamed away (at once, as a lost disk; the
// processes still running keep writing into it by their working
// directory), then the postmaster is killed, then the renamed directory is
// deleted. A Patroni that found the postmaster dead while its directory
// still held files would restart PostgreSQL there (crash recovery) and keep
// the leader key while that fails. It returns when the postmaster was
// killed.
func (c *haCluster) loseDatabaseMachine(name string) time.Time {
	c.t.Helper()
	m := c.member(name)
	pidFile, err := os.ReadFile(filepath.Join(m.dataDir(), "postmaster.pid"))
	if err != nil {
		c.t.Fatalf("postmaster.pid of %s: %v", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(pidFile), "\n", 2)[0]))
	if err != nil {
		c.t.Fatalf("postmaster.pid of %s: %v", name, err)
	}
	lost := m.dataDir() + ".lost"
	if err := os.Rename(m.dataDir(), lost); err != nil {
		c.t.Fatalf("taking the data directory of %s away: %v", name, err)
	}
	killedAt := time.Now()
	// ESRCH: it already ended (its Patroni stopped it on finding the
	// directory gone).
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		c.t.Fatalf("killing the postmaster of %s: %v", name, err)
	}
	// Its other processes notice the postmaster's death and end; until
	// they have, one may still create a file there.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := os.RemoveAll(lost)
		if err == nil {
			return killedAt
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("deleting the data directory of %s: %v", name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// patronictl runs patronictl with the first member's configuration.
func (c *haCluster) patronictl(args ...string) string {
	c.t.Helper()
	cmd := exec.Command("patronictl", append([]string{"-c", c.members[0].config()}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		c.t.Fatalf("patronictl %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// stopAll kills every Patroni, every postmaster and etcd.
func (c *haCluster) stopAll() {
	for _, m := range c.members {
		if m.patroni.running() {
			m.patroni.cmd.Process.Kill()
			<-m.patroni.done
		}
		if pidFile, err := os.ReadFile(filepath.Join(m.dataDir(), "postmaster.pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(pidFile), "\n", 2)[0])); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	if c.etcd != nil && c.etcd.running() {
		c.etcd.cmd.Process.Kill()
		<-c.etcd.done
	}
}

func mustFreeAddr(t *testing.T) string {
	t.Helper()
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}
