package mdcclient_test

// An mdc-gateway in front of a test's mdc-server, for the tests of the
// HTTP helpers (DownloadExport): the binary named by MDC_GATEWAY_BIN (ctest
// sets it) on a free 127.0.0.1 port; skipped without it, unless
// MDC_REQUIRE_STACK=1 makes that a failure.

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startGateway starts mdc-gateway in front of s and returns its base URL,
// http://127.0.0.1:port, once GET /health answers 200; it stops when the
// test ends.
func startGateway(t *testing.T, s *mdcServer) string {
	t.Helper()
	bin := os.Getenv("MDC_GATEWAY_BIN")
	if bin == "" {
		msg := "MDC_GATEWAY_BIN is needed (scripts/test.sh -R go-client sets it)"
		if os.Getenv("MDC_REQUIRE_STACK") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	addr := freeAddr(t)
	logPath := filepath.Join(t.TempDir(), "gateway.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "MDC_HTTP_ADDR="+addr, "MDC_GRPC_ADDR="+s.addr, "MDC_GATEWAY_METRICS_ADDR=")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(stopGrace):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			data, _ := os.ReadFile(logPath)
			lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
			t.Logf("mdc-gateway log:\n%s", strings.Join(lines[max(0, len(lines)-40):], "\n"))
		}
	})
	base := "http://" + addr
	waitHealthy(t, base, exited)
	return base
}

// waitHealthy polls base's /health until it answers 200.
func waitHealthy(t *testing.T, base string, exited chan error) {
	t.Helper()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(startTimeout)
	for {
		resp, err := client.Get(base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("mdc-gateway exited during start-up: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/health not 200 within %s (last: %v)", base, startTimeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// kill sends SIGKILL (no drain) and waits until the process is gone; start
// brings it back.
func (s *mdcServer) kill() {
	s.t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		s.t.Fatal(err)
	}
	<-s.exited
	s.cmd = nil
}

// databaseURL is the URL of the server's database.
func (s *mdcServer) databaseURL() string {
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "DATABASE_URL="); ok {
			return v
		}
	}
	s.t.Fatal("no DATABASE_URL in the server's environment")
	return ""
}
