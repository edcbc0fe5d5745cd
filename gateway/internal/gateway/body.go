package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// busyMessage is the 503 message of a request refused because the body
// budget stayed full for bodyWait.
const busyMessage = "the gateway is busy with other request bodies; retry shortly"

// The upload rate a body must keep: after bodyGrace, at least
// minUploadBytesPerSecond on average since its first byte was awaited, and
// in any case within bodyReadLimit (http.Server.ReadTimeout). A client that
// announces a large body and trickles it is cut off long before the read
// timeout, so it cannot hold a connection and its budget for a minute.
// (Variables only so that tests can shorten them.)
var (
	bodyGrace               = 5 * time.Second
	minUploadBytesPerSecond = 32 << 10
)

const bodyReadLimit = time.Minute

// budgetReadChunk is the most one Read of a body takes at once, so that
// the budget grows with the bytes that arrived, a chunk at a time.
const budgetReadChunk = 64 << 10

// bodyRefusal is why the gateway stopped reading a body.
type bodyRefusal struct {
	httpStatus int
	st         *status.Status
	cause      error // for the log line
}

func (r *bodyRefusal) Error() string { return r.st.Message() }

// limitBody refuses bodies larger than limit bytes with 413 before anything
// parses them: at once when Content-Length says so, and for bodies of
// unknown length (chunked) by reading at most limit+1 bytes first.
//
// Every body is read through a budgetBody: it takes budget for the bytes as
// they arrive (the strangers' half of it unless known says the request's
// token is known) and gives it all back when next returns, and it keeps
// the minimum upload rate. A body that cannot get budget within bodyWait is
// answered 503 with Retry-After, one that arrives too slowly 408; both
// close the connection.
func limitBody(limit int64, budget *bodyBudget, known *knownTokens, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			writeTooLarge(w, m, limit)
			return
		}
		if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		body := &budgetBody{
			r:        r.Body,
			ctx:      r.Context(),
			budget:   budget,
			stranger: !known.known(r.Header.Get("Authorization")),
			rc:       http.NewResponseController(w),
			start:    time.Now(),
		}
		defer body.releaseAll()

		if r.ContentLength < 0 {
			chunks, err := readChunked(body, limit+1)
			if body.refusal != nil {
				writeRefusal(w, r, m, body.refusal)
				return
			}
			if err != nil {
				writeStatus(w, m, http.StatusBadRequest, status.New(codes.InvalidArgument, "could not read the request body"))
				return
			}
			defer chunks.free()
			if chunks.n > limit {
				writeTooLarge(w, m, limit)
				return
			}
			r.Body = readCloser{Reader: chunks.reader(), Closer: r.Body}
		} else {
			r.Body = readCloser{Reader: body, Closer: r.Body}
		}
		next.ServeHTTP(w, r)
	})
}

// budgetBody reads a request body, taking budget for each chunk read.
type budgetBody struct {
	r        io.Reader
	ctx      context.Context
	budget   *bodyBudget
	stranger bool
	rc       *http.ResponseController
	start    time.Time
	held     int64
	refusal  *bodyRefusal
}

func (b *budgetBody) Read(p []byte) (int, error) {
	if b.refusal != nil {
		return 0, b.refusal
	}
	if len(p) > budgetReadChunk {
		p = p[:budgetReadChunk]
	}
	// The bytes read so far and these must have arrived by then.
	due := b.start.Add(bodyGrace + time.Duration(float64(b.held+int64(len(p)))/float64(minUploadBytesPerSecond)*float64(time.Second)))
	if limit := b.start.Add(bodyReadLimit); due.After(limit) {
		due = limit
	}
	// Unsupported writers (tests' recorders) keep the server's timeouts.
	_ = b.rc.SetReadDeadline(due)
	n, err := b.r.Read(p)
	if n > 0 {
		ctx, cancel := context.WithTimeout(b.ctx, bodyWait)
		ok := b.budget.acquire(ctx, int64(n), b.stranger)
		cancel()
		if !ok {
			all, strangers := b.budget.inUse()
			return 0, b.refuse(http.StatusServiceUnavailable, status.New(codes.Unavailable, busyMessage),
				fmt.Errorf("body budget full for %v: %d of %d bytes held, %d by requests with unknown tokens (this one: %v)",
					bodyWait, all, b.budget.size, strangers, b.stranger))
		}
		b.held += int64(n)
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return 0, b.refuse(http.StatusRequestTimeout, status.New(codes.DeadlineExceeded, fmt.Sprintf(
			"the request body arrived too slowly: it must come at %d bytes a second or faster after the first %v",
			minUploadBytesPerSecond, bodyGrace)),
			fmt.Errorf("request body too slow: %d bytes in %v", b.held, time.Since(b.start).Round(time.Millisecond)))
	}
	return n, err
}

// refuse notes why the body is not read any further (the error handler
// answers with it) and returns it.
func (b *budgetBody) refuse(httpStatus int, st *status.Status, cause error) error {
	b.refusal = &bodyRefusal{httpStatus: httpStatus, st: st, cause: cause}
	if info := infoFrom(b.ctx); info != nil {
		info.bodyRefusal = b.refusal
	}
	return b.refusal
}

func (b *budgetBody) releaseAll() {
	b.budget.release(b.held, b.stranger)
	b.held = 0
}

// writeRefusal answers a request whose body the gateway stopped reading.
func writeRefusal(w http.ResponseWriter, r *http.Request, m runtime.Marshaler, refusal *bodyRefusal) {
	// The rest of the body is still on the connection: do not reuse it.
	w.Header().Set("Connection", "close")
	if refusal.httpStatus == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	setCause(r.Context(), refusal.cause)
	writeStatus(w, m, refusal.httpStatus, refusal.st)
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
