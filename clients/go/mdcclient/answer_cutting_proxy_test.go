package mdcclient_test

// A TCP proxy for the retry tests that loses a call's answer: while armed,
// it cuts a connection (closing both sides) when the server starts
// answering an RPC on it, i.e. at the first HTTP/2 HEADERS frame of a
// stream that comes from the server. The server has run the call by then
// (the mdc-server sends a unary call's headers with its answer), so the
// client sees UNAVAILABLE for a call that took effect: the case in which
// only an idempotent call may be sent again.

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"
)

const (
	frameHeaderLen = 9   // HTTP/2 frame header: length (3), type, flags, stream (4)
	frameHeaders   = 0x1 // HTTP/2 frame type HEADERS
)

type answerCuttingProxy struct {
	*tcpProxy

	mu    sync.Mutex
	armed int // answers still to cut
	cut   int // answers cut so far
}

// startAnswerCuttingProxy listens on a free 127.0.0.1 port and forwards
// every connection to upstream; it stops when the test ends.
func startAnswerCuttingProxy(t *testing.T, upstream string) *answerCuttingProxy {
	t.Helper()
	p := &answerCuttingProxy{}
	p.tcpProxy = startTCPProxy(t, upstream, func(client, server net.Conn) {
		go func() {
			_, _ = io.Copy(server, client)
			_ = server.Close()
		}()
		go p.forwardAnswers(server, client)
	})
	return p
}

// cutNext arms the proxy to cut the next n answers, each with its
// connection.
func (p *answerCuttingProxy) cutNext(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed = n
}

// cuts is how many answers were cut so far.
func (p *answerCuttingProxy) cuts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cut
}

// takeCut reports whether the answer now arriving is to be cut, counting it.
func (p *answerCuttingProxy) takeCut() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.armed == 0 {
		return false
	}
	p.armed--
	p.cut++
	return true
}

// forwardAnswers copies the server's HTTP/2 frames to the client, frame by
// frame, until either side ends or an answer is to be cut.
func (p *answerCuttingProxy) forwardAnswers(server, client net.Conn) {
	defer client.Close()
	defer server.Close()
	header := make([]byte, frameHeaderLen)
	for {
		if _, err := io.ReadFull(server, header); err != nil {
			return
		}
		length := int(header[0])<<16 | int(header[1])<<8 | int(header[2])
		stream := binary.BigEndian.Uint32(header[5:]) & 0x7fffffff
		if header[3] == frameHeaders && stream != 0 && p.takeCut() {
			return
		}
		payload := make([]byte, length)
		if _, err := io.ReadFull(server, payload); err != nil {
			return
		}
		if _, err := client.Write(append(header, payload...)); err != nil {
			return
		}
	}
}
