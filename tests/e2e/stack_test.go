package e2e

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mdc-project/mdc/clients/go/teststack"
)

const (
	healthTimeout = 30 * time.Second
	stopGrace     = 20 * time.Second
)

// Stack is one running mdc: its own database, an mdc-server and an
// mdc-gateway on free loopback ports, with their logs in a temporary folder.
type Stack struct {
	ts         *teststack.Stack // as scripts/stack.sh started it
	adminToken string
	dbName     string // the stack's own database; "" when opts named one
	dbURL      string // URL of the database the server runs on
	grpcAddr   string
	httpAddr   string
	logDir     string
	server     *process
	gateway    *process
	client     *http.Client
	https      bool // the gateway serves HTTPS (StackOptions.ClientTLS)
}

// AdminToken is the token of the bootstrap admin (MDC_ADMIN_TOKEN).
func (s *Stack) AdminToken() string { return s.adminToken }

// BaseURL is the gateway's address, e.g. http://127.0.0.1:41234.
func (s *Stack) BaseURL() string {
	if s.https {
		return "https://" + s.httpAddr
	}
	return "http://" + s.httpAddr
}

// GRPCAddr is the server's gRPC address, e.g. 127.0.0.1:41235.
func (s *Stack) GRPCAddr() string { return s.grpcAddr }

// DatabaseURL is the URL of the stack's own database.
func (s *Stack) DatabaseURL() string { return s.dbURL }

// StackOptions changes what StartStackWith starts.
type StackOptions struct {
	// Env is added to mdc-server's environment after the harness's own
	// entries, so it may override them, e.g. "MDC_SECRET_KEY=<64 hex>".
	Env []string
	// DatabaseURL points the server at this database instead of a fresh one
	// created from MDC_TEST_DATABASE_URL. The harness neither creates nor
	// drops it; SQL runs there.
	DatabaseURL string
	// GatewayEnv is added to mdc-gateway's environment after the harness's
	// own entries, e.g. "MDC_GATEWAY_METRICS_ADDR=127.0.0.1:9465".
	GatewayEnv []string
	// ClientTLS, when set, makes the harness speak HTTPS to the gateway with
	// it (the gateway then needs MDC_TLS_CERT and MDC_TLS_KEY in GatewayEnv).
	ClientTLS *tls.Config
}

// StartStack starts a private stack for t and stops it, and drops its
// database, when t ends. When t fails, the tails of both logs are printed.
func StartStack(t *testing.T) *Stack {
	t.Helper()
	return StartStackWith(t, StackOptions{})
}

// StartStackWith is StartStack with options: extra server environment, or a
// database of the test's own.
func StartStackWith(t *testing.T, opts StackOptions) *Stack {
	t.Helper()
	s, err := startStack(t, opts)
	if err != nil {
		if s != nil {
			s.logTails(t, nil)
			s.shutdown(t, true)
		}
		t.Fatalf("starting a stack: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			s.logTails(t, nil)
			t.Logf("logs kept in %s", s.logDir)
		}
		s.shutdown(t, t.Failed())
	})
	return s
}

// startStack starts a stack through scripts/stack.sh, the one launcher of
// every suite (package teststack): a fresh database (unless opts names one),
// the server and the gateway, healthy when it returns. The script reports
// and keeps the logs of a stack that failed to start.
func startStack(log logger, opts StackOptions) (*Stack, error) {
	ts, err := teststack.Start(teststack.Options{
		ServerEnv: opts.Env,
		// The tests stand where a load balancer would: a test that plays
		// many clients names each by X-Forwarded-For, so the failed-token
		// throttle counts them apart.
		GatewayEnv:  append([]string{"MDC_GATEWAY_TRUSTED_PROXIES=127.0.0.1,::1"}, opts.GatewayEnv...),
		DatabaseURL: opts.DatabaseURL,
		DBPrefix:    "mdc_e2e_",
	})
	if err != nil {
		return nil, err
	}
	s := &Stack{
		ts:         ts,
		adminToken: ts.AdminToken,
		dbName:     ts.Database,
		dbURL:      ts.DatabaseURL,
		grpcAddr:   ts.GRPCAddr,
		httpAddr:   ts.HTTPAddr,
		logDir:     ts.Dir,
		client:     &http.Client{Timeout: 30 * time.Second, Transport: clientTransport(opts.ClientTLS)},
		https:      opts.ClientTLS != nil,
	}
	s.server = &process{name: "mdc-server", stack: ts, role: "server", logPath: ts.Logs.Server}
	s.gateway = &process{name: "mdc-gateway", stack: ts, role: "gateway", logPath: ts.Logs.Gateway}
	for _, p := range []*process{s.server, s.gateway} {
		if p.env, err = ts.Env(p.role); err != nil {
			return s, err
		}
	}
	if err := s.waitHealthy(); err != nil {
		return s, err
	}
	log.Logf("stack up: http %s, grpc %s, database %s, logs %s", s.httpAddr, s.grpcAddr, s.dbName, s.logDir)
	return s, nil
}

// waitHealthy polls GET /health until it answers 200, a process exits, or
// healthTimeout passes.
func (s *Stack) waitHealthy() error {
	deadline := time.Now().Add(healthTimeout)
	client := &http.Client{Timeout: 2 * time.Second, Transport: s.client.Transport}
	last := "no answer yet"
	for {
		for _, p := range []*process{s.server, s.gateway} {
			if msg := p.exited(); msg != "" {
				return errors.New(msg)
			}
		}
		resp, err := client.Get(s.BaseURL() + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = "status " + resp.Status
		} else {
			last = err.Error()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("GET %s/health did not answer 200 within %v (last: %s)", s.BaseURL(), healthTimeout, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// clientTransport is the HTTP transport of a stack's client: the default,
// or one that speaks TLS with cfg.
func clientTransport(cfg *tls.Config) http.RoundTripper {
	if cfg == nil {
		return nil
	}
	return &http.Transport{TLSClientConfig: cfg}
}

// StopServer stops mdc-server (SIGTERM, it drains) and leaves the gateway
// running, e.g. to see the gateway answer 503. Only for private stacks.
func (s *Stack) StopServer(t *testing.T) {
	t.Helper()
	s.mustBePrivate(t)
	if err := s.server.stop(stopGrace); err != nil {
		t.Errorf("stopping mdc-server: %v", err)
	}
}

// StopBoth stops the gateway, then mdc-server (SIGTERM: each answers what
// it holds and exits), so that their logs are complete: a test reads a line
// written after an answer without waiting for it by the clock. Only for
// private stacks.
func (s *Stack) StopBoth(t *testing.T) {
	t.Helper()
	s.mustBePrivate(t)
	for _, p := range []*process{s.gateway, s.server} {
		if err := p.stop(stopGrace); err != nil {
			t.Errorf("stopping %s: %v", p.name, err)
		}
	}
}

// StartServer starts mdc-server again on the same address and database and
// waits until GET /health answers 200 through the gateway.
func (s *Stack) StartServer(t *testing.T) {
	t.Helper()
	s.mustBePrivate(t)
	if err := s.server.start(); err != nil {
		t.Fatalf("starting mdc-server: %v", err)
	}
	if err := s.waitHealthy(); err != nil {
		t.Fatalf("after restarting mdc-server: %v", err)
	}
	if err := s.waitCallsReach(); err != nil {
		t.Fatalf("after restarting mdc-server: %v", err)
	}
}

// waitCallsReach waits until calls through the gateway reach the server:
// /health and the unary calls share one connection, and exports and watches
// take others (upstream.StreamPool), each of which can still be waiting out
// its reconnect backoff (up to upstream.MaxReconnectDelay) after a restart
// while /health answers 200; a call then gets 503. A call without a token
// that reaches the server gets 401.
func (s *Stack) waitCallsReach() error {
	deadline := time.Now().Add(healthTimeout)
	client := &http.Client{Timeout: 2 * time.Second, Transport: s.client.Transport}
	for _, path := range []string{
		"/v1/developer/quote?symbol=INFY",
		"/v1/developer/export/quotes?start_date=2035-01-01&format=csv",
	} {
		last := "no answer yet"
		for {
			resp, err := client.Get(s.BaseURL() + path)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusUnauthorized {
					break
				}
				last = "status " + resp.Status
			} else {
				last = err.Error()
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("GET %s did not reach mdc-server within %v (last: %s)", path, healthTimeout, last)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

// RunServerCommand runs mdc-server as an operator's command line, e.g.
// `mdc-server create-developer --username ops`, against the stack's
// database, and returns its trimmed stdout, its stderr and how it exited.
func (s *Stack) RunServerCommand(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, env.serverBin, args...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+s.dbURL)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return strings.TrimSpace(out.String()), errOut.String(), err
}

func (s *Stack) mustBePrivate(t *testing.T) {
	t.Helper()
	if s == env.sharedStack {
		t.Fatal("the shared stack must not be stopped or restarted: use StartStack(t)")
	}
}

// shutdown stops the gateway, then the server, then drops the database the
// stack created and, unless keepLogs, removes its folder. Problems are
// reported through log; an unclean server exit is one (the folder is then
// kept).
func (s *Stack) shutdown(log logger, keepLogs bool) {
	stop := s.ts.Stop
	if keepLogs {
		stop = s.ts.StopKeep
	}
	if err := stop(); err != nil {
		log.Logf("shutdown: %v", err)
	}
}

// Logs --------------------------------------------------------------------

const tailLines = 60

// logMarks records how long each log is now, so a failing test can show
// only what was written during it.
func (s *Stack) logMarks() map[string]int64 {
	marks := map[string]int64{}
	for _, p := range []*process{s.server, s.gateway} {
		if fi, err := os.Stat(p.logPath); err == nil {
			marks[p.logPath] = fi.Size()
		}
	}
	return marks
}

// logTails logs, through t, the last lines of both logs written after
// marks (the whole logs when marks is nil).
func (s *Stack) logTails(t *testing.T, marks map[string]int64) {
	t.Helper()
	var b strings.Builder
	s.writeLogTails(&b, marks)
	t.Log("\n" + b.String())
}

func (s *Stack) writeLogTails(w io.Writer, marks map[string]int64) {
	for _, p := range []*process{s.server, s.gateway} {
		if p == nil {
			continue
		}
		data, err := os.ReadFile(p.logPath)
		if err != nil {
			fmt.Fprintf(w, "---- %s: %v\n", p.name, err)
			continue
		}
		if off := marks[p.logPath]; off > 0 && off <= int64(len(data)) {
			data = data[off:]
		}
		text := strings.TrimRight(string(data), "\n")
		if text == "" {
			fmt.Fprintf(w, "---- %s wrote nothing (%s)\n", p.name, p.logPath)
			continue
		}
		lines := strings.Split(text, "\n")
		if len(lines) > tailLines {
			lines = lines[len(lines)-tailLines:]
		}
		fmt.Fprintf(w, "---- last %d lines of %s (%s)\n%s\n", len(lines), p.name, p.logPath, strings.Join(lines, "\n"))
	}
}
