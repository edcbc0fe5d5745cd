package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// logLines reads a stack log and decodes every line the process wrote as a
// JSON object; a line that is not one fails t (raw libpq NOTICEs were such lines).
func logLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "==== ") {
			continue // the harness's own marks (process_test.go)
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			t.Errorf("%s: not a JSON line: %q", path, line)
			continue
		}
		lines = append(lines, obj)
	}
	return lines
}

// The keys shared by the server's and the gateway's request lines.
var requestKeys = []string{"time", "level", "msg", "request_id", "method", "code", "latency_ms", "developer"}

// The server writes structured lines only: the shared keys on every line,
// and on the request line the request's keys plus run_id and client; no
// PostgreSQL NOTICE from the migrations reaches its log.
func TestServerLogsStructuredLines(t *testing.T) {
	s := StartStack(t)
	const sent = "e2e-log-req-0001"
	r := s.Do(t, "GET", "/v1/admin/developers?pageSize=2", s.AdminToken(), nil,
		map[string]string{"X-Request-Id": sent, "X-Run-Id": "e2e-run-7"})
	checkStatus(t, "list developers", r, 200)
	// The request line is written after the answer: stopped, both
	// processes have written all their lines.
	s.StopBoth(t)

	raw, err := os.ReadFile(s.server.logPath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("NOTICE")) {
		t.Errorf("server log holds NOTICE text:\n%s", raw)
	}
	timeRe := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`)
	var request map[string]any
	for _, line := range logLines(t, s.server.logPath) {
		for _, key := range []string{"time", "level", "msg"} {
			if _, ok := line[key]; !ok {
				t.Errorf("server line without %q: %v", key, line)
			}
		}
		if ts, _ := line["time"].(string); !timeRe.MatchString(ts) {
			t.Errorf("server line time %q is not RFC 3339 UTC: %v", ts, line)
		}
		switch line["level"] {
		case "debug", "info", "warn", "error":
		default:
			t.Errorf("server line level %v is none of debug, info, warn, error", line["level"])
		}
		if line["msg"] == "request" && line["method"] == "ListDevelopers" {
			request = line
		}
	}
	if request == nil {
		t.Fatalf("no request line for ListDevelopers in the server log:\n%s", raw)
	}
	for _, key := range append(requestKeys, "run_id", "client") {
		if _, ok := request[key]; !ok {
			t.Errorf("request line without %q: %v", key, request)
		}
	}
	if request["code"] != "OK" || request["level"] != "info" || request["run_id"] != "e2e-run-7" {
		t.Errorf("request line = %v, want code OK, level info, run_id e2e-run-7", request)
	}
	// The gateway passes X-Request-Id on as x-request-id metadata.
	if request["request_id"] != sent {
		t.Errorf("request line request_id = %v, want the X-Request-Id sent, %q", request["request_id"], sent)
	}
}

// The gateway's and the server's lines of one request carry the same
// request_id, the one the gateway made when the client sent none.
func TestGatewayAndServerShareTheRequestId(t *testing.T) {
	s := StartStack(t)
	r := s.Do(t, "GET", "/v1/admin/developers?pageSize=1", s.AdminToken(), nil,
		map[string]string{"X-Run-Id": "e2e-run-share"})
	checkStatus(t, "list developers", r, 200)
	s.StopBoth(t) // every line written

	var gatewayID string
	for _, line := range logLines(t, s.gateway.logPath) {
		if id, ok := line["request_id"].(string); ok && line["run_id"] == "e2e-run-share" {
			gatewayID = id
		}
	}
	if gatewayID == "" {
		t.Fatalf("no gateway request line with a request_id and run_id e2e-run-share")
	}
	for _, line := range logLines(t, s.server.logPath) {
		if line["msg"] == "request" && line["run_id"] == "e2e-run-share" {
			if line["request_id"] != gatewayID {
				t.Errorf("server request_id %v, gateway %q", line["request_id"], gatewayID)
			}
			return
		}
	}
	t.Errorf("no server request line with run_id e2e-run-share")
}

// MDC_ACCESS_LOG=off drops the server's per-request line.
func TestServerAccessLogOff(t *testing.T) {
	s := StartStackWith(t, StackOptions{Env: []string{"MDC_ACCESS_LOG=off"}})
	r := s.Do(t, "GET", "/v1/admin/developers?pageSize=1", s.AdminToken(), nil)
	checkStatus(t, "list developers", r, 200)
	s.StopBoth(t) // every line written: none may be a request line
	for _, line := range logLines(t, s.server.logPath) {
		if line["msg"] == "request" {
			t.Errorf("request line with the access log off: %v", line)
		}
	}
}

// runServer runs mdc-server with args and the extra environment, and returns its
// stdout, stderr and how it exited.
func runServer(t *testing.T, extra []string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, env.serverBin, args...)
	cmd.Env = append(os.Environ(), extra...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

func TestServerVersion(t *testing.T) {
	out, errOut, err := runServer(t, nil, "--version")
	if err != nil {
		t.Fatalf("mdc-server --version: %v (stderr %q)", err, errOut)
	}
	if !regexp.MustCompile(`^mdc-server \S+\n$`).MatchString(out) {
		t.Errorf("mdc-server --version printed %q, want \"mdc-server <version>\"", out)
	}
}

func TestServerRefusesABadLogLevel(t *testing.T) {
	_, errOut, err := runServer(t, []string{"DATABASE_URL=postgres://127.0.0.1:1/none", "MDC_LOG_LEVEL=loud"})
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() != 2 {
		t.Fatalf("mdc-server with MDC_LOG_LEVEL=loud: %v, want exit status 2", err)
	}
	if !strings.Contains(errOut, "MDC_LOG_LEVEL") {
		t.Errorf("the refusal does not name MDC_LOG_LEVEL: %q", errOut)
	}
}
