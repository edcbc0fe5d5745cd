package upstream

// Several mdc servers behind one gateway (docs/architecture.md, "Several
// servers"). MDC_GRPC_ADDR names them: one address (host:port, or any gRPC
// target such as dns:///mdc-server:50051), where a DNS name that resolves
// to several addresses stands for all of them; or a comma-separated list of
// host:port, one server each. Calls are balanced round robin over the
// servers that report themselves SERVING through grpc.health.v1 (client-side
// health checking, service ""), so a server that loses its database or
// drains stops getting calls at once.

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	// Registers the client side of grpc.health.v1, which healthCheckConfig
	// in the service config needs.
	_ "google.golang.org/grpc/health"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
)

// listScheme is the scheme of the static resolver that serves a list of
// server addresses.
const listScheme = "mdc-servers"

// healthCheckedServiceConfig balances calls round robin over the servers
// whose grpc.health.v1 status for "" (the whole server) is SERVING.
const healthCheckedServiceConfig = `{
  "loadBalancingConfig": [{"round_robin": {}}],
  "healthCheckConfig": {"serviceName": ""}
}`

// AnyServerServiceConfig balances round robin over every server that takes
// connections, healthy or not; only /health uses it, to hear why no server
// is healthy (health.go).
const AnyServerServiceConfig = `{"loadBalancingConfig": [{"round_robin": {}}]}`

// MaxReconnectDelay bounds how long a server that went away waits before
// the gateway tries it again (reconnectBackoff): at most that long after it
// is back, it gets calls again (gRPC's default grows to two minutes).
const MaxReconnectDelay = 5 * time.Second

var reconnectBackoff = grpc.WithConnectParams(grpc.ConnectParams{
	Backoff: backoff.Config{
		BaseDelay:  backoff.DefaultConfig.BaseDelay,
		Multiplier: backoff.DefaultConfig.Multiplier,
		Jitter:     backoff.DefaultConfig.Jitter,
		MaxDelay:   MaxReconnectDelay,
	},
	MinConnectTimeout: 20 * time.Second,
})

// ParseServerAddrs splits a MDC_GRPC_ADDR value into its servers. A value
// without a comma is one target, passed to gRPC as it is (host:port, or a
// gRPC target such as dns:///name:port). A list has one host:port per
// server, each with a port from 1 to 65535, none twice.
func ParseServerAddrs(value string) ([]string, error) {
	if !strings.Contains(value, ",") {
		addr := strings.TrimSpace(value)
		if addr == "" {
			return nil, fmt.Errorf("no server address")
		}
		return []string{addr}, nil
	}
	var addrs []string
	seen := map[string]bool{}
	for i, part := range strings.Split(value, ",") {
		addr := strings.TrimSpace(part)
		if err := checkHostPort(addr); err != nil {
			return nil, fmt.Errorf("entry %d %q of the list: %w", i+1, addr, err)
		}
		if seen[addr] {
			return nil, fmt.Errorf("entry %d %q of the list: the address is listed twice", i+1, addr)
		}
		seen[addr] = true
		addrs = append(addrs, addr)
	}
	return addrs, nil
}

// checkHostPort accepts host:port (an IPv6 host in brackets) with a port
// from 1 to 65535.
func checkHostPort(addr string) error {
	if addr == "" {
		return fmt.Errorf("empty: want host:port")
	}
	if strings.Contains(addr, "://") {
		return fmt.Errorf("a list takes host:port entries, not gRPC targets; for a DNS name that resolves to several servers give that name alone")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want host:port: %w", err)
	}
	if host == "" {
		return fmt.Errorf("no host: want host:port")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port %q: want a number from 1 to 65535", port)
	}
	return nil
}

// serverTarget is the gRPC target of a MDC_GRPC_ADDR value and the dial
// options it needs. One address is its own target (gRPC's DNS resolver
// turns a name into all its addresses). A list is served by a static
// resolver of its own; each address carries its host as the name its TLS
// certificate is checked against (unless MDC_GRPC_TLS_SERVER_NAME sets one
// name for all).
func serverTarget(value string) (string, []grpc.DialOption, error) {
	addrs, err := ParseServerAddrs(value)
	if err != nil {
		return "", nil, fmt.Errorf("MDC_GRPC_ADDR: %w", err)
	}
	if len(addrs) == 1 {
		return addrs[0], nil, nil
	}
	state := resolver.State{}
	for _, addr := range addrs {
		host, _, _ := net.SplitHostPort(addr)
		state.Addresses = append(state.Addresses, resolver.Address{Addr: addr, ServerName: host})
	}
	// One resolver per connection: a manual resolver serves one ClientConn.
	r := manual.NewBuilderWithScheme(listScheme)
	r.InitialState(state)
	return listScheme + ":///servers", []grpc.DialOption{grpc.WithResolvers(r)}, nil
}
