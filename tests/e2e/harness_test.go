// Package e2e is mdc's end-to-end suite: it starts the real mdc-server and
// mdc-gateway binaries against a real PostgreSQL and speaks HTTP/JSON to the
// gateway, as collectors and the dashboard do.
//
// It needs three environment variables, which ctest and scripts/test.sh
// (`make test`) set:
//
//	MDC_SERVER_BIN         path of the mdc-server binary
//	MDC_GATEWAY_BIN        path of the mdc-gateway binary
//	MDC_TEST_DATABASE_URL  superuser URL of a PostgreSQL database; every stack
//	                       creates and later drops its own database from it
//
// Tests use the package's shared stack (SharedStack), or start a private one
// (StartStack, or StartStackWith for extra server environment or a database
// of their own) when they change the stack itself, e.g. stop the server, or
// count what the whole database holds. Stacks are started by
// scripts/stack.sh, as every suite's are (package teststack).
package e2e

import (
	"fmt"
	"os"
	"testing"
)

// env holds the suite's configuration, read once by TestMain.
var env struct {
	serverBin   string
	gatewayBin  string
	superDBURL  string
	sharedStack *Stack
}

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	missing := false
	for _, v := range []struct {
		name string
		dest *string
		what string
	}{
		{"MDC_SERVER_BIN", &env.serverBin, "path of the mdc-server binary"},
		{"MDC_GATEWAY_BIN", &env.gatewayBin, "path of the mdc-gateway binary"},
		{"MDC_TEST_DATABASE_URL", &env.superDBURL, "superuser URL of a PostgreSQL database"},
	} {
		*v.dest = os.Getenv(v.name)
		if v.dest == &env.superDBURL && !withSharedStack {
			continue // the failover tests bring their own databases
		}
		if *v.dest == "" {
			fmt.Fprintf(os.Stderr, "e2e: %s is not set (%s)\n", v.name, v.what)
			missing = true
		}
	}
	if missing {
		fmt.Fprintln(os.Stderr, "e2e: run the suite with `make test` (scripts/test.sh), or `ctest -R e2e` in the build folder with MDC_TEST_DATABASE_URL set")
		return 2
	}
	for _, bin := range []string{env.serverBin, env.gatewayBin} {
		if _, err := os.Stat(bin); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: %v (build it with scripts/build.sh)\n", err)
			return 2
		}
	}

	if !withSharedStack {
		return m.Run()
	}
	stack, err := startStack(stderrLogger{}, StackOptions{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: starting the shared stack: %v\n", err)
		if stack != nil {
			stack.writeLogTails(os.Stderr, nil)
			stack.shutdown(stderrLogger{}, true)
		}
		return 1
	}
	env.sharedStack = stack

	code := m.Run()

	if code != 0 {
		fmt.Fprintf(os.Stderr, "e2e: the shared stack's logs are kept in %s\n", stack.logDir)
	}
	stack.shutdown(stderrLogger{}, code != 0)
	return code
}

// SharedStack returns the stack TestMain started for the whole package. When
// t fails, the tails of the server's and gateway's logs written during t are
// printed. Tests must not stop or restart it; use StartStack for that.
func SharedStack(t *testing.T) *Stack {
	t.Helper()
	s := env.sharedStack
	if s == nil {
		t.Fatal("e2e: no shared stack (TestMain did not start one)")
	}
	marks := s.logMarks()
	t.Cleanup(func() {
		if t.Failed() {
			s.logTails(t, marks)
		}
	})
	return s
}

// stderrLogger reports to stderr where no *testing.T exists (TestMain).
type stderrLogger struct{}

func (stderrLogger) Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "e2e: "+format+"\n", args...)
}

// logger is what *testing.T and stderrLogger have in common.
type logger interface {
	Logf(format string, args ...any)
}
