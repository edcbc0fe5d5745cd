package gateway

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// limitBody refuses bodies larger than limit bytes with 413 before anything
// parses them: at once when Content-Length says so, and for bodies of
// unknown length (chunked) by reading at most limit+1 bytes first.
func limitBody(limit int64, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			writeTooLarge(w, m, limit)
			return
		}
		if r.ContentLength < 0 {
			data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
			if err != nil {
				writeStatus(w, m, http.StatusBadRequest, status.New(codes.InvalidArgument, "could not read the request body"))
				return
			}
			if int64(len(data)) > limit {
				writeTooLarge(w, m, limit)
				return
			}
			r.Body = readCloser{Reader: bytes.NewReader(data), Closer: r.Body}
		}
		next.ServeHTTP(w, r)
	})
}

func writeTooLarge(w http.ResponseWriter, m runtime.Marshaler, limit int64) {
	// The connection may still carry the unread body; do not reuse it.
	w.Header().Set("Connection", "close")
	st := status.New(codes.ResourceExhausted, fmt.Sprintf("request body is larger than %d bytes", limit))
	writeStatus(w, m, http.StatusRequestEntityTooLarge, st)
}

// readCloser reads from Reader and closes Closer.
type readCloser struct {
	io.Reader
	io.Closer
}
