package transport

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// WithClientAddress makes r.RemoteAddr the client's address when the
// gateway stands behind proxies it trusts (MDC_GATEWAY_TRUSTED_PROXIES, a
// load balancer): the rightmost address of X-Forwarded-For and the TCP peer
// that is not a trusted proxy. grpc-gateway then sends the server an
// x-forwarded-for whose last entry is that client, which the server, trusting
// the gateway (MDC_TRUSTED_PROXIES), counts its failed-token throttle by
// (docs/operations.md, "Client addresses"). Without trusted proxies, or from
// any other peer, the peer is the client and X-Forwarded-For is the
// client's own claim, which nothing believes.
func WithClientAddress(trusted []netip.Prefix, next http.Handler) http.Handler {
	if len(trusted) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, err := netip.ParseAddrPort(r.RemoteAddr)
		if err != nil || !isTrusted(trusted, peer.Addr()) {
			next.ServeHTTP(w, r)
			return
		}
		var hops []string
		for _, v := range r.Header.Values("X-Forwarded-For") {
			for _, hop := range strings.Split(v, ",") {
				hops = append(hops, strings.TrimSpace(hop))
			}
		}
		for len(hops) > 0 {
			last := hops[len(hops)-1]
			addr, err := netip.ParseAddr(last)
			if err != nil {
				// Not an address: the trusted proxy vouches for nothing
				// beyond it; the client is the last address it named.
				break
			}
			hops = hops[:len(hops)-1]
			r.RemoteAddr = net.JoinHostPort(addr.Unmap().String(), "0")
			if !isTrusted(trusted, addr) {
				break
			}
		}
		if len(hops) == 0 {
			r.Header.Del("X-Forwarded-For")
		} else {
			r.Header.Set("X-Forwarded-For", strings.Join(hops, ", "))
		}
		next.ServeHTTP(w, r)
	})
}

func isTrusted(trusted []netip.Prefix, addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies reads a comma-separated list of IP addresses and
// CIDR prefixes (10.0.0.0/8, ::1).
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if strings.Contains(part, "/") {
			p, err := netip.ParsePrefix(part)
			if err != nil {
				return nil, fmt.Errorf("%q is not an IP address or CIDR prefix", part)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address or CIDR prefix", part)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
