// Package mdcclient connects Go programs to the mdc gRPC server; the RPCs
// themselves are the generated clients of package mdcv1. It adds what the
// generated code lacks:
//
//   - Dial: a connection that sends the token with every call and retries
//     the calls the descriptors mark idempotent when they fail with
//     UNAVAILABLE (retry.go);
//   - ErrorOf: a failed call's code, message, reason, field violations and
//     retry delay (errors.go);
//   - AllRuns, AllOrders, AllDevelopers, AllQuotes, AllNiftyQuotes:
//     iterators over every item of a paged read (pages.go);
//   - WallClock, ParseWallClock, IST, TradingDate, WithBacktestClock,
//     WithRunID: the wall-clock times, trading dates and request metadata of
//     docs/api.md section 1 (walltime.go);
//   - WatchQuotes, WatchNifty, WatchShortlists, ReplayDay: the streams, which
//     resume by themselves (streams.go).
package mdcclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// Dial returns a connection to the mdc server at addr ("host:port") that
// sends "authorization: Bearer <token>" with every RPC (no token when token
// is empty). The transport is TLS with the system roots, except for loopback
// hosts (localhost, 127.0.0.0/8, ::1), where plaintext is allowed because
// the token never leaves the machine. Options are applied after these
// defaults, e.g. TLSWithCA for a server with a certificate of a private CA;
// the token is refused over plaintext to any other host.
//
// Dial makes the connections itself (grpc.WithContextDialer) and tracks them,
// so that a stream that hears nothing for its IdleTimeout can close the
// connection it runs on and resume on a new one (conntrack.go); except when
// the environment sends addr through a proxy (HTTPS_PROXY), which gRPC's own
// dialer honours: then a silent stream is only called again.
//
// Unary calls of the RPCs whose descriptors say a second execution is
// harmless are sent again when they fail with UNAVAILABLE, as
// RetryInterceptor describes, under DefaultRetryPolicy or the policy of a
// WithRetryPolicy option; interceptors given with
// grpc.WithChainUnaryInterceptor run inside it, once per attempt.
//
// Like grpc.NewClient, Dial connects lazily: errors show up on the first RPC.
// Close the connection when done.
func Dial(addr, token string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	if addr == "" {
		return nil, errors.New("mdcclient: empty server address")
	}
	loopback := IsLoopback(addr)
	transport := credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
	if loopback {
		transport = insecure.NewCredentials()
	}
	all := []grpc.DialOption{
		grpc.WithTransportCredentials(transport),
		grpc.WithChainUnaryInterceptor(RetryInterceptor(retryPolicyOf(opts))),
	}
	if !viaProxy(addr) {
		all = append(all, grpc.WithContextDialer(dialTracked))
	}
	if token != "" {
		all = append(all, grpc.WithPerRPCCredentials(bearer{token: token, requireTLS: !loopback}))
	}
	return grpc.NewClient(addr, append(all, opts...)...)
}

// TLSWithCA returns the Dial option for a server whose certificate a
// private CA signed (mdc-server with MDC_GRPC_TLS_CERT and
// MDC_GRPC_TLS_KEY; docs/operations.md, "TLS"): TLS 1.2 or later, the
// server verified against the PEM certificates in caFile only. It applies
// to loopback addresses too, which Dial would otherwise reach in
// plaintext:
//
//	tlsOpt, err := mdcclient.TLSWithCA("/etc/mdc/ca.pem")
//	if err != nil { ... }
//	conn, err := mdcclient.Dial("mdc.internal:50051", token, tlsOpt)
func TLSWithCA(caFile string) (grpc.DialOption, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("mdcclient: reading the CA certificates: %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("mdcclient: no PEM certificate in %s", caFile)
	}
	return grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{
		MinVersion: tls.VersionTLS12,
		RootCAs:    roots,
	})), nil
}

// IsLoopback reports whether addr ("host:port" or a gRPC target such as
// "dns:///host:port") names this machine: localhost or a loopback IP.
func IsLoopback(addr string) bool {
	if i := strings.LastIndex(addr, "///"); i >= 0 {
		addr = addr[i+3:]
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bearer is the per-RPC credential Dial installs.
type bearer struct {
	token      string
	requireTLS bool
}

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + b.token}, nil
}

func (b bearer) RequireTransportSecurity() bool { return b.requireTLS }
