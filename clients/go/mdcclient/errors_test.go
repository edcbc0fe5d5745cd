package mdcclient_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
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
// real gRPC connection without retries, and returns the client's error.
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
	conn, derr := mdcclient.Dial(lis.Addr().String(), "mdc_secret", mdcclient.WithRetryPolicy(mdcclient.NoRetry))
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
	t.Parallel()
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
	t.Parallel()
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

func TestErrorOfTakesEveryDetailOut(t *testing.T) {
	t.Parallel()
	st, err := status.New(codes.InvalidArgument, "data.timestamp: is required; data.entries[2].price: must be a finite number from 0 to 1e15").WithDetails(
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "data.timestamp", Description: "is required"},
			{Field: "data.entries[2].price", Description: "must be a finite number from 0 to 1e15"},
		}},
		&errdetails.ErrorInfo{Reason: "SOME_REASON", Domain: "mdc.v1", Metadata: map[string]string{"field": "data"}},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(250 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	got := mdcclient.ErrorOf(fmt.Errorf("saving: %w", callRefused(t, st.Err())))
	want := &mdcclient.Error{
		Code:     codes.InvalidArgument,
		Message:  st.Message(),
		Reason:   "SOME_REASON",
		Domain:   "mdc.v1",
		Metadata: map[string]string{"field": "data"},
		FieldViolations: []mdcclient.FieldViolation{
			{Field: "data.timestamp", Description: "is required"},
			{Field: "data.entries[2].price", Description: "must be a finite number from 0 to 1e15"},
		},
		RetryDelay:    250 * time.Millisecond,
		HasRetryDelay: true,
	}
	if got.Code != want.Code || got.Message != want.Message || got.Reason != want.Reason || got.Domain != want.Domain ||
		!maps.Equal(got.Metadata, want.Metadata) || !slices.Equal(got.FieldViolations, want.FieldViolations) ||
		got.RetryDelay != want.RetryDelay || got.HasRetryDelay != want.HasRetryDelay {
		t.Errorf("ErrorOf = %+v\nwant       %+v", got, want)
	}
	if d, ok := got.Violation("data.entries[2].price"); !ok || d != "must be a finite number from 0 to 1e15" {
		t.Errorf("Violation(data.entries[2].price) = %q, %v", d, ok)
	}
	if d, ok := got.Violation("data.scope"); ok {
		t.Errorf("Violation(data.scope) = %q, true; want none", d)
	}
	if status.Code(got) != codes.InvalidArgument || !proto.Equal(status.Convert(got).Proto(), st.Proto()) {
		t.Errorf("the status of the *Error is %v, want the original %v", status.Convert(got).Proto(), st.Proto())
	}
	if text := got.Error(); !strings.HasPrefix(text, "InvalidArgument: data.timestamp: is required") || !strings.HasSuffix(text, "(SOME_REASON)") {
		t.Errorf("Error() = %q", text)
	}
}

func TestErrorOfOtherErrors(t *testing.T) {
	t.Parallel()
	if e := mdcclient.ErrorOf(nil); e != nil {
		t.Errorf("ErrorOf(nil) = %+v, want nil", e)
	}
	plain := mdcclient.ErrorOf(callRefused(t, status.Error(codes.NotFound, "no shortlist")))
	if plain.Code != codes.NotFound || plain.Message != "no shortlist" || plain.Reason != "" ||
		plain.FieldViolations != nil || plain.Metadata != nil || plain.HasRetryDelay {
		t.Errorf("ErrorOf(a status without details) = %+v", plain)
	}
	if e := mdcclient.ErrorOf(errors.New("boom")); e.Code != codes.Unknown || e.Message != "boom" {
		t.Errorf("ErrorOf(errors.New) = %+v, want Unknown boom", e)
	}
	if e := mdcclient.ErrorOf(fmt.Errorf("waiting: %w", context.DeadlineExceeded)); e.Code != codes.DeadlineExceeded {
		t.Errorf("ErrorOf(a deadline) = %+v, want DeadlineExceeded", e)
	}
}
