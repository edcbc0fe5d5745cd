package mdcclient_test

// The mdc-gateway of a test's stack, for the tests of the HTTP helpers
// (DownloadExport): the binary named by MDC_GATEWAY_BIN (ctest sets it),
// started by scripts/stack.sh on a free 127.0.0.1 port; skipped without it,
// unless MDC_REQUIRE_STACK=1 makes that a failure.

import (
	"os"
	"testing"
)

// startGateway starts mdc-gateway in front of s and returns its base URL,
// http://127.0.0.1:port, once GET /health answers 200; it stops with the
// stack when the test ends.
func startGateway(t *testing.T, s *mdcServer) string {
	t.Helper()
	if os.Getenv("MDC_GATEWAY_BIN") == "" {
		msg := "MDC_GATEWAY_BIN is needed (scripts/test.sh -R go-client sets it)"
		if os.Getenv("MDC_REQUIRE_STACK") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if err := s.stack.Resume("gateway"); err != nil {
		t.Fatalf("%v\n%s", err, tail(s.stack.Logs.Gateway))
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("mdc-gateway log:\n%s", tail(s.stack.Logs.Gateway))
		}
	})
	return s.stack.BaseURL
}

// kill sends SIGKILL (no drain) and waits until the process is gone; start
// brings it back.
func (s *mdcServer) kill() {
	s.t.Helper()
	s.down = true
	if err := s.stack.Kill("server"); err != nil {
		s.t.Fatal(err)
	}
}

// databaseURL is the URL of the server's database.
func (s *mdcServer) databaseURL() string {
	return s.stack.DatabaseURL
}
