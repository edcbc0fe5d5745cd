package mdcclient_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// refusingHealth answers every Check with its error, as the server's rate
// limit does.
type refusingHealth struct {
	mdcv1.UnimplementedHealthServiceServer
	err error
}

func (h refusingHealth) Check(context.Context, *mdcv1.HealthCheckRequest) (*mdcv1.HealthCheckResponse, error) {
	return nil, h.err
}

// callRefused makes one Check against a server that answers err, through a
// real gRPC connection, and returns the client's error.
func callRefused(t *testing.T, err error) error {
	t.Helper()
	lis, lerr := net.Listen("tcp", "127.0.0.1:0")
	if lerr != nil {
		t.Fatal(lerr)
	}
	srv := grpc.NewServer()
	mdcv1.RegisterHealthServiceServer(srv, refusingHealth{err: err})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, derr := mdcclient.Dial(lis.Addr().String(), "mdc_secret")
	if derr != nil {
		t.Fatal(derr)
	}
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, cerr := mdcv1.NewHealthServiceClient(conn).Check(ctx, &mdcv1.HealthCheckRequest{})
	return cerr
}

func TestRetryDelayOfARateLimitedCall(t *testing.T) {
	st, err := status.New(codes.ResourceExhausted, "too many reads").WithDetails(
		&errdetails.ErrorInfo{Reason: "RATE_LIMITED", Domain: "mdc.v1", Metadata: map[string]string{"limit": "reads"}},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(1500 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	got := callRefused(t, st.Err())
	if status.Code(got) != codes.ResourceExhausted {
		t.Fatalf("code = %v, want ResourceExhausted", status.Code(got))
	}
	delay, ok := mdcclient.RetryDelay(got)
	if !ok || delay != 1500*time.Millisecond {
		t.Errorf("RetryDelay = %v, %v; want 1.5s, true", delay, ok)
	}
}

func TestRetryDelayIsAbsentOtherwise(t *testing.T) {
	for name, err := range map[string]error{
		"nil":                   nil,
		"not a status":          errors.New("boom"),
		"429 without RetryInfo": callRefused(t, status.Error(codes.ResourceExhausted, "too many failed sign-ins")),
		"unavailable":           callRefused(t, status.Error(codes.Unavailable, "database unavailable")),
	} {
		if delay, ok := mdcclient.RetryDelay(err); ok {
			t.Errorf("%s: RetryDelay = %v, true; want false", name, delay)
		}
	}
}
