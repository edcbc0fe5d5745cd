package mdcclient_test

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// healthServer records the metadata of the last call.
type healthServer struct {
	mdcv1.UnimplementedHealthServiceServer
	got chan metadata.MD
}

func (h *healthServer) Check(ctx context.Context, _ *mdcv1.HealthCheckRequest) (*mdcv1.HealthCheckResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	h.got <- md
	return &mdcv1.HealthCheckResponse{}, nil
}

func startServer(t *testing.T) (string, *healthServer) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	h := &healthServer{got: make(chan metadata.MD, 1)}
	mdcv1.RegisterHealthServiceServer(srv, h)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String(), h
}

func TestDialSendsBearerTokenAndBacktestClock(t *testing.T) {
	addr, h := startServer(t)
	conn, err := mdcclient.Dial(addr, "mdc_secret")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	ist := time.FixedZone("IST", 5*3600+1800)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ctx = mdcclient.WithBacktestClock(ctx, time.Date(2025, 12, 31, 9, 15, 0, 0, ist))
	ctx = mdcclient.WithRunID(ctx, "run-1")
	if _, err := mdcv1.NewHealthServiceClient(conn).Check(ctx, &mdcv1.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	md := <-h.got
	want := map[string]string{
		"authorization":       "Bearer mdc_secret",
		"x-current-timestamp": "2025-12-31T03:45:00",
		"x-current-timezone":  "UTC",
		"x-run-id":            "run-1",
	}
	for key, value := range want {
		if got := md.Get(key); len(got) != 1 || got[0] != value {
			t.Errorf("metadata %s = %q, want [%q]", key, got, value)
		}
	}
}

func TestDialWithoutTokenSendsNoAuthorization(t *testing.T) {
	addr, h := startServer(t)
	conn, err := mdcclient.Dial(addr, "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := mdcv1.NewHealthServiceClient(conn).Check(ctx, &mdcv1.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := (<-h.got).Get("authorization"); len(got) != 0 {
		t.Errorf("authorization = %q, want none", got)
	}
}

func TestTokenIsNotSentInPlaintextToOtherHosts(t *testing.T) {
	// Plaintext to a non-loopback host: the bearer credentials refuse it
	// before anything is sent.
	conn, err := mdcclient.Dial("mdc.invalid:443", "mdc_secret",
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err == nil {
		conn.Close()
		t.Fatal("Dial with plaintext to a remote host and a token succeeded, want an error")
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"localhost:50051":          true,
		"LOCALHOST:1":              true,
		"127.0.0.1:50051":          true,
		"127.1.2.3:50051":          true,
		"[::1]:50051":              true,
		"dns:///localhost:50051":   true,
		"mdc.example.com:443":      false,
		"10.0.0.5:50051":           false,
		"localhost.example.com:80": false,
		"dns:///mdc.example.com:1": false,
	} {
		if got := mdcclient.IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}
