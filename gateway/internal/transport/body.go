package transport

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

	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/reqinfo"
)

// BusyMessage is the 503 message of a request refused because the body
// budget stayed full for BodyWait.
const BusyMessage = "the gateway is busy with other request bodies; retry shortly"

// UploadRate is the upload rate a body must keep: after Grace, at least
// MinBytesPerSecond on average since its first byte was awaited, and in any
// case within bodyReadLimit (http.Server.ReadTimeout). A client that
// announces a large body and trickles it is cut off long before the read
// timeout, so it cannot hold a connection and its budget for a minute.
type UploadRate struct {
	Grace             time.Duration
	MinBytesPerSecond int
}

// DefaultUploadRate is the gateway's: 32 KiB a second after 5 seconds.
var DefaultUploadRate = UploadRate{Grace: 5 * time.Second, MinBytesPerSecond: 32 << 10}

const bodyReadLimit = time.Minute

// budgetReadChunk is the most one Read of a body takes at once, so that
// the budget grows with the bytes that arrived, a chunk at a time.
const budgetReadChunk = 64 << 10

// LimitBody refuses bodies larger than limit bytes with 413 before anything
// parses them: at once when Content-Length says so, and for bodies of
// unknown length (chunked) by reading at most limit+1 bytes first.
//
// Every body is read through a budgetBody: it takes budget for the bytes as
// they arrive (the strangers' half of it unless known says the request's
// token is known) and gives it all back when next returns, and it keeps
// the minimum upload rate. A body that cannot get budget within BodyWait is
// answered 503 with Retry-After, one that arrives too slowly 408; both
// close the connection.
func LimitBody(limit int64, rate UploadRate, budget *BodyBudget, known *KnownTokens, m runtime.Marshaler, next http.Handler) http.Handler {
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
			rate:     rate,
			rc:       http.NewResponseController(w),
			start:    time.Now(),
		}
		defer body.releaseAll()

		if r.ContentLength < 0 {
			chunks, err := readChunked(body, limit+1)
			if body.refusal != nil {
				apierror.WriteRefusal(w, r, m, body.refusal)
				return
			}
			if err != nil {
				apierror.Write(w, m, http.StatusBadRequest, status.New(codes.InvalidArgument, "could not read the request body"))
				return
			}
			defer chunks.free()
			if chunks.n > limit {
				writeTooLarge(w, m, limit)
				return
			}
			r.Body = readCloser{Reader: chunks.reader(), Closer: r.Body}
		} else {
			r.Body = sizedBody{readCloser: readCloser{Reader: body, Closer: r.Body}, length: r.ContentLength}
		}
		next.ServeHTTP(w, r)
	})
}

// budgetBody reads a request body, taking budget for each chunk read.
type budgetBody struct {
	r        io.Reader
	ctx      context.Context
	budget   *BodyBudget
	stranger bool
	rate     UploadRate
	rc       *http.ResponseController
	start    time.Time
	held     int64
	refusal  *reqinfo.Refusal
	eof      bool // the body has ended: reads after that need no deadline
}

func (b *budgetBody) Read(p []byte) (int, error) {
	if b.refusal != nil {
		return 0, b.refusal
	}
	if b.eof {
		// The decoder read up to EOF and grpc-gateway drains the body
		// again: no deadline for a read that waits for nothing.
		return 0, io.EOF
	}
	if len(p) > budgetReadChunk {
		p = p[:budgetReadChunk]
	}
	// The bytes read so far and these must have arrived by then.
	due := b.start.Add(b.rate.Grace + time.Duration(float64(b.held+int64(len(p)))/float64(b.rate.MinBytesPerSecond)*float64(time.Second)))
	if limit := b.start.Add(bodyReadLimit); due.After(limit) {
		due = limit
	}
	// Unsupported writers (tests' recorders) keep the server's timeouts.
	_ = b.rc.SetReadDeadline(due)
	n, err := b.r.Read(p)
	if n > 0 {
		// A timer only when the budget is short: the common read takes it at once.
		ok := b.budget.tryAcquire(int64(n), b.stranger)
		if !ok {
			ctx, cancel := context.WithTimeout(b.ctx, BodyWait)
			ok = b.budget.acquire(ctx, int64(n), b.stranger)
			cancel()
		}
		if !ok {
			all, strangers := b.budget.InUse()
			return 0, b.refuse(http.StatusServiceUnavailable, status.New(codes.Unavailable, BusyMessage),
				fmt.Errorf("body budget full for %v: %d of %d bytes held, %d by requests with unknown tokens (this one: %v)",
					BodyWait, all, b.budget.size, strangers, b.stranger))
		}
		b.held += int64(n)
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return 0, b.refuse(http.StatusRequestTimeout, status.New(codes.DeadlineExceeded, fmt.Sprintf(
			"the request body arrived too slowly: it must come at %d bytes a second or faster after the first %v",
			b.rate.MinBytesPerSecond, b.rate.Grace)),
			fmt.Errorf("request body too slow: %d bytes in %v", b.held, time.Since(b.start).Round(time.Millisecond)))
	}
	b.eof = err == io.EOF
	return n, err
}

// refuse notes why the body is not read any further (the error handler
// answers with it) and returns it.
func (b *budgetBody) refuse(httpStatus int, st *status.Status, cause error) error {
	b.refusal = &reqinfo.Refusal{HTTPStatus: httpStatus, Status: st, Cause: cause}
	if info := reqinfo.From(b.ctx); info != nil {
		info.BodyRefusal = b.refusal
	}
	return b.refusal
}

func (b *budgetBody) releaseAll() {
	b.budget.release(b.held, b.stranger)
	b.held = 0
}

func writeTooLarge(w http.ResponseWriter, m runtime.Marshaler, limit int64) {
	// The connection may still carry the unread body; do not reuse it.
	w.Header().Set("Connection", "close")
	st := status.New(codes.ResourceExhausted, fmt.Sprintf("request body is larger than %d bytes", limit))
	apierror.Write(w, m, http.StatusRequestEntityTooLarge, st)
}

// sizedBody is a body of known length (codec.SizedBody: the decoder
// reads it into one buffer of that size).
type sizedBody struct {
	readCloser
	length int64
}

func (s sizedBody) ContentLength() int64 { return s.length }

// readCloser reads from Reader and closes Closer.
type readCloser struct {
	io.Reader
	io.Closer
}
