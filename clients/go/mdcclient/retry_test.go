package mdcclient_test

// The retry interceptor (retry.go) without a server: over every method of
// the mdc.v1 descriptors, it retries exactly those whose idempotency_level
// allows it, only on UNAVAILABLE, within its attempts, the RetryInfo delay
// and the context's deadline. retry_server_test.go runs it against a real
// mdc-server.

import (
	"context"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// quickRetries retries at once, so that the tests do not wait.
var quickRetries = mdcclient.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Microsecond, MaxBackoff: time.Microsecond}

// mdcMethods is every method of every service of package mdc.v1, as the
// generated package registers them.
func mdcMethods(t *testing.T) []protoreflect.MethodDescriptor {
	t.Helper()
	var methods []protoreflect.MethodDescriptor
	protoregistry.GlobalFiles.RangeFilesByPackage("mdc.v1", func(f protoreflect.FileDescriptor) bool {
		for i := 0; i < f.Services().Len(); i++ {
			s := f.Services().Get(i)
			for j := 0; j < s.Methods().Len(); j++ {
				methods = append(methods, s.Methods().Get(j))
			}
		}
		return true
	})
	if len(methods) < 40 {
		t.Fatalf("found %d methods of mdc.v1 in the registry; is mdcv1 imported?", len(methods))
	}
	return methods
}

// fullMethod is the name gRPC gives interceptors: "/mdc.v1.Service/Method".
func fullMethod(m protoreflect.MethodDescriptor) string {
	return "/" + string(m.Parent().FullName()) + "/" + string(m.Name())
}

// failing is an invoker that answers the first len(errs) attempts with
// errs, then succeeds, and records when each attempt came.
type failing struct {
	mu       sync.Mutex
	errs     []error
	attempts []time.Time
	// afterAttempt, when set, runs after each attempt has been answered.
	afterAttempt func()
}

func (f *failing) invoke(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error {
	if f.afterAttempt != nil {
		defer f.afterAttempt()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.attempts = append(f.attempts, time.Now())
	if n := len(f.attempts); n <= len(f.errs) {
		return f.errs[n-1]
	}
	return nil
}

func (f *failing) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.attempts)
}

// call runs one call of method through the interceptor of policy p.
func call(ctx context.Context, p mdcclient.RetryPolicy, method string, f *failing) error {
	return mdcclient.RetryInterceptor(p)(ctx, method, nil, nil, nil, f.invoke)
}

func unavailable() error { return status.Error(codes.Unavailable, "connection refused") }

func TestEveryMethodDeclaresItsIdempotency(t *testing.T) {
	for _, m := range mdcMethods(t) {
		options, _ := m.Options().(*descriptorpb.MethodOptions)
		if options == nil || options.IdempotencyLevel == nil {
			t.Errorf("%s has no option idempotency_level: the clients cannot tell whether to retry it", m.FullName())
		}
	}
}

func TestRetriesFollowTheIdempotencyOfEveryMethod(t *testing.T) {
	ctx := context.Background()
	retried := map[string]bool{}
	for _, m := range mdcMethods(t) {
		name := fullMethod(m)
		level := m.Options().(*descriptorpb.MethodOptions).GetIdempotencyLevel()
		want := level == descriptorpb.MethodOptions_NO_SIDE_EFFECTS || level == descriptorpb.MethodOptions_IDEMPOTENT
		retried[name] = want
		if got := mdcclient.Retryable(name); got != want {
			t.Errorf("Retryable(%s) = %v, want %v (idempotency_level %v)", name, got, want, level)
		}
		if m.IsStreamingClient() || m.IsStreamingServer() {
			continue // the interceptor is for unary calls; streams resume by cursor
		}
		f := &failing{errs: []error{unavailable()}}
		err := call(ctx, quickRetries, name, f)
		switch {
		case want && (err != nil || f.count() != 2):
			t.Errorf("%s (%v) after one UNAVAILABLE: %d attempts, %v; want 2 attempts and success", name, level, f.count(), err)
		case !want && (status.Code(err) != codes.Unavailable || f.count() != 1):
			t.Errorf("%s (%v) after one UNAVAILABLE: %d attempts, %v; want 1 attempt and UNAVAILABLE", name, level, f.count(), err)
		}
	}
	// The descriptors say what the API documents (docs/api.md section 1,
	// "Errors"): reads and the collector writes are retried, creates not.
	for method, want := range map[string]bool{
		mdcv1.DeveloperService_GetList_FullMethodName:         true,
		mdcv1.CollectorService_SaveQuotes_FullMethodName:      true,
		mdcv1.DashboardService_UpdateRun_FullMethodName:       true,
		mdcv1.DashboardService_ListRuns_FullMethodName:        true,
		mdcv1.DashboardService_CreateRun_FullMethodName:       false,
		mdcv1.DashboardService_CreateOrder_FullMethodName:     false,
		mdcv1.DashboardService_DeleteRun_FullMethodName:       false,
		mdcv1.AdminService_CreateDeveloper_FullMethodName:     false,
		mdcv1.AdminService_RefreshDeveloperKey_FullMethodName: false,
	} {
		if got, ok := retried[method]; !ok || got != want {
			t.Errorf("%s: retried %v (listed %v), want %v", method, got, ok, want)
		}
	}
}

func TestUnknownMethodsAreNotRetried(t *testing.T) {
	for _, name := range []string{"/nope.v1.Service/Get", "/mdc.v1.DeveloperService/Nope", "/mdc.v1.GetListRequest/Type", "garbage", ""} {
		if mdcclient.Retryable(name) {
			t.Errorf("Retryable(%q) = true, want false", name)
		}
		f := &failing{errs: []error{unavailable()}}
		if err := call(context.Background(), quickRetries, name, f); status.Code(err) != codes.Unavailable || f.count() != 1 {
			t.Errorf("%q: %d attempts, %v; want 1 and UNAVAILABLE", name, f.count(), err)
		}
	}
}

func TestOnlyUnavailableIsRetried(t *testing.T) {
	brokerMissing, err := status.New(codes.FailedPrecondition, "no broker configured").WithDetails(
		&errdetails.ErrorInfo{Reason: mdcclient.ReasonBrokerNotConfigured, Domain: "mdc.v1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, refused := range []error{
		status.Error(codes.InvalidArgument, "datetime: malformed"),
		status.Error(codes.NotFound, "no shortlist"),
		status.Error(codes.DeadlineExceeded, "deadline"),
		status.Error(codes.ResourceExhausted, "rate limited"),
		status.Error(codes.Internal, "internal"),
		brokerMissing.Err(), // a setting, not an outage
	} {
		f := &failing{errs: []error{refused}}
		got := call(context.Background(), quickRetries, mdcv1.DeveloperService_GetBrokerToken_FullMethodName, f)
		if f.count() != 1 || status.Code(got) != status.Code(refused) {
			t.Errorf("after %v: %d attempts, %v; want 1 attempt and the error", refused, f.count(), got)
		}
	}
}

func TestAttemptsAreBounded(t *testing.T) {
	for _, p := range []mdcclient.RetryPolicy{quickRetries, {MaxAttempts: 5, InitialBackoff: time.Microsecond, MaxBackoff: time.Microsecond}, mdcclient.NoRetry} {
		f := &failing{errs: []error{unavailable(), unavailable(), unavailable(), unavailable(), unavailable(), unavailable()}}
		err := call(context.Background(), p, mdcv1.DeveloperService_GetQuote_FullMethodName, f)
		if status.Code(err) != codes.Unavailable || f.count() != p.MaxAttempts {
			t.Errorf("MaxAttempts %d: %d attempts, %v; want %d and UNAVAILABLE", p.MaxAttempts, f.count(), err, p.MaxAttempts)
		}
	}
}

func TestBackoffGrowsAndRespectsRetryInfo(t *testing.T) {
	const initial = 40 * time.Millisecond
	p := mdcclient.RetryPolicy{MaxAttempts: 4, InitialBackoff: initial, MaxBackoff: time.Hour}
	withDelay, err := status.New(codes.Unavailable, "database unavailable").WithDetails(
		&errdetails.RetryInfo{RetryDelay: durationpb.New(300 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	f := &failing{errs: []error{unavailable(), unavailable(), withDelay.Err()}}
	if err := call(context.Background(), p, mdcv1.DeveloperService_GetQuote_FullMethodName, f); err != nil {
		t.Fatalf("after three UNAVAILABLE: %v", err)
	}
	// Waits of at least half of 40 ms, 80 ms, then the RetryInfo's 300 ms.
	for i, least := range []time.Duration{initial / 2, initial, 300 * time.Millisecond} {
		if waited := f.attempts[i+1].Sub(f.attempts[i]); waited < least {
			t.Errorf("wait %d was %v, want at least %v", i+1, waited, least)
		}
	}
}

func TestRetriesEndWithTheContext(t *testing.T) {
	// A RetryInfo delay past the deadline: no wait, the error at once.
	long, err := status.New(codes.Unavailable, "database unavailable").WithDetails(
		&errdetails.RetryInfo{RetryDelay: durationpb.New(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f := &failing{errs: []error{long.Err()}}
	start := time.Now()
	if err := call(ctx, quickRetries, mdcv1.DeveloperService_GetQuote_FullMethodName, f); status.Code(err) != codes.Unavailable || f.count() != 1 {
		t.Errorf("RetryInfo past the deadline: %d attempts, %v; want 1 and UNAVAILABLE", f.count(), err)
	}
	if waited := time.Since(start); waited >= time.Minute {
		t.Errorf("waited %v for a retry the deadline did not allow", waited)
	}

	// The context cancelled once the first attempt failed, so during the
	// hour's wait: the last error, no more attempts. (A cancel from another
	// goroutine after a delay would race the wait's start; this way the wait
	// meets the cancelled context whichever comes first.)
	ctx, cancel = context.WithCancel(context.Background())
	f = &failing{errs: []error{unavailable()}, afterAttempt: cancel}
	slow := mdcclient.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Hour, MaxBackoff: time.Hour}
	if err := call(ctx, slow, mdcv1.DeveloperService_GetQuote_FullMethodName, f); status.Code(err) != codes.Unavailable || f.count() != 1 {
		t.Errorf("cancelled while waiting: %d attempts, %v; want 1 and UNAVAILABLE", f.count(), err)
	}
}
