// Package reqinfo is the record the layers of the gateway keep about one
// request, for its log line and its metrics: the route that matched, why
// the answer was a 5xx, the retries of its call, what the server made of
// its token, why its body was not read. The outermost middleware
// (observe.Requests) puts it in the request's context; every layer below
// writes what it learns. It is the one thing they all share, so it imports
// none of them.
package reqinfo

import (
	"context"
	"net/http"

	"google.golang.org/grpc/status"
)

// Info is what the layers of the gateway learn about a request.
type Info struct {
	ID    string
	Route string // route template, set once a route matched
	Cause error  // why the gateway answered 5xx, when it knows
	// Retries is how many times the gRPC call was sent again on another
	// server (upstream's retry); Retried is the error of the first attempt
	// that was.
	Retries int
	Retried error
	// TokenAccepted: a server looked the bearer token up and found a
	// developer; TokenRefused: it found none (transport's known tokens).
	TokenAccepted, TokenRefused bool
	// BodyRefusal, when set, is why the gateway stopped reading the body
	// (the budget stayed full, or it arrived too slowly): the answer is
	// that refusal's, whatever the decoder made of the cut body.
	BodyRefusal *Refusal
}

// Refusal is why the gateway stopped reading a request body, and the
// answer it gives instead.
type Refusal struct {
	HTTPStatus int
	Status     *status.Status
	Cause      error // for the log line
}

func (r *Refusal) Error() string { return r.Status.Message() }

type key struct{}

// NewContext returns ctx carrying info.
func NewContext(ctx context.Context, info *Info) context.Context {
	return context.WithValue(ctx, key{}, info)
}

// From is the Info of the request of ctx, nil when it has none.
func From(ctx context.Context) *Info {
	info, _ := ctx.Value(key{}).(*Info)
	return info
}

// SetCause records err as the cause of the answer of the request of ctx,
// unless one is recorded already (the first, rawest error wins).
func SetCause(ctx context.Context, err error) {
	if info := From(ctx); info != nil && err != nil && info.Cause == nil {
		info.Cause = err
	}
}

// Carrier is a response writer that carries the Info of its request (the
// writer of observe.Requests).
type Carrier interface {
	RequestInfo() *Info
}

// RecordCause records err as the cause of the answer written to w, when w
// is (or wraps) a Carrier: for the writers of answers that have no context
// at hand.
func RecordCause(w http.ResponseWriter, err error) {
	for w != nil {
		if c, ok := w.(Carrier); ok {
			if info := c.RequestInfo(); info != nil {
				info.Cause = err
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
