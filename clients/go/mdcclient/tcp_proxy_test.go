package mdcclient_test

// A TCP proxy for the tests to put between a client and the mdc-server and
// break connections in chosen ways: blackhole_proxy_test.go makes them go
// silent, answer_cutting_proxy_test.go cuts them when an answer comes.

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

type tcpProxy struct {
	listener net.Listener
	upstream string
	// serve carries one accepted connection and its connection to the
	// upstream, in goroutines of its own.
	serve    func(client, server net.Conn)
	accepted atomic.Int64

	mu      sync.Mutex
	conns   []net.Conn
	stopped bool
}

// startTCPProxy listens on a free 127.0.0.1 port and hands each connection
// with one to upstream to serve; it stops when the test ends.
func startTCPProxy(t *testing.T, upstream string, serve func(client, server net.Conn)) *tcpProxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{listener: lis, upstream: upstream, serve: serve}
	go p.acceptLoop()
	t.Cleanup(p.close)
	return p
}

func (p *tcpProxy) addr() string { return p.listener.Addr().String() }

// close stops listening and closes every connection.
func (p *tcpProxy) close() {
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

func (p *tcpProxy) acceptLoop() {
	for {
		client, err := p.listener.Accept()
		if err != nil {
			return // closed
		}
		server, err := net.Dial("tcp", p.upstream)
		if err != nil {
			_ = client.Close()
			continue
		}
		p.mu.Lock()
		if p.stopped {
			p.mu.Unlock()
			_ = client.Close()
			_ = server.Close()
			return
		}
		p.accepted.Add(1)
		p.conns = append(p.conns, client, server)
		p.mu.Unlock()
		p.serve(client, server)
	}
}
