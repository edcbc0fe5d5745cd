package gateway

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"mdc/gateway/gen/mdcv1"
)

// blockingStreams answers a watch with one message, then holds it open
// until the client leaves.
type blockingStreams struct {
	mdcv1.UnimplementedStreamServiceServer
}

func (blockingStreams) WatchNifty(_ *mdcv1.WatchNiftyRequest, s grpc.ServerStreamingServer[mdcv1.MarketEvents]) error {
	if err := s.Send(&mdcv1.MarketEvents{Cursor: "c1"}); err != nil {
		return err
	}
	<-s.Context().Done()
	return s.Context().Err()
}

// TestWatchersBeyondTheServersStreamLimitLeaveUnaryCallsAlone: a server
// that takes at most 4 calls per connection (as mdc-server takes
// MDC_MAX_THREADS/2), and more HTTP watchers than that through one gateway:
// every watcher gets its first message, and an ordinary call still answers.
// On the one shared connection the watchers took every slot and the call
// waited until its deadline (504).
func TestWatchersBeyondTheServersStreamLimitLeaveUnaryCallsAlone(t *testing.T) {
	const serverLimit, perConn, watchers = 4, 3, 20
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(grpc.MaxConcurrentStreams(serverLimit))
	rec := &recorder{health: mdcv1.HealthCheckResponse_SERVING}
	mdcv1.RegisterDeveloperServiceServer(s, fakeDeveloper{recorder: rec})
	mdcv1.RegisterStreamServiceServer(s, blockingStreams{})
	healthpb.RegisterHealthServer(s, health.NewServer())
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)

	o := testOptions()
	o.CallTimeout = 5 * time.Second
	o.StreamsPerConnection = perConn
	h, pool := newPooledTestHandler(t, lis.Addr().String(), o)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)

	// The deadline only ends a watcher that never gets its first message
	// (one waiting for a slot on a full connection); none is measured.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, watchers)
	for i := 0; i < watchers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/v1/developer/watch/nifty", nil)
			req.Header.Set("Authorization", "Bearer t")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err
				return
			}
			line, err := bufio.NewReader(resp.Body).ReadString('\n')
			if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(line, `"c1"`) {
				errs <- errors.New(resp.Status + " " + line)
			}
			// The body stays open until cancel: the watch goes on.
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("a watcher: %v", err)
	}
	// 20 streams, 3 a connection: 7 connections.
	if conns, streams := pool.Stats(); conns != 7 || streams != watchers {
		t.Errorf("stream pool: %d connections, %d streams; want 7 and %d", conns, streams, watchers)
	}
	resp := do(t, "GET", ts.URL+"/v1/developer/nifty", "", map[string]string{"Authorization": "Bearer t"})
	if resp.status != http.StatusOK {
		t.Fatalf("a unary call with %d watchers open: %d %s", watchers, resp.status, resp.body)
	}

	// The watchers leave: their slots come back.
	cancel()
	waitFor(t, "the watchers' slots", func() bool { _, n := pool.Stats(); return n == 0 })
}

// waitFor polls cond until it holds (the test's own deadline ends a hang).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-t.Context().Done():
			t.Fatalf("%s: the test ended first", what)
		case <-time.After(5 * time.Millisecond):
		}
	}
}
