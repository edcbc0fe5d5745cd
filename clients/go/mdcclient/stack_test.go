package mdcclient_test

// A real mdc-server for the stream tests, as examples/go's test starts one: a
// fresh database created from MDC_TEST_DATABASE_URL (scripts/test.sh exports
// it) and the binary named by MDC_SERVER_BIN on a free 127.0.0.1 port.
// Without those variables the tests are skipped, unless MDC_REQUIRE_STACK=1
// (ctest sets it) makes that a failure.

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

const (
	startTimeout = 30 * time.Second
	stopGrace    = 20 * time.Second
	// watchHeartbeat is how often the server sends an idle watch a message
	// (MDC_WATCH_HEARTBEAT): short, so that the stream tests see heartbeats
	// and can use a short idle timeout.
	watchHeartbeat = time.Second
)

// mdcServer is one mdc-server on its own database.
type mdcServer struct {
	t          *testing.T
	bin        string
	addr       string
	adminToken string
	env        []string
	logPath    string
	cmd        *exec.Cmd
	exited     chan error
}

// startMdcServer creates a database and starts mdc-server on it; both go away
// when the test ends.
func startMdcServer(t *testing.T) *mdcServer {
	t.Helper()
	bin, superURL := os.Getenv("MDC_SERVER_BIN"), os.Getenv("MDC_TEST_DATABASE_URL")
	if bin == "" || superURL == "" {
		msg := "MDC_SERVER_BIN and MDC_TEST_DATABASE_URL are needed (scripts/test.sh -R go-client sets them)"
		if os.Getenv("MDC_REQUIRE_STACK") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dbName := "mdc_goclient_" + randomHex(t, 6)
	psql(t, superURL, "CREATE DATABASE "+dbName)
	t.Cleanup(func() { psql(t, superURL, "DROP DATABASE IF EXISTS "+dbName+" WITH (FORCE)") })
	dbURL, err := url.Parse(superURL)
	if err != nil {
		t.Fatalf("MDC_TEST_DATABASE_URL: %v", err)
	}
	dbURL.Path = "/" + dbName

	s := &mdcServer{t: t, bin: bin, addr: freeAddr(t), adminToken: randomToken(t),
		logPath: filepath.Join(t.TempDir(), "server.log")}
	s.env = append(os.Environ(),
		"DATABASE_URL="+dbURL.String(),
		"MDC_GRPC_ADDR="+s.addr,
		"MDC_ADMIN_TOKEN="+s.adminToken,
		"MDC_METRICS_ADDR=",  // no metrics listener: ports stay free
		"MDC_DB_POOL_SIZE=4", // several suites share one test cluster
		"MDC_SECRET_KEY=",
		"MDC_BROKER_TOKEN_URL=",
		fmt.Sprintf("MDC_WATCH_HEARTBEAT=%d", int(watchHeartbeat.Seconds())),
	)
	// Registered after the database's cleanup, so it runs before it.
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("mdc-server log:\n%s", s.logTail())
		}
	})
	s.start()
	return s
}

// start starts the server process and waits until HealthService.Check
// answers.
func (s *mdcServer) start() {
	s.t.Helper()
	logFile, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer logFile.Close()
	s.cmd = exec.Command(s.bin)
	s.cmd.Env = s.env
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	s.cmd.SysProcAttr = procAttr()
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting %s: %v", s.bin, err)
	}
	s.exited = make(chan error, 1)
	go func(cmd *exec.Cmd, exited chan<- error) { exited <- cmd.Wait() }(s.cmd, s.exited)

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
		select {
		case werr := <-s.exited:
			s.exited <- werr
			s.t.Fatalf("mdc-server exited during start-up: %v\n%s", werr, s.logTail())
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("mdc-server at %s not healthy within %s (last: %v)\n%s", s.addr, startTimeout, err, s.logTail())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM (the server drains) and waits for the process.
func (s *mdcServer) stop() {
	s.t.Helper()
	if s.cmd == nil {
		return
	}
	defer func() { s.cmd = nil }()
	select {
	case err := <-s.exited:
		s.t.Errorf("mdc-server ended by itself: %v\n%s", err, s.logTail())
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(stopGrace):
		_ = s.cmd.Process.Kill()
		<-s.exited
		s.t.Errorf("mdc-server did not exit within %s of SIGTERM\n%s", stopGrace, s.logTail())
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
	data, _ := os.ReadFile(s.logPath)
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
