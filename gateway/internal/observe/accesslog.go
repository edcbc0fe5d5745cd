// Package observe is what the gateway tells about itself: one JSON log line
// per request with its id (accesslog.go), the logger shared with
// mdc-server's keys (logger.go), and the Prometheus metrics on a listener
// of their own (metrics.go).
package observe

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	"mdc/gateway/internal/reqinfo"
)

// RequestIDHeader carries the id of a request: taken from the client when
// valid, made up otherwise, sent to the server as the metadata
// "x-request-id" and returned on every answer.
const RequestIDHeader = "X-Request-Id"

// maxRequestIDLen is the longest request id accepted from a client.
const maxRequestIDLen = 128

// validRequestID reports whether a client's X-Request-Id is kept: 1 to 128
// printable ASCII characters, no spaces.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// newRequestID is 16 random bytes in hex.
func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand since Go 1.24)
	return hex.EncodeToString(b[:])
}

// Requests is the outermost middleware: it gives the request its id
// (X-Request-Id on the request, so it is forwarded as "x-request-id", and on
// the answer), then logs one line when the answer is written. The line has
// the keys time, level, msg, request_id, method, route, status, latency_ms
// (shared with mdc-server), run_id when the client sent X-Run-Id, retries
// and retried_error when the call was sent again on another server; a 5xx
// adds error (its cause) and is logged at error level even when the access
// log is off.
func Requests(logger *slog.Logger, accessLog bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get(RequestIDHeader)
		if len(r.Header.Values(RequestIDHeader)) != 1 || !validRequestID(id) {
			id = newRequestID()
		}
		r.Header.Set(RequestIDHeader, id)
		w.Header().Set(RequestIDHeader, id)
		info := &reqinfo.Info{ID: id}
		r = r.WithContext(reqinfo.NewContext(r.Context(), info))

		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK, info: info}
		next.ServeHTTP(rec, r)

		level := slog.LevelInfo
		if rec.status >= 500 {
			level = slog.LevelError
		} else if !accessLog {
			return
		}
		if !logger.Enabled(r.Context(), level) {
			return
		}
		line := accessLine{
			level:     level,
			requestID: id,
			method:    r.Method,
			route:     info.Route,
			status:    rec.status,
			latencyMS: float64(time.Since(start).Microseconds()) / 1000,
			// No "developer": the gateway does not know who the token is
			// (mdc-server logs the developer's number).
			runID:   r.Header.Get("X-Run-Id"),
			retries: info.Retries,
		}
		if level == slog.LevelError {
			line.err = "unknown"
			if info.Cause != nil {
				line.err = info.Cause.Error()
			}
		}
		if info.Retries > 0 {
			line.retried = info.Retried.Error()
		}
		if h, ok := logger.Handler().(*jsonHandler); ok {
			h.write(time.Now(), &line)
			return
		}
		logger.LogAttrs(r.Context(), level, "request", line.attrs()...)
	})
}

// attrs are the attributes of the line, for a logger other than
// NewLogger's (tests', embedders').
func (l *accessLine) attrs() []slog.Attr {
	attrs := []slog.Attr{
		slog.String("request_id", l.requestID),
		slog.String("method", l.method),
		slog.String("route", l.route),
		slog.Int("status", l.status),
		slog.Float64("latency_ms", l.latencyMS),
	}
	if l.level >= slog.LevelError {
		attrs = append(attrs, slog.String("error", l.err))
	}
	if l.runID != "" {
		attrs = append(attrs, slog.String("run_id", l.runID))
	}
	if l.retries > 0 {
		attrs = append(attrs, slog.Int("retries", l.retries), slog.String("retried_error", l.retried))
	}
	return attrs
}

// statusRecorder remembers the status code written through it.
type statusRecorder struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	info        *reqinfo.Info
}

// RequestInfo is the Info of the request whose answer s records (for
// reqinfo.RecordCause).
func (s *statusRecorder) RequestInfo() *reqinfo.Info { return s.info }

var _ reqinfo.Carrier = (*statusRecorder)(nil)

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wroteHeader {
		s.status = code
		s.wroteHeader = true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wroteHeader = true
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
