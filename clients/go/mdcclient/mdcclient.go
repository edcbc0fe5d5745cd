// Package mdcclient connects Go programs to the mdc gRPC server: Dial opens a
// connection that sends the token with every call, WithBacktestClock and
// WithRunID add the optional request metadata of docs/api.md section 1.
// The RPCs themselves are the generated clients of package mdcv1.
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
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
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
	all := []grpc.DialOption{grpc.WithTransportCredentials(transport)}
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

// WithBacktestClock returns ctx with the backtest clock set to now: the
// server answers reads as if the current time were now and refuses to read
// at or after it (x-current-timestamp, x-current-timezone). The instant is
// sent in UTC, so any time.Location of now works.
func WithBacktestClock(ctx context.Context, now time.Time) context.Context {
	return metadata.AppendToOutgoingContext(ctx,
		"x-current-timestamp", now.UTC().Format("2006-01-02T15:04:05"),
		"x-current-timezone", "UTC")
}

// WithRunID returns ctx with x-run-id set, which the server logs with the
// request.
func WithRunID(ctx context.Context, runID string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "x-run-id", runID)
}
