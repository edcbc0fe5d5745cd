package e2e

// Support for the admin and access tests: a private mdc-server and
// mdc-gateway over a fresh database (or a given one), plain HTTP calls, and
// SQL through psql to look at what is stored.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// adminStack is one server and gateway; everything it starts stops when the
// test ends.
type adminStack struct {
	t          *testing.T
	base       string // http://127.0.0.1:port of the gateway
	grpcAddr   string
	dbURL      string
	adminToken string
}

type adminStackOptions struct {
	// dbURL: use this database instead of a fresh one on
	// MDC_TEST_DATABASE_URL (the health test points at its own cluster).
	dbURL string
	// secretKey: MDC_SECRET_KEY for the server ("" = none).
	secretKey string
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func binaryPath(t *testing.T, env, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	p := filepath.Join(repoRoot(t), "build", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s not set and %s missing: build first", env, p)
	}
	return p
}

func adminRandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// withDatabase replaces the database name of a postgres:// URL.
func withDatabase(url, name string) string {
	rest := url
	query := ""
	if i := strings.Index(rest, "?"); i >= 0 {
		rest, query = rest[:i], rest[i:]
	}
	scheme := strings.Index(rest, "://")
	slash := strings.Index(rest[scheme+3:], "/")
	if slash >= 0 {
		rest = rest[:scheme+3+slash]
	}
	return rest + "/" + name + query
}

// adminPsql runs SQL against url and returns the output, unaligned, tuples only.
func adminPsql(t *testing.T, url, sql string) string {
	t.Helper()
	out, err := exec.Command("psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
		"-d", url, "-c", sql).CombinedOutput()
	if err != nil {
		t.Fatalf("adminPsql %q: %v\n%s", sql, err, out)
	}
	return strings.TrimSpace(string(out))
}

// freshDatabase creates an empty database on MDC_TEST_DATABASE_URL and drops
// it when the test ends.
func freshDatabase(t *testing.T) string {
	t.Helper()
	admin := os.Getenv("MDC_TEST_DATABASE_URL")
	if admin == "" {
		t.Fatal("MDC_TEST_DATABASE_URL is not set: these tests need PostgreSQL")
	}
	name := "mdc_e2e_admin_" + adminRandomHex(6)
	adminPsql(t, admin, "CREATE DATABASE "+name)
	t.Cleanup(func() {
		exec.Command("psql", "-X", "-q", "-d", admin, "-c",
			"DROP DATABASE IF EXISTS "+name+" WITH (FORCE)").Run()
	})
	return withDatabase(admin, name)
}

// startProcess starts a binary whose output goes to a log the test prints
// when it fails; it is killed (by its own pid) when the test ends.
func startProcess(t *testing.T, name string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var log bytes.Buffer
	cmd.Stdout = &log
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() && os.Getenv("MDC_E2E_LOGS") != "" {
			t.Logf("%s log:\n%s", filepath.Base(name), log.String())
		}
	})
	return cmd
}

func startAdminStack(t *testing.T, opts adminStackOptions) *adminStack {
	t.Helper()
	s := &adminStack{t: t, dbURL: opts.dbURL, adminToken: "mdc_" + adminRandomHex(24)}
	if s.dbURL == "" {
		s.dbURL = freshDatabase(t)
	}
	grpcPort, httpPort := freePort(t), freePort(t)
	s.grpcAddr = fmt.Sprintf("127.0.0.1:%d", grpcPort)
	s.base = fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	env := []string{
		"DATABASE_URL=" + s.dbURL,
		"MDC_GRPC_ADDR=" + s.grpcAddr,
		"MDC_ADMIN_TOKEN=" + s.adminToken,
		"MDC_SECRET_KEY=" + opts.secretKey,
		"MDC_METRICS_ADDR=",
	}
	startProcess(t, binaryPath(t, "MDC_SERVER_BIN", "mdc-server"), env)
	startProcess(t, binaryPath(t, "MDC_GATEWAY_BIN", "mdc-gateway"), nil,
		"-grpc-addr", s.grpcAddr, "-http-addr", fmt.Sprintf("127.0.0.1:%d", httpPort))
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("stack did not become healthy (last: %v)", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// reply is a decoded JSON answer.
type reply struct {
	status int
	raw    string
	body   map[string]any
}

func (r reply) String() string { return fmt.Sprintf("%d %s", r.status, r.raw) }

// call sends a request with `authorization` as the header value ("" = no
// header) and a JSON body (nil = none).
func (s *adminStack) call(method, path, authorization string, body any) reply {
	s.t.Helper()
	var reader io.Reader
	if body != nil {
		var data []byte
		if text, ok := body.(string); ok {
			data = []byte(text)
		} else {
			var err error
			if data, err = json.Marshal(body); err != nil {
				s.t.Fatal(err)
			}
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.base+path, reader)
	if err != nil {
		s.t.Fatal(err)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, raw: string(raw)}
	json.Unmarshal(raw, &r.body)
	return r
}

// as calls with a bearer token.
func (s *adminStack) as(token, method, path string, body any) reply {
	s.t.Helper()
	return s.call(method, path, "Bearer "+token, body)
}

func (s *adminStack) admin(method, path string, body any) reply {
	s.t.Helper()
	return s.as(s.adminToken, method, path, body)
}

func (s *adminStack) sql(query string) string {
	s.t.Helper()
	return adminPsql(s.t, s.dbURL, query)
}

// newDeveloper creates a developer (or admin) and returns its id and token.
func (s *adminStack) newDeveloper(username, role string) (string, string) {
	s.t.Helper()
	r := s.admin("POST", "/v1/admin/developers", map[string]any{"username": username, "role": role})
	if r.status != 200 {
		s.t.Fatalf("create developer %s: %v", username, r)
	}
	return r.body["id"].(string), r.body["token"].(string)
}

// adminExpectStatus fails the test unless r has the status.
func adminExpectStatus(t *testing.T, what string, r reply, status int) {
	t.Helper()
	if r.status != status {
		t.Errorf("%s: want %d, got %v", what, status, r)
	}
}

// violations lists the fields a 400 names.
func violations(r reply) []string {
	var fields []string
	details, _ := r.body["details"].([]any)
	for _, d := range details {
		dm, _ := d.(map[string]any)
		fv, _ := dm["fieldViolations"].([]any)
		for _, v := range fv {
			vm, _ := v.(map[string]any)
			fields = append(fields, fmt.Sprint(vm["field"]))
		}
	}
	return fields
}
