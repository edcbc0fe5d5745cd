// Package upstream is the gateway's gRPC side: the connections to the mdc
// servers (dial.go; MDC_GRPC_ADDR names one or several, servers.go,
// balanced round robin over the healthy ones), the retry of a call whose
// server went away (retry.go, by each RPC's idempotency_level), the health
// answer from any healthy server (health.go), the pool of connections of
// the streaming calls (streampool.go), TLS to the servers (tls.go) and the
// header list the servers accept (headerlist.go).
package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/reqinfo"
)

// maxRecvMsgBytes caps a response from the server (long timelines are big).
const maxRecvMsgBytes = 64 << 20

// Dial returns the one client connection all services share, to every
// server addr names (MDC_GRPC_ADDR: one address, a DNS name of several, or
// a list; servers.go), balanced round robin over the healthy ones. It
// connects lazily and does not wait for readiness: while no server is
// healthy, calls fail at once with UNAVAILABLE (HTTP 503) instead of
// hanging. The transport is plaintext unless opts give other credentials
// (Credentials in tls.go); opts are applied last.
func Dial(addr string, callTimeout time.Duration, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	target, targetOpts, err := serverTarget(addr)
	if err != nil {
		return nil, err
	}
	return grpc.NewClient(target, append(append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(healthCheckedServiceConfig),
		grpc.WithDisableServiceConfig(), // a DNS TXT record cannot change it
		reconnectBackoff,
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxRecvMsgBytes)),
		grpc.WithMaxHeaderListSize(maxGRPCHeaderListBytes),
		grpc.WithUnaryInterceptor(unaryInterceptor(callTimeout)),
		grpc.WithStreamInterceptor(streamInterceptor()),
	}, targetOpts...), opts...)...)
}

// unaryInterceptor gives every call without a deadline one of timeout,
// records a failed call's error as the cause for the log line, answers
// ErrHeaderListTooLarge when the metadata exceeds the server's header list
// size, and replaces the text of other errors the gRPC client library
// produced itself (the call never reached a server) so transport details
// such as dial errors and addresses never reach HTTP clients.
func unaryInterceptor(timeout time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		// An idempotent call cut off by its server is sent to another one.
		p, _, err := invokeWithRetry(ctx, method, req, reply, cc, invoker, opts)
		noteTokenAccepted(ctx, err, &p)
		return callError(ctx, method, err, &p)
	}
}

// callError records err (nil: none) as the cause of a failed call and
// returns its client-facing form: ErrHeaderListTooLarge when the metadata
// exceeds the server's header list size, a reworded error when the gRPC
// client library raised it itself (p, the call's peer, is unset: the call
// never reached a server), else err.
func callError(ctx context.Context, method string, err error, p *peer.Peer) error {
	if err == nil {
		return nil
	}
	reqinfo.SetCause(ctx, fmt.Errorf("%s: %w", method, err))
	if p.Addr == nil {
		if isHeaderListSizeError(err) {
			return headerListError(err)
		}
		return localError(err)
	}
	return err
}

// streamInterceptor is unaryInterceptor for the streaming calls
// (StreamService), without the deadline: a watch lasts as long as its
// client wants. Errors of opening the stream and of its first answer get
// the same treatment, so headers over the server's limit are 431 and
// transport details stay private there too.
func streamInterceptor() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		p := &peer.Peer{}
		cs, err := streamer(ctx, desc, cc, method, append(opts, grpc.Peer(p))...)
		if err != nil {
			return nil, callError(ctx, method, err, p)
		}
		return &checkedStream{ClientStream: cs, ctx: ctx, method: method, peer: p}, nil
	}
}

// checkedStream passes the errors of a stream's header and messages through
// callError (io.EOF, the normal end, unchanged).
type checkedStream struct {
	grpc.ClientStream
	ctx    context.Context
	method string
	peer   *peer.Peer
}

func (s *checkedStream) Header() (metadata.MD, error) {
	md, err := s.ClientStream.Header()
	return md, callError(s.ctx, s.method, err, s.peer)
}

func (s *checkedStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if errors.Is(err, io.EOF) {
		return err
	}
	// A message (or the server's own error) came: for a stream, the first
	// message is what proves the token was accepted.
	noteTokenAccepted(s.ctx, err, s.peer)
	return callError(s.ctx, s.method, err, s.peer)
}

// noteTokenAccepted marks the request of ctx when a server answered its
// call (p was set) in a way that tells whether it accepted the bearer
// token.
func noteTokenAccepted(ctx context.Context, err error, p *peer.Peer) {
	info := reqinfo.From(ctx)
	if p.Addr == nil || info == nil {
		return
	}
	code := status.Code(err)
	info.TokenAccepted = tokenAccepted(code)
	info.TokenRefused = code == codes.Unauthenticated
}

// localError is the client-facing form of an error raised before the call
// reached the server.
func localError(err error) error {
	switch code := status.Code(err); code {
	case codes.Unavailable:
		return status.Error(code, "the mdc server is unavailable; try again later")
	case codes.DeadlineExceeded:
		return status.Error(code, "the mdc server did not answer in time")
	case codes.Canceled:
		return status.Error(code, "the request was canceled")
	default:
		return status.Error(code, "internal error")
	}
}

// tokenAccepted reports whether a server's answer with code means it looked
// the caller's token up and found a developer: mdc-server checks the token
// before the role, the X-Current-* headers and the request (a 429 of the
// rate limit or the failed-token throttle comes before the lookup, a 503
// says nothing).
func tokenAccepted(code codes.Code) bool {
	switch code {
	case codes.OK, codes.InvalidArgument, codes.PermissionDenied, codes.NotFound,
		codes.AlreadyExists, codes.FailedPrecondition, codes.OutOfRange, codes.Aborted:
		return true
	}
	return false
}
