package e2e

// Harness for the scale-out tests (scale_test.go): one database, several
// mdc-server processes on their own ports and one mdc-gateway given all
// their addresses as a list (MDC_GRPC_ADDR=host:port,host:port).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// fleet is a private Stack (its database, its gateway, and its server as
// servers[0]) with more servers on the same database behind the gateway.
type fleet struct {
	*Stack
	servers []*process
	addrs   []string // gRPC address of each server
}

// startFleet starts a private stack, n-1 more servers on its database, and
// then the gateway again with every server's address. It waits until each
// server serves and GET /health answers 200. Everything stops when t ends;
// when t fails, the tails of the extra servers' logs are printed too (the
// stack prints its own).
func startFleet(t *testing.T, n int) *fleet {
	t.Helper()
	return startFleetWith(t, n, StackOptions{}, nil)
}

// startFleetWith is startFleet with the stack's options (the first
// server's environment, a database of the test's own) and, when serverEnv
// is not nil, serverEnv(i) added to server i's environment (e.g. its own
// metrics address).
func startFleetWith(t *testing.T, n int, opts StackOptions, serverEnv func(i int) []string) *fleet {
	t.Helper()
	own := func(i int) []string {
		if serverEnv == nil {
			return nil
		}
		return serverEnv(i)
	}
	opts.Env = append(append([]string{}, opts.Env...), own(0)...)
	s := StartStackWith(t, opts)
	f := &fleet{Stack: s, servers: []*process{s.server}, addrs: []string{s.grpcAddr}}
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range f.servers[1:] {
				t.Logf("\n%s", tail(p))
			}
		}
		for _, p := range f.servers[1:] {
			if err := p.stop(stopGrace); err != nil {
				t.Logf("shutdown: %v", err)
			}
		}
	})
	for i := 1; i < n; i++ {
		addr, err := freeAddr()
		if err != nil {
			t.Fatal(err)
		}
		p := &process{
			name:    fmt.Sprintf("mdc-server-%d", i+1),
			bin:     env.serverBin,
			logPath: filepath.Join(s.logDir, fmt.Sprintf("server-%d.log", i+1)),
			// The first server's environment, on another port; the
			// later entry wins.
			env: append(append(append([]string{}, s.server.env...), own(i)...), "MDC_GRPC_ADDR="+addr),
		}
		f.servers = append(f.servers, p)
		f.addrs = append(f.addrs, addr)
		if err := p.start(); err != nil {
			t.Fatal(err)
		}
		f.waitServing(t, i)
	}
	// The gateway again, with the list.
	if err := s.gateway.stop(stopGrace); err != nil {
		t.Fatalf("stopping the gateway: %v", err)
	}
	s.gateway.env = append(s.gateway.env, "MDC_GRPC_ADDR="+strings.Join(f.addrs, ","))
	s.StartGateway(t)
	return f
}

// waitServing waits until server i answers SERVING to grpc.health.v1.
func (f *fleet) waitServing(t *testing.T, i int) {
	t.Helper()
	conn, err := grpc.NewClient(f.addrs[i], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	deadline := time.Now().Add(healthTimeout)
	for {
		if msg := f.servers[i].exited(); msg != "" {
			t.Fatalf("%s\n%s", msg, tail(f.servers[i]))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		r, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err == nil && r.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not serve within %v (last: %v %v)", f.servers[i].name, healthTimeout, r.GetStatus(), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// restart starts server i again on its address and database and waits
// until it serves (the gateway finds it by itself).
func (f *fleet) restart(t *testing.T, i int) {
	t.Helper()
	if err := f.servers[i].start(); err != nil {
		t.Fatalf("starting %s: %v", f.servers[i].name, err)
	}
	f.waitServing(t, i)
}

// logSize is where server i's log ends now, a mark for calls.
func (f *fleet) logSize(i int) int64 {
	fi, err := os.Stat(f.servers[i].logPath)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// calls counts the calls of method (e.g. "SaveQuotes") that server i
// logged after mark (its access log: one "request" line per call).
func (f *fleet) calls(t *testing.T, i int, method string, mark int64) int {
	t.Helper()
	file, err := os.Open(f.servers[i].logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.Seek(mark, 0); err != nil {
		t.Fatal(err)
	}
	n := 0
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var line struct {
			Msg    string `json:"msg"`
			Method string `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "request" && line.Method == method {
			n++
		}
	}
	return n
}

// retriedRequests counts the requests the gateway answered after sending
// their call again on another server (its log lines with "retries"), by
// the error that was retried.
func (f *fleet) retriedRequests(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile(f.gateway.logPath)
	if err != nil {
		t.Fatal(err)
	}
	byError := map[string]int{}
	for _, raw := range strings.Split(string(data), "\n") {
		var line struct {
			Retries int    `json:"retries"`
			Retried string `json:"retried_error"`
		}
		if json.Unmarshal([]byte(raw), &line) == nil && line.Retries > 0 {
			byError[line.Retried]++
		}
	}
	return byError
}

// tail is the last lines of a process's log.
func tail(p *process) string {
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("---- %s: %v", p.name, err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return fmt.Sprintf("---- last %d lines of %s (%s)\n%s", len(lines), p.name, p.logPath, strings.Join(lines, "\n"))
}
