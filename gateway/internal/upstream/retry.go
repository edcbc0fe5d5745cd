package upstream

// Retrying a unary call on another server (docs/architecture.md, "Several
// servers"). A call that failed because its server went away (killed, cut
// off, or draining after SIGTERM: shouldRetry) is sent again, at once, within the call's
// own deadline, and the balancer picks a server that is still there; the
// client sees only the answer of the last attempt. Only the methods that
// retryable holds are sent again: their idempotency_level says a second
// execution, had the first taken effect, leaves the same data and gives the
// same answer, so the retry is invisible. The others (Create Run, Create Order, ...) answer 503
// and the client decides (docs/api.md: list before retrying a create).
//
// Streaming calls (StreamService) never pass through here: once a message
// has arrived a retry would repeat it, and the client resumes from its last
// cursor instead. gRPC itself still replays any call no server received
// (transparent retry), whatever its method.

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/rpcpolicy"
)

// retryable holds, by gRPC method name (/mdc.v1.Service/Method), the
// methods whose failed attempt is sent again: the unary RPCs whose
// idempotency_level (proto/mdc/v1, read from the descriptors) says a second
// execution is invisible, NO_SIDE_EFFECTS or IDEMPOTENT. Streams never are,
// nor IDEMPOTENCY_UNKNOWN (creates, deletes, key refreshes), nor a method
// mdc.v1 does not define.
var retryable = retryableMethods()

func retryableMethods() map[string]bool {
	methods := map[string]bool{}
	rpcpolicy.Methods(func(md protoreflect.MethodDescriptor) {
		if !rpcpolicy.Streams(md) && rpcpolicy.Idempotent(md) {
			methods[rpcpolicy.GRPCMethod(md)] = true
		}
	})
	return methods
}

// retryDelays are the waits before the second and third attempt: the
// first retry goes at once (the balancer already knows the failed server is
// gone, or learns it while picking), the second after a pause.
var retryDelays = []time.Duration{0, 50 * time.Millisecond}

// attempt is what one attempt of a call tells about where it failed.
type attempt struct {
	// reachedServer: the call was sent on a connection to a server.
	reachedServer bool
	// serverAnswered: the status is the server's own answer (its response
	// headers or trailers arrived), not the client library's account of a
	// connection that broke under the call.
	serverAnswered bool
}

// shouldRetry reports whether an attempt of method that failed with err is
// sent again. Only for the methods retryable holds, while the caller
// still waits, and when the attempt reached a server (one that reached none
// failed because no server is ready, gRPC having replayed it where it
// could: it is answered at once). Then:
//
//   - UNAVAILABLE that the server did not answer: the connection broke under
//     the call (the server was killed, or its host or network went away).
//   - CANCELLED: the server cancelled it (a draining server cancels the
//     calls it received but had not started, docs/api.md 9.1).
//
// An UNAVAILABLE the server answered itself (its database is unreachable,
// DATABASE_TIMEOUT, BROKER_UNAVAILABLE) is its considered answer about the
// database or the broker, which every server shares: it stands.
func shouldRetry(ctx context.Context, method string, err error, a attempt) bool {
	if err == nil || ctx.Err() != nil || !a.reachedServer || !retryable[method] {
		return false
	}
	switch status.Code(err) {
	case codes.Unavailable:
		return !a.serverAnswered
	case codes.Canceled:
		return true
	}
	return false
}

// invokeWithRetry makes the call, and again on another server while
// shouldRetry says so, at most len(retryDelays) times. It returns the
// server the last attempt reached (zero when none), how many attempts were
// sent again, and the last attempt's error.
func invokeWithRetry(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
	invoker grpc.UnaryInvoker, opts []grpc.CallOption) (peer.Peer, int, error) {
	opts = opts[:len(opts):len(opts)] // each attempt appends its own options
	for retries := 0; ; retries++ {
		var p peer.Peer
		var header, trailer metadata.MD
		err := invoker(ctx, method, req, reply, cc,
			append(opts, grpc.Peer(&p), grpc.Header(&header), grpc.Trailer(&trailer))...)
		// A server's answer always brings metadata (content-type at least);
		// a broken connection brings none.
		a := attempt{reachedServer: p.Addr != nil, serverAnswered: len(header) > 0 || len(trailer) > 0}
		if retries == len(retryDelays) || !shouldRetry(ctx, method, err, a) {
			return p, retries, err
		}
		noteRetry(ctx, err)
		if !sleepCtx(ctx, retryDelays[retries]) {
			return p, retries, err
		}
	}
}

// sleepCtx waits d, or until ctx is done; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// noteRetry counts a retry in the request's log line, with the error of the
// first attempt that was sent again.
func noteRetry(ctx context.Context, err error) {
	if info := reqinfo.From(ctx); info != nil {
		info.Retries++
		if info.Retried == nil {
			info.Retried = err
		}
	}
}
