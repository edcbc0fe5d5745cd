package mdcclient_test

// A real mdc-server for the stream tests, started by scripts/stack.sh (the
// one launcher of every suite, through package teststack): a fresh database
// created from MDC_TEST_DATABASE_URL (scripts/test.sh exports it) and the
// binary named by MDC_SERVER_BIN on a free 127.0.0.1 port; the gateway
// (MDC_GATEWAY_BIN) only for the tests that ask for it (startGateway).
// Without those variables the tests are skipped, unless MDC_REQUIRE_STACK=1
// (ctest sets it) makes that a failure.

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
	"github.com/mdc-project/mdc/clients/go/teststack"
)

const (
	startTimeout = 30 * time.Second
	// watchHeartbeat is how often the server sends an idle watch a message
	// (MDC_WATCH_HEARTBEAT): short, so that the stream tests see heartbeats
	// and can use a short idle timeout.
	watchHeartbeat = time.Second
)

// mdcServer is one mdc-server on its own database.
type mdcServer struct {
	t          *testing.T
	stack      *teststack.Stack
	addr       string
	adminToken string
	logPath    string
	down       bool // stopped or killed by the test
}

// startMdcServer creates a database and starts mdc-server on it; both go away
// when the test ends.
func startMdcServer(t *testing.T) *mdcServer {
	t.Helper()
	if os.Getenv("MDC_SERVER_BIN") == "" || os.Getenv("MDC_TEST_DATABASE_URL") == "" {
		msg := "MDC_SERVER_BIN and MDC_TEST_DATABASE_URL are needed (scripts/test.sh -R go-client sets them)"
		if os.Getenv("MDC_REQUIRE_STACK") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	stack, err := teststack.Start(teststack.Options{
		NoGateway: true,
		DBPrefix:  "mdc_goclient_",
		ServerEnv: []string{fmt.Sprintf("MDC_WATCH_HEARTBEAT=%d", int(watchHeartbeat.Seconds()))},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &mdcServer{t: t, stack: stack, addr: stack.GRPCAddr, adminToken: stack.AdminToken, logPath: stack.Logs.Server}
	t.Cleanup(func() {
		if !s.down {
			if err := stack.Check(); err != nil {
				t.Errorf("mdc-server ended by itself: %v\n%s", err, s.logTail())
			}
		}
		if t.Failed() {
			t.Logf("mdc-server log:\n%s", s.logTail())
		}
		if err := stack.Stop(); err != nil {
			t.Error(err)
		}
	})
	s.waitHealthy()
	return s
}

// waitHealthy waits until HealthService.Check answers.
func (s *mdcServer) waitHealthy() {
	s.t.Helper()
	conn, err := mdcclient.Dial(s.addr, "")
	if err != nil {
		s.t.Fatal(err)
	}
	defer conn.Close()
	health := mdcv1.NewHealthServiceClient(conn)
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := health.Check(ctx, &mdcv1.HealthCheckRequest{})
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("mdc-server at %s not healthy within %s (last: %v)\n%s", s.addr, startTimeout, err, s.logTail())
		}
		time.Sleep(100 * time.Millisecond) // polling, not ordering
	}
}

// start starts the server again (after stop or kill) on the same address
// and database, and waits until HealthService.Check answers.
func (s *mdcServer) start() {
	s.t.Helper()
	if err := s.stack.Resume("server"); err != nil {
		s.t.Fatalf("%v\n%s", err, s.logTail())
	}
	s.down = false
	s.waitHealthy()
}

// stop sends SIGTERM (the server drains) and waits for the process.
func (s *mdcServer) stop() {
	s.t.Helper()
	s.down = true
	if err := s.stack.StopProcess("server"); err != nil {
		s.t.Errorf("%v\n%s", err, s.logTail())
	}
}

// newDeveloper creates a developer named prefix plus a random suffix with
// the admin token and returns its token.
func (s *mdcServer) newDeveloper(t *testing.T, prefix string) string {
	t.Helper()
	admin, err := mdcclient.Dial(s.addr, s.adminToken)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dev, err := mdcv1.NewAdminServiceClient(admin).CreateDeveloper(ctx,
		&mdcv1.CreateDeveloperRequest{Username: prefix + randomHex(t, 3), Role: "developer"})
	if err != nil {
		t.Fatalf("CreateDeveloper: %v", err)
	}
	return dev.GetToken()
}

// dial is a connection to the server with token, closed when the test ends.
func (s *mdcServer) dial(t *testing.T, token string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	return dialAddr(t, s.addr, token, opts...)
}

// dialAddr is a connection to addr with token, closed when the test ends.
func dialAddr(t *testing.T, addr, token string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	conn, err := mdcclient.Dial(addr, token, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func (s *mdcServer) logTail() string {
	return tail(s.logPath)
}

// tail is the last 40 lines of the file at path.
func tail(path string) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}

func psql(t *testing.T, dbURL, sql string) {
	t.Helper()
	bin, err := exec.LookPath("psql")
	if err != nil {
		bin = "/usr/lib/postgresql/15/bin/psql"
	}
	out, err := exec.Command(bin, "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1",
		"--dbname="+dbURL, "--command="+sql).CombinedOutput()
	if err != nil {
		t.Fatalf("psql %q: %v\n%s", sql, err, out)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	return lis.Addr().String()
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// randomToken is shaped like the service's tokens: "mdc_" and 256 bits.
func randomToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "mdc_" + base64.RawURLEncoding.EncodeToString(b)
}
