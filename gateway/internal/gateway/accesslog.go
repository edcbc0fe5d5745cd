package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"
)

// requestIDHeader carries the id of a request: taken from the client when
// valid, made up otherwise, sent to the server as the metadata
// "x-request-id" and returned on every answer.
const requestIDHeader = "X-Request-Id"

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

// requestInfo is what the layers of the gateway learn about a request for
// its log line. The outermost middleware puts it in the request context.
type requestInfo struct {
	id    string
	route string // route template, set once a route matched
	cause error  // why the gateway answered 5xx, when it knows
	// retries is how many times the gRPC call was sent again on another
	// server (retry.go); retried is the error of the first attempt that was.
	retries int
	retried error
	// tokenAccepted: a server looked the bearer token up and found a
	// developer; tokenRefused: it found none (knowntokens.go).
	tokenAccepted, tokenRefused bool
	// bodyRefusal, when set, is why the gateway stopped reading the body
	// (the budget stayed full, or it arrived too slowly): the answer is
	// that refusal's, whatever the decoder made of the cut body.
	bodyRefusal *bodyRefusal
}

type requestInfoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return info
}

// setCause records err as the cause of the answer of the request of ctx,
// unless one is recorded already (the first, rawest error wins).
func setCause(ctx context.Context, err error) {
	if info := infoFrom(ctx); info != nil && err != nil && info.cause == nil {
		info.cause = err
	}
}

// observe is the outermost middleware: it gives the request its id
// (X-Request-Id on the request, so it is forwarded as "x-request-id", and on
// the answer), then logs one line when the answer is written. The line has
// the keys time, level, msg, request_id, method, route, status, latency_ms
// (shared with mdc-server), run_id when the client sent X-Run-Id, retries
// and retried_error when the call was sent again on another server; a 5xx
// adds error (its cause) and is logged at error level even when the access
// log is off.
func observe(logger *slog.Logger, accessLog bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get(requestIDHeader)
		if len(r.Header.Values(requestIDHeader)) != 1 || !validRequestID(id) {
			id = newRequestID()
		}
		r.Header.Set(requestIDHeader, id)
		w.Header().Set(requestIDHeader, id)
		info := &requestInfo{id: id}
		r = r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info))

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
		attrs := []slog.Attr{
			slog.String("request_id", id),
			slog.String("method", r.Method),
			slog.String("route", info.route),
			slog.Int("status", rec.status),
			slog.Float64("latency_ms", float64(time.Since(start).Microseconds())/1000),
			// No "developer": the gateway does not know who the token is
			// (mdc-server logs the developer's number).
		}
		if level == slog.LevelError {
			cause := "unknown"
			if info.cause != nil {
				cause = info.cause.Error()
			}
			attrs = append(attrs, slog.String("error", cause))
		}
		if runID := r.Header.Get("X-Run-Id"); runID != "" {
			attrs = append(attrs, slog.String("run_id", runID))
		}
		if info.retries > 0 {
			attrs = append(attrs, slog.Int("retries", info.retries), slog.String("retried_error", info.retried.Error()))
		}
		logger.LogAttrs(r.Context(), level, "request", attrs...)
	})
}

// accessLog is observe with the access log on.
func accessLog(logger *slog.Logger, next http.Handler) http.Handler {
	return observe(logger, true, next)
}

// statusRecorder remembers the status code written through it.
type statusRecorder struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	info        *requestInfo
}

// recordCause records err as the cause of the answer written to w, when w
// is (or wraps) the writer of observe.
func recordCause(w http.ResponseWriter, err error) {
	for w != nil {
		if rec, ok := w.(*statusRecorder); ok {
			if rec.info != nil {
				rec.info.cause = err
			}
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}

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
