package e2e

// The database statement timeout (MDC_STATEMENT_TIMEOUT, docs/api.md 9.1 and
// docs/operations.md "Limits"): while another session holds a lock on the
// quotes table, a read and a write that need it are cancelled by PostgreSQL
// and answer 503 with reason DATABASE_TIMEOUT instead of waiting for ever;
// the refused write is not stored; once the lock is gone the same server
// answers normally on the same database connection (a pool of one, whose
// backend is the same before and after).

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestStatementTimeoutUnderALock(t *testing.T) {
	s := StartStackWith(t, StackOptions{Env: []string{
		"MDC_STATEMENT_TIMEOUT=1s",
		"MDC_DB_POOL_SIZE=1",
	}})
	_, token := s.NewDeveloper(t, "developer")
	symbol := uniqueSymbol(t, "ST")
	postQuotes(t, s, token, symbol, devQuote{at: "2025-03-03T10:00:00", price: 101.5})
	read := query("/v1/developer/quote", map[string]string{"symbol": symbol, "datetime": "2025-03-03T10:05:00"})
	expectStatus(t, s.Do(t, "GET", read, token, nil), 200)
	backend := serverBackends(t, s)

	lock := holdLock(t, s, "LOCK TABLE stock_quotes IN ACCESS EXCLUSIVE MODE")
	expectReason(t, s.Do(t, "GET", read, token, nil), 503, "DATABASE_TIMEOUT")
	write := map[string]any{"data": map[string]any{
		"timestamp": "2025-03-03T10:01:00", "timezone": "Asia/Kolkata",
		"quotes": []any{map[string]any{"nseSymbol": symbol, "quoteData": devPayload(devQuote{price: 102})}},
	}}
	expectReason(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, write), 503, "DATABASE_TIMEOUT")
	lock.release(t)

	// The same server answers normally, on the same connection.
	r := s.Do(t, "GET", read, token, nil)
	expectStatus(t, r, 200)
	if got := s.SQL(t, "SELECT count(*) FROM stock_quotes WHERE nse_symbol = '"+symbol+"'"); got != "1" {
		t.Errorf("stored quotes of %s: %s, want 1 (the cancelled write must not be stored)", symbol, got)
	}
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, write), 200)
	if got := s.SQL(t, "SELECT count(*) FROM stock_quotes WHERE nse_symbol = '"+symbol+"'"); got != "2" {
		t.Errorf("stored quotes of %s after the retry: %s, want 2", symbol, got)
	}
	if after := serverBackends(t, s); after != backend {
		t.Errorf("the server's database sessions changed from %q to %q: the timed-out connection was not reused", backend, after)
	}
}

// serverBackends lists the process ids of mdc-server's sessions on its
// database (application_name mdc-server), comma-separated.
func serverBackends(t *testing.T, s *Stack) string {
	t.Helper()
	pids := s.SQL(t, "SELECT string_agg(pid::text, ',' ORDER BY pid) FROM pg_stat_activity "+
		"WHERE datname = current_database() AND application_name = 'mdc-server'")
	if pids == "" {
		t.Fatal("mdc-server has no session on its database")
	}
	return pids
}

// heldLock is a psql session holding a lock in an open transaction.
type heldLock struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  bool
}

// holdLock opens a psql session on the stack's database, runs lockSQL in a
// transaction and returns once the lock is held. The transaction ends with
// release, or when t ends.
func holdLock(t *testing.T, s *Stack, lockSQL string) *heldLock {
	t.Helper()
	cmd := exec.Command(psqlPath(), "--no-psqlrc", "--quiet", "--no-align", "--tuples-only",
		"--set=ON_ERROR_STOP=1", "--dbname="+s.DatabaseURL())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting psql: %v", err)
	}
	l := &heldLock{cmd: cmd, stdin: stdin}
	t.Cleanup(func() { l.release(t) })
	if _, err := fmt.Fprintf(stdin, "BEGIN;\n%s;\n\\echo locked\n", lockSQL); err != nil {
		t.Fatalf("writing to psql: %v", err)
	}
	// The echo comes once the LOCK returned: the lock is held.
	held := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err == nil && strings.TrimSpace(line) != "locked" {
			err = fmt.Errorf("psql said %q", line)
		}
		held <- err
	}()
	select {
	case err := <-held:
		if err != nil {
			t.Fatalf("taking the lock: %v (%s)", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("taking the lock: no answer from psql (%s)", stderr.String())
	}
	return l
}

// release commits the lock's transaction and waits for psql to exit.
func (l *heldLock) release(t *testing.T) {
	t.Helper()
	if l.done {
		return
	}
	l.done = true
	_, _ = io.WriteString(l.stdin, "COMMIT;\n\\q\n")
	l.stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- l.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("psql holding the lock: %v", err)
		}
	case <-time.After(30 * time.Second):
		_ = l.cmd.Process.Kill()
		t.Errorf("psql holding the lock did not exit")
	}
}
