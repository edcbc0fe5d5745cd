package static

import (
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
)

// The static files (dashboard, Swagger UI) answer with the gateway's JSON
// error body too: http.FileServer and http.ServeContent answer 404, 412 or
// 416 in plain text, which WithJSONErrors rewrites.

// WithJSONErrors turns the error answers (4xx, 5xx) of next, a file server,
// into the JSON status body with the same HTTP status.
func WithJSONErrors(m runtime.Marshaler, next http.Handler) http.Handler {
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
	apierror.Write(j.ResponseWriter, j.m, code, status.New(apierror.CodeOf(code), staticErrorMessage(code)))
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
