package transport

import (
	"context"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"mdc/gateway/gen/mdcv1"
)

// tokenCheckTimeout bounds the token check of one request; past it the
// request goes on and the server decides.
const tokenCheckTimeout = 5 * time.Second

// SignInTokenCheck is the TokenCheck of a gateway: DashboardService.SignIn
// on conn, which identifies a token and counts an unknown one against the
// client's address in the failed-token throttle, exactly as a request with
// that token would (service/auth/auth.h). The client's address travels as
// grpc-gateway sends it on every call (x-forwarded-for, the peer last), and
// the request id with it, so the server's log line of the check carries the
// request's id.
func SignInTokenCheck(conn grpc.ClientConnInterface, requestIDHeader string) TokenCheck {
	client := mdcv1.NewDashboardServiceClient(conn)
	return func(r *http.Request) *status.Status {
		ctx, cancel := context.WithTimeout(r.Context(), tokenCheckTimeout)
		defer cancel()
		forwarded := remoteHost(r.RemoteAddr)
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" && forwarded != "" {
			forwarded = xff + ", " + forwarded
		}
		md := metadata.Pairs("x-forwarded-for", forwarded)
		if id := r.Header.Get(requestIDHeader); id != "" {
			md.Append("x-request-id", id)
		}
		ctx = metadata.NewOutgoingContext(ctx, md)
		_, err := client.SignIn(ctx, &mdcv1.SignInRequest{DeveloperToken: bearerToken(r.Header.Get("Authorization"))})
		if err == nil {
			return status.New(codes.OK, "")
		}
		return status.Convert(err)
	}
}

// remoteHost is the address part of a RemoteAddr (host:port).
func remoteHost(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return host
}
