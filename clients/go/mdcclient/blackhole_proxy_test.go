package mdcclient_test

// A TCP proxy for the tests that can make the connections it carries die
// silently, as a network black hole does: no reset, no FIN, no error, just
// nothing more. Connections accepted afterwards are forwarded normally.

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

type blackHoleProxy struct {
	*tcpProxy

	mu    sync.Mutex
	holes []*atomic.Bool
}

// startBlackHoleProxy listens on a free 127.0.0.1 port and forwards every
// connection to upstream; it stops when the test ends.
func startBlackHoleProxy(t *testing.T, upstream string) *blackHoleProxy {
	t.Helper()
	p := &blackHoleProxy{}
	p.tcpProxy = startTCPProxy(t, upstream, func(client, server net.Conn) {
		hole := new(atomic.Bool)
		p.mu.Lock()
		p.holes = append(p.holes, hole)
		p.mu.Unlock()
		go pipe(client, server, hole)
		go pipe(server, client, hole)
	})
	return p
}

// blackHole makes every connection open now stop forwarding in both
// directions; its sockets stay open and what arrives on them is dropped.
func (p *blackHoleProxy) blackHole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, hole := range p.holes {
		hole.Store(true)
	}
}

// pipe copies src to dst until src ends; once hole is set it drops
// everything and closes nothing.
func pipe(src, dst net.Conn, hole *atomic.Bool) {
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if hole.Load() {
			if err != nil {
				return // the peer hung up: keep our side open regardless
			}
			continue
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				if tcp, ok := dst.(*net.TCPConn); ok {
					_ = tcp.CloseWrite()
				}
			}
			return
		}
	}
}
