package gateway

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mdc/gateway/internal/transport"
)

// Every 4xx and 5xx the gateway answers is the JSON status, also those
// net/http makes before any handler runs and those of the static files:
// the malformed requests an outside probe sent (issue 20).
func TestEveryErrorAnswerIsJSON(t *testing.T) {
	_, addr := startFakeServer(t)
	ts := httptest.NewUnstartedServer(newTestHandler(t, addr))
	ts.Config.MaxHeaderBytes = transport.MaxHTTPHeaderBytes
	ts.Listener = transport.JSONErrorListener{Listener: ts.Listener}
	ts.Start()
	t.Cleanup(ts.Close)

	cases := []struct {
		name, raw string
		status    int
	}{
		{"undecodable path", "GET /v1/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"missing Swagger UI asset", "GET /docs/nope.js HTTP/1.1\r\nHost: x\r\n\r\n", 404},
		{"unsatisfiable range of a dashboard file", "GET / HTTP/1.1\r\nHost: x\r\nRange: bytes=99999999-\r\n\r\n", 416},
		{"failed If-Match on a dashboard file", "GET / HTTP/1.1\r\nHost: x\r\nIf-Match: \"nope\"\r\n\r\n", 412},
		{"no Host", "GET /v1/health HTTP/1.1\r\n\r\n", 400},
		{"malformed Host", "GET /v1/health HTTP/1.1\r\nHost: a b\r\n\r\n", 400},
		{"two Hosts", "GET /v1/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
		{"bad Content-Length", "POST /v1/dashboard/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400},
		{"two Content-Lengths", "POST /v1/dashboard/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}", 400},
		{"bad header name", "GET /v1/health HTTP/1.1\r\nHost: x\r\nFoo Bar: y\r\n\r\n", 400},
		{"control byte in a header", "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n", 400},
		{"unknown Expect", "POST /v1/dashboard/auth/sign-in HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}", 417},
		{"HTTP/0.9", "GET /v1/health\r\n\r\n", 400},
		{"bad method", "G@T /v1/health HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"NUL in the path", "GET /v1/he\x00alth HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"header block over the limit", "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: " + strings.Repeat("a", transport.MaxHTTPHeaderBytes+8192) + "\r\n\r\n", 431},
		{"unsupported Transfer-Encoding", "POST /v1/dashboard/auth/sign-in HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"unsupported HTTP version", "GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n", 505},
	}
	for _, tt := range cases {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		go func() { _, _ = io.WriteString(c, tt.raw) }()
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			c.Close()
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		c.Close()
		var st struct {
			Code    *int   `json:"code"`
			Message string `json:"message"`
		}
		switch {
		case resp.StatusCode != tt.status:
			t.Errorf("%s: status %d, want %d: %s", tt.name, resp.StatusCode, tt.status, body)
		case resp.Header.Get("Content-Type") != "application/json":
			t.Errorf("%s: Content-Type %q: %s", tt.name, resp.Header.Get("Content-Type"), body)
		case json.Unmarshal(body, &st) != nil || st.Code == nil || *st.Code == 0 || st.Message == "":
			t.Errorf("%s: not a google.rpc.Status: %s", tt.name, body)
		case resp.Header.Get("X-Content-Type-Options") != "nosniff":
			t.Errorf("%s: no nosniff", tt.name)
		}
	}
}
