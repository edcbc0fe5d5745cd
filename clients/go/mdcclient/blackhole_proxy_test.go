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
	listener net.Listener
	upstream string
	accepted atomic.Int64

	mu      sync.Mutex
	conns   []net.Conn
	holes   []*atomic.Bool
	stopped bool
}

// startBlackHoleProxy listens on a free 127.0.0.1 port and forwards every
// connection to upstream; it stops when the test ends.
func startBlackHoleProxy(t *testing.T, upstream string) *blackHoleProxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &blackHoleProxy{listener: lis, upstream: upstream}
	go p.acceptLoop()
	t.Cleanup(p.close)
	return p
}

func (p *blackHoleProxy) addr() string { return p.listener.Addr().String() }

// blackHole makes every connection open now stop forwarding in both
// directions; its sockets stay open and what arrives on them is dropped.
func (p *blackHoleProxy) blackHole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, hole := range p.holes {
		hole.Store(true)
	}
}

// close stops listening and closes every connection.
func (p *blackHoleProxy) close() {
	p.mu.Lock()
	p.stopped = true
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	_ = p.listener.Close()
	for _, c := range conns {
		_ = c.Close()
	}
}

func (p *blackHoleProxy) acceptLoop() {
	for {
		client, err := p.listener.Accept()
		if err != nil {
			return // closed
		}
		upstream, err := net.Dial("tcp", p.upstream)
		if err != nil {
			_ = client.Close()
			continue
		}
		hole := new(atomic.Bool)
		p.mu.Lock()
		if p.stopped {
			p.mu.Unlock()
			_ = client.Close()
			_ = upstream.Close()
			return
		}
		p.accepted.Add(1)
		p.conns = append(p.conns, client, upstream)
		p.holes = append(p.holes, hole)
		p.mu.Unlock()
		go pipe(client, upstream, hole)
		go pipe(upstream, client, hole)
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
