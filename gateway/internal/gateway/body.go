package gateway

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// busyMessage is the 503 message of a request refused because the body
// budget stayed full for bodyWait.
const busyMessage = "the gateway is busy with other request bodies; retry shortly"

// limitBody refuses bodies larger than limit bytes with 413 before anything
// parses them: at once when Content-Length says so, and for bodies of
// unknown length (chunked) by reading at most limit+1 bytes first.
//
// Every request with a body first takes its share of budget: its
// Content-Length, or limit+1 for a body of unknown length (cut to what it
// turned out to be once read), never more than the whole budget. It gives
// the share back when next returns. A request that cannot get its share
// within bodyWait is refused with 503 and Retry-After before its body is
// read.
func limitBody(limit int64, budget *bodyBudget, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			writeTooLarge(w, m, limit)
			return
		}
		if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		want := r.ContentLength
		if want < 0 {
			want = limit + 1
		}
		share := budget.share(want)
		ctx, cancel := context.WithTimeout(r.Context(), bodyWait)
		ok := budget.acquire(ctx, share)
		cancel()
		if !ok {
			writeBusy(w, m)
			return
		}
		defer func() { budget.release(share) }()

		if r.ContentLength < 0 {
			body, err := readChunked(r.Body, limit+1)
			if err != nil {
				writeStatus(w, m, http.StatusBadRequest, status.New(codes.InvalidArgument, "could not read the request body"))
				return
			}
			defer body.free()
			if body.n > limit {
				writeTooLarge(w, m, limit)
				return
			}
			// Keep only what the body holds.
			if keep := budget.share(body.n); keep < share {
				budget.release(share - keep)
				share = keep
			}
			r.Body = readCloser{Reader: body.reader(), Closer: r.Body}
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

func writeBusy(w http.ResponseWriter, m runtime.Marshaler) {
	// The body was not read; do not reuse the connection.
	w.Header().Set("Connection", "close")
	w.Header().Set("Retry-After", "1")
	writeStatus(w, m, http.StatusServiceUnavailable, status.New(codes.Unavailable, busyMessage))
}

// readCloser reads from Reader and closes Closer.
type readCloser struct {
	io.Reader
	io.Closer
}
