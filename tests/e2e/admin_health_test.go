package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// stoppableCluster is a PostgreSQL cluster of this test alone, run as the
// postgres user under a temporary folder, so the test can stop and start it.
type stoppableCluster struct {
	t    *testing.T
	dir  string
	addr string // 127.0.0.1:port
}

func asPostgres(t *testing.T, args ...string) {
	t.Helper()
	out, err := exec.Command("runuser", append([]string{"-u", "postgres", "--"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

func startStoppableCluster(t *testing.T) *stoppableCluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "mdc-health-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	asPostgres(t, "true") // fails early without runuser or a postgres user
	if out, err := exec.Command("chown", "postgres", dir).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	c := &stoppableCluster{t: t, dir: dir, addr: addr}
	asPostgres(t, "initdb", "-D", filepath.Join(dir, "data"), "-A", "trust", "-U", "mdc", "--no-sync")
	c.start()
	t.Cleanup(func() {
		exec.Command("runuser", "-u", "postgres", "--", "pg_ctl", "-D", filepath.Join(dir, "data"),
			"stop", "-m", "immediate").Run()
	})
	if _, err := psql(c.url("postgres"), "CREATE DATABASE mdc"); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *stoppableCluster) url(db string) string {
	return fmt.Sprintf("postgres://mdc@%s/%s", c.addr, db)
}

func (c *stoppableCluster) start() {
	_, port, _ := net.SplitHostPort(c.addr)
	asPostgres(c.t, "pg_ctl", "-D", filepath.Join(c.dir, "data"), "-w", "-l", filepath.Join(c.dir, "log"),
		"-o", fmt.Sprintf("-p %s -k %s -c listen_addresses=127.0.0.1 -c fsync=off", port, c.dir), "start")
}

func (c *stoppableCluster) stop() {
	asPostgres(c.t, "pg_ctl", "-D", filepath.Join(c.dir, "data"), "-w", "stop", "-m", "fast")
}

// eventually polls check until it returns "" or 15 s pass.
func eventually(t *testing.T, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		problem := check()
		if problem == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s", what, problem)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestAdminHealthFollowsTheDatabase(t *testing.T) {
	cluster := startStoppableCluster(t)
	s := StartStackWith(t, StackOptions{DatabaseURL: cluster.url("mdc")})
	conn, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	grpcHealth := func(want healthpb.HealthCheckResponse_ServingStatus) func() string {
		return func() string {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			r, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
			if err != nil {
				return err.Error()
			}
			if r.GetStatus() != want {
				return "gRPC health is " + r.GetStatus().String()
			}
			return ""
		}
	}
	httpHealth := func(status int, body string) func() string {
		return func() string {
			for _, path := range []string{"/health", "/v1/health"} {
				r := s.Do(t, "GET", path, "", nil)
				if r.Status != status || r.JSON["status"] != body {
					return fmt.Sprintf("%s: %v", path, r)
				}
			}
			return ""
		}
	}

	eventually(t, "up", httpHealth(200, "SERVING"))
	eventually(t, "gRPC up", grpcHealth(healthpb.HealthCheckResponse_SERVING))

	// The collector writes take the asynchronous path (callback API,
	// storage/async_batcher.h): it must fail and recover the same way.
	_, developer := s.NewDeveloper(t, "developer")
	const niftyPath = "/v1/developer/collector/nifty"
	write := seedBody(t, "nifty_short.json", "UTC", "2033-02-01T05:00:00")
	invalidWrite := seedBody(t, "nifty_short.json", "Mars/Olympus", "2033-02-01T05:00:00")

	cluster.stop()
	eventually(t, "PostgreSQL stopped", httpHealth(503, "NOT_SERVING"))
	if r := s.Do(t, "POST", niftyPath, developer, write); r.Status != 503 {
		t.Errorf("a collector write while the database is down: want 503, got %v", r)
	}
	if r := s.Do(t, "POST", niftyPath, developer, invalidWrite); r.Status != 503 {
		t.Errorf("an invalid collector write (its token looked up) while the database is down: want 503, got %v", r)
	}
	if r := s.Do(t, "GET", "/health", "", nil); r.JSON["database"] != "unreachable" {
		t.Errorf("database while stopped: %v", r)
	}
	eventually(t, "gRPC with PostgreSQL stopped", grpcHealth(healthpb.HealthCheckResponse_NOT_SERVING))
	if r := s.Do(t, "GET", "/v1/admin/developers", s.AdminToken(), nil); r.Status != 503 {
		t.Errorf("a call needing the database while it is down: want 503, got %v", r)
	}

	cluster.start()
	eventually(t, "PostgreSQL started again", httpHealth(200, "SERVING"))
	eventually(t, "gRPC with PostgreSQL back", grpcHealth(healthpb.HealthCheckResponse_SERVING))
	// The pool reconnected: ordinary calls work again without a restart.
	eventually(t, "admin call after the outage", func() string {
		if r := s.Do(t, "GET", "/v1/admin/developers", s.AdminToken(), nil); r.Status != 200 {
			return r.String()
		}
		return ""
	})
	eventually(t, "collector write after the outage", func() string {
		if r := s.Do(t, "POST", niftyPath, developer, write); r.Status != 200 {
			return r.String()
		}
		return ""
	})
	if n := s.SQL(t, "SELECT count(*) FROM nifty_quotes WHERE observed_at = '2033-02-01T05:00:00Z'"); n != "1" {
		t.Errorf("%s rows stored after the outage, want 1", n)
	}
}
