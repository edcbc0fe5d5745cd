package export

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"mdc/gateway/internal/observe"
)

// Cuts is what the export routes tell about an answer they break off.
type Cuts struct {
	// Logger gets the "export cut" line (nil: none).
	Logger *slog.Logger
	// Count counts a cut of route (nil: none), for the metric
	// mdc_gateway_export_cut_total.
	Count func(route string)
}

// cut is what is known about an answer when it is broken off.
type cut struct {
	route, format string
	rows, bytes   int64
	reason        error
	// clientFailed: writing to the client failed (it went away, or its
	// connection broke); no failure of ours.
	clientFailed bool
	// timedOut: the client read nothing for the write timeout. A cut all
	// the same (logged, counted, reset): net/http cancelled the request
	// when the write failed, but the client is still there, and a clean
	// close would end an HTTP/1.0 answer as if it were whole.
	timedOut bool
}

// counted counts the bytes written to the answer, for the cut's line, and
// keeps the first error writing it: the client's side failed.
type counted struct {
	w   io.Writer
	n   int64
	err error
}

func (c *counted) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// breakOff ends an answer whose file has begun but cannot be completed, so
// that no HTTP client can take what it received for the whole file: over
// HTTP/2 the stream is reset (RST_STREAM); over HTTP/1.x the connection is
// reset (a TCP RST, no terminating chunk). Closing it normally would not
// do: an HTTP/1.0 answer has no chunks, so a clean close reads as the end
// of the file. The cut is logged and counted first. A client that left
// needs nothing more; one whose connection failed under a write is broken
// off too, but that is no cut of ours: neither logged nor counted.
func (c Cuts) breakOff(w http.ResponseWriter, r *http.Request, k cut) {
	if r.Context().Err() != nil && !k.timedOut {
		return
	}
	if !k.clientFailed || k.timedOut {
		c.log(r, k)
		if c.Count != nil {
			c.Count(k.route)
		}
	}
	if r.ProtoMajor == 1 && resetConnection(w) {
		return
	}
	// HTTP/2, or a connection that cannot be taken over: net/http resets
	// the stream (HTTP/2) or closes the connection (HTTP/1.x) on this
	// panic without logging it.
	panic(http.ErrAbortHandler)
}

// resetConnection takes the HTTP/1.x connection of w over and closes it
// with a reset. It reports false when it could not take it.
func resetConnection(w http.ResponseWriter) bool {
	// Hijack writes out the chunks already framed; what is in the
	// answer's buffer but not yet framed is dropped, which is what a cut
	// wants anyway.
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return false
	}
	// The TCP connection itself, under any wrapper (tls.Conn's Close
	// would send close_notify first, the clean end of a close-delimited
	// body; the plain listener's connection rewrites net/http's errors).
	raw := conn
	for {
		inner, ok := raw.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		raw = inner.NetConn()
	}
	if tcp, ok := raw.(*net.TCPConn); ok {
		// Linger 0: Close discards what is unsent and sends RST, not FIN.
		_ = tcp.SetLinger(0)
	}
	_ = raw.Close()
	return true
}

// log writes the cut's line, at error level: the request's id, route and
// format, whose download it was, what had been sent, and why it stopped.
func (c Cuts) log(r *http.Request, k cut) {
	if c.Logger == nil {
		return
	}
	attrs := []slog.Attr{
		slog.String("request_id", r.Header.Get(observe.RequestIDHeader)),
		slog.String("method", r.Method),
		slog.String("route", k.route),
		slog.String("format", k.format),
		slog.String("developer_token", tokenPrint(r.Header.Get("Authorization"))),
		slog.Int64("rows_sent", k.rows),
		slog.Int64("bytes_sent", k.bytes),
		slog.String("proto", r.Proto),
		slog.String("reason", reasonOf(k.reason)),
	}
	c.Logger.LogAttrs(context.WithoutCancel(r.Context()), slog.LevelError, "export cut", attrs...)
}

// tokenPrint names the developer whose download it was by the first 16
// hex digits of the SHA-256 of their token: the gateway does not know
// developers, and the server stores the same hash (developers.token_hash),
// so an admin can find who it was without the token being logged.
func tokenPrint(authorization string) string {
	scheme, token, ok := strings.Cut(authorization, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:8])
}

// reasonOf is the cause of a cut as the log line says it.
func reasonOf(err error) string {
	if err == nil {
		return "unknown"
	}
	if errors.Is(err, errWire) {
		return "a message of the server could not be read: " + err.Error()
	}
	return err.Error()
}
