package mdcclient

// The connections Dial makes, tracked so that a stream that hears nothing
// for its idle timeout can close the connection it runs on (streams.go).
// Cancelling the stream's RPC alone would not do: gRPC would send the next
// one over the same HTTP/2 connection, which may be dead without knowing it
// (a network black hole: no reset, no error, nothing), and wait there too.

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/peer"
)

// liveConns maps the address pair of each open tracked connection to it.
var liveConns sync.Map // connKey -> *trackedConn

// trackedSince is the origin of trackedConn.lastRead (monotonic).
var trackedSince = time.Now()

type connKey struct{ local, remote string }

// trackedConn is a connection made by dialTracked: it remembers when it last
// read something.
type trackedConn struct {
	net.Conn
	key      connKey
	lastRead atomic.Int64 // time.Since(trackedSince) of the last read that returned bytes
	once     sync.Once
}

// dialTracked is Dial's context dialer: as gRPC's own (TCP, or a "unix:"
// target), with the connection tracked.
func dialTracked(ctx context.Context, addr string) (net.Conn, error) {
	network := "tcp"
	if rest, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, addr = "unix", strings.TrimPrefix(rest, "//")
	}
	raw, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	c := &trackedConn{Conn: raw, key: connKey{raw.LocalAddr().String(), raw.RemoteAddr().String()}}
	c.lastRead.Store(int64(time.Since(trackedSince)))
	liveConns.Store(c.key, c)
	return c, nil
}

func (c *trackedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.lastRead.Store(int64(time.Since(trackedSince)))
	}
	return n, err
}

func (c *trackedConn) Close() error {
	c.once.Do(func() { liveConns.Delete(c.key) })
	return c.Conn.Close()
}

// silentFor is how long the connection has read nothing.
func (c *trackedConn) silentFor() time.Duration {
	return time.Since(trackedSince) - time.Duration(c.lastRead.Load())
}

// closeIfSilent closes the tracked connection that carries the RPC whose
// stream context is ctx when it has read nothing for at least d: then every
// RPC on it is starving, and gRPC dials a new one for the next. A connection
// that still reads (other RPCs' messages) stays. False when the connection
// is not one of Dial's or still reads.
func closeIfSilent(ctx context.Context, d time.Duration) bool {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil || p.LocalAddr == nil {
		return false
	}
	found, ok := liveConns.Load(connKey{p.LocalAddr.String(), p.Addr.String()})
	if !ok {
		return false
	}
	c := found.(*trackedConn)
	if c.silentFor() < d {
		return false
	}
	_ = c.Close()
	return true
}

// viaProxy reports whether the environment (HTTPS_PROXY, NO_PROXY) sends
// connections to addr through an HTTP CONNECT proxy, which gRPC's own dialer
// honours and a custom one would bypass.
func viaProxy(addr string) bool {
	if i := strings.LastIndex(addr, "///"); i >= 0 {
		addr = addr[i+3:]
	}
	proxy, err := http.ProxyFromEnvironment(&http.Request{URL: &url.URL{Scheme: "https", Host: addr}})
	return err != nil || proxy != nil
}
