package gateway

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
)

// Every error answer of the gateway is a google.rpc.Status JSON body
// (docs/api.md, Conventions). Two kinds of answer are not made by the
// gateway's handlers and need help:
//
//   - the static files (dashboard, Swagger UI): http.FileServer and
//     http.ServeContent answer 404, 412 or 416 in plain text (withJSONErrors);
//   - requests net/http refuses before any handler runs (a malformed
//     request line, Host or header, an undecodable path, a header block
//     over MaxHeaderBytes, an Expect it does not know): it writes a fixed
//     plain-text answer straight to the connection (jsonErrorListener).

// statusCodeOf is the gRPC code a gateway error with an HTTP status carries.
func statusCodeOf(httpStatus int) codes.Code {
	switch httpStatus {
	case http.StatusNotFound:
		return codes.NotFound
	case http.StatusMethodNotAllowed, http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return codes.Unimplemented
	case http.StatusPreconditionFailed, http.StatusExpectationFailed:
		return codes.FailedPrecondition
	case http.StatusRequestedRangeNotSatisfiable:
		return codes.OutOfRange
	case http.StatusRequestTimeout:
		return codes.DeadlineExceeded
	}
	if httpStatus >= 500 {
		return codes.Internal
	}
	return codes.InvalidArgument
}

// withJSONErrors turns the error answers (4xx, 5xx) of next, a file server,
// into the JSON status body with the same HTTP status.
func withJSONErrors(m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&jsonErrorWriter{ResponseWriter: w, m: m}, r)
	})
}

// jsonErrorWriter replaces an error answer's body with the JSON status.
type jsonErrorWriter struct {
	http.ResponseWriter
	m       runtime.Marshaler
	failed  bool // an error status was written: drop the handler's body
	written bool
}

func (j *jsonErrorWriter) WriteHeader(code int) {
	if j.written {
		return
	}
	j.written = true
	if code < 400 {
		j.ResponseWriter.WriteHeader(code)
		return
	}
	j.failed = true
	h := j.Header()
	for _, name := range []string{"Content-Length", "Content-Range", "Content-Encoding", "ETag", "Cache-Control"} {
		h.Del(name)
	}
	writeStatus(j.ResponseWriter, j.m, code, status.New(statusCodeOf(code), staticErrorMessage(code)))
}

func (j *jsonErrorWriter) Write(b []byte) (int, error) {
	if !j.written {
		j.WriteHeader(http.StatusOK)
	}
	if j.failed {
		return len(b), nil
	}
	return j.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (j *jsonErrorWriter) Unwrap() http.ResponseWriter { return j.ResponseWriter }

func staticErrorMessage(code int) string {
	switch code {
	case http.StatusNotFound:
		return "no such file"
	case http.StatusRequestedRangeNotSatisfiable:
		return "the requested range is not satisfiable"
	case http.StatusPreconditionFailed:
		return "a precondition of the request (If-Match, If-Unmodified-Since) failed"
	}
	return http.StatusText(code)
}

// jsonErrorListener wraps the plain-HTTP listener: each connection's writes
// that are net/http's own pre-handler error answers are rewritten as the
// JSON status. Over TLS the connection must stay a *tls.Conn for HTTP/2, so
// there those few answers stay net/http's plain text.
type jsonErrorListener struct {
	net.Listener
}

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c}, nil
}

type jsonErrorConn struct {
	net.Conn
}

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
		status.New(statusCodeOf(code), "the request is malformed: "+msg).Proto())
	return []byte(fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		code, http.StatusText(code), len(body), body))
}
