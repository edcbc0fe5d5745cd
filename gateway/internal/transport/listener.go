package transport

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"mdc/gateway/internal/apierror"
)

// Every error answer of the gateway is a google.rpc.Status JSON body
// (docs/api.md, Conventions), even those of requests net/http refuses
// before any handler runs (a malformed request line, Host or header, an
// undecodable path, a header block over MaxHeaderBytes, an Expect it does
// not know): it writes a fixed plain-text answer straight to the
// connection, which JSONErrorListener rewrites. (The static files' plain
// answers are package static's.)

// JSONErrorListener wraps the plain-HTTP listener: each connection's writes
// that are net/http's own pre-handler error answers are rewritten as the
// JSON status. Over TLS the connection must stay a *tls.Conn for HTTP/2, so
// there those few answers stay net/http's plain text.
type JSONErrorListener struct {
	net.Listener
}

func (l JSONErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c}, nil
}

type jsonErrorConn struct {
	net.Conn
}

// NetConn is the connection underneath, as tls.Conn's NetConn: the export
// routes reset a cut download's TCP connection through it (export/cut.go).
func (c *jsonErrorConn) NetConn() net.Conn { return c.Conn }

// Two fixed forms net/http writes before a handler runs: an error with a
// plain-text body and "Connection: close" (server.go, conn.serve), and 417
// for an Expect header it does not know (no body).
var (
	preHandlerError = regexp.MustCompile(`^HTTP/1\.1 ([45][0-9][0-9])( [^\r\n]*)?\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n`)
	expectFailed    = regexp.MustCompile(`^HTTP/1\.1 417 Expectation Failed\r\n`)
)

func (c *jsonErrorConn) Write(b []byte) (int, error) {
	if len(b) < 12 || !bytes.HasPrefix(b, []byte("HTTP/1.1 4")) && !bytes.HasPrefix(b, []byte("HTTP/1.1 5")) {
		return c.Conn.Write(b)
	}
	var code int
	var reason string
	if m := preHandlerError.FindSubmatch(b); m != nil {
		code, _ = strconv.Atoi(string(m[1]))
		// The text after the code: "Bad Request: malformed Host header".
		reason = string(bytes.TrimSpace(b[len(m[0]):]))
	} else if expectFailed.Match(b) {
		code, reason = http.StatusExpectationFailed, "417 Expectation Failed: only 'Expect: 100-continue' is supported"
	} else {
		return c.Conn.Write(b)
	}
	if _, err := c.Conn.Write(preHandlerJSON(code, reason)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// preHandlerJSON is the whole HTTP answer of a pre-handler error: the
// status, the JSON body with net/http's reason as its message.
func preHandlerJSON(code int, reason string) []byte {
	msg := reason
	if msg == "" {
		msg = http.StatusText(code)
	}
	body, _ := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(
		status.New(apierror.CodeOf(code), "the request is malformed: "+msg).Proto())
	return []byte(fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		code, http.StatusText(code), len(body), body))
}
