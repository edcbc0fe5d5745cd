package gateway

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// maxRecvMsgBytes caps a response from the server (long timelines are big).
const maxRecvMsgBytes = 64 << 20

// Dial returns the one client connection all services share. It connects
// lazily and does not wait for readiness: while the server is down, calls
// fail at once with UNAVAILABLE (HTTP 503) instead of hanging.
func Dial(addr string, callTimeout time.Duration) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxRecvMsgBytes)),
		grpc.WithMaxHeaderListSize(maxGRPCHeaderListBytes),
		grpc.WithUnaryInterceptor(unaryInterceptor(callTimeout)),
	)
}

// unaryInterceptor gives every call without a deadline one of timeout,
// records a failed call's error as the cause for the log line, answers
// errHeaderListTooLarge when the metadata exceeds the server's header list
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
		var p peer.Peer
		err := invoker(ctx, method, req, reply, cc, append(opts, grpc.Peer(&p))...)
		if err != nil {
			setCause(ctx, fmt.Errorf("%s: %w", method, err))
		}
		if err != nil && p.Addr == nil {
			if isHeaderListSizeError(err) {
				return headerListError(err)
			}
			return localError(err)
		}
		return err
	}
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
