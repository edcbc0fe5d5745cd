package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"mdc/gateway/internal/observe"
	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/rpcpolicy"
)

// The retry rule follows the descriptors of every method of mdc.v1: a
// unary method is retried exactly when its idempotency_level is
// NO_SIDE_EFFECTS or IDEMPOTENT, a streaming one never; each says why
// ((mdc.v1.rpc).retry), and the rule names no other method.
func TestRetryRuleFollowsEveryMethodsIdempotencyLevel(t *testing.T) {
	seen := map[string]bool{}
	protoregistry.GlobalFiles.RangeFilesByPackage(rpcpolicy.Package, func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			sd := fd.Services().Get(i)
			for j := 0; j < sd.Methods().Len(); j++ {
				md := sd.Methods().Get(j)
				name := fmt.Sprintf("/%s/%s", sd.FullName(), md.Name())
				seen[name] = true
				options, _ := md.Options().(*descriptorpb.MethodOptions)
				if options == nil || options.IdempotencyLevel == nil {
					t.Errorf("%s sets no idempotency_level: decide whether a second execution is invisible", name)
					continue
				}
				level := options.GetIdempotencyLevel()
				streaming := md.IsStreamingClient() || md.IsStreamingServer()
				want := !streaming && (level == descriptorpb.MethodOptions_NO_SIDE_EFFECTS || level == descriptorpb.MethodOptions_IDEMPOTENT)
				if got := retryable[name]; got != want {
					t.Errorf("%s (%s, streaming %v): retried = %v, want %v", name, level, streaming, got, want)
				}
				if rpcpolicy.Of(md).GetRetry() == "" {
					t.Errorf("%s: (mdc.v1.rpc) says no why of its retry rule", name)
				}
			}
		}
		return true
	})
	for name := range retryable {
		if !seen[name] {
			t.Errorf("the retry rule names %s, which is no mdc.v1 method", name)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no mdc.v1 descriptors registered")
	}
}

// The documented decisions (docs/architecture.md, "Several servers").
func TestRetryRulesDecisions(t *testing.T) {
	for method, want := range map[string]bool{
		"/mdc.v1.CollectorService/SaveQuotes":       true,
		"/mdc.v1.CollectorService/SaveNifty":        true,
		"/mdc.v1.CollectorService/SaveShortlist":    true,
		"/mdc.v1.DeveloperService/GetQuote":         true,
		"/mdc.v1.DashboardService/SignIn":           true,
		"/mdc.v1.DashboardService/UpdateRun":        true,
		"/mdc.v1.AdminService/SetBrokerCredentials": true,
		"/mdc.v1.HealthService/Check":               true,
		"/mdc.v1.DashboardService/CreateRun":        false,
		"/mdc.v1.DashboardService/CreateOrder":      false,
		"/mdc.v1.DashboardService/DeleteRun":        false,
		"/mdc.v1.AdminService/CreateDeveloper":      false,
		"/mdc.v1.AdminService/RefreshDeveloperKey":  false,
		"/mdc.v1.AdminService/DeleteDataDates":      false,
		"/mdc.v1.AdminService/RunDbScript":          false,
		"/mdc.v1.StreamService/WatchQuotes":         false,
		"/mdc.v1.Unknown/Method":                    false,
	} {
		if got := retryable[method]; got != want {
			t.Errorf("%s: retry = %v, want %v", method, got, want)
		}
	}
}

func withReason(code codes.Code, reason string) error {
	st, err := status.New(code, "x").WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: "mdc.v1"})
	if err != nil {
		panic(err)
	}
	return st.Err()
}

func TestShouldRetry(t *testing.T) {
	const idem, notIdem = "/mdc.v1.CollectorService/SaveQuotes", "/mdc.v1.DashboardService/CreateRun"
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	live := context.Background()
	cut := attempt{reachedServer: true}                            // the connection broke under the call
	answered := attempt{reachedServer: true, serverAnswered: true} // the server's own status
	none := attempt{}                                              // no server was ready
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		method string
		err    error
		a      attempt
		want   bool
	}{
		{"connection cut (kill -9)", live, idem, status.Error(codes.Unavailable, "error reading from server: EOF"), cut, true},
		{"cancelled by a draining server", live, idem, status.Error(codes.Canceled, "cancelled"), answered, true},
		{"the server's database is unreachable", live, idem, status.Error(codes.Unavailable, "database unavailable"), answered, false},
		{"DATABASE_TIMEOUT stands", live, idem, withReason(codes.Unavailable, "DATABASE_TIMEOUT"), answered, false},
		{"BROKER_UNAVAILABLE stands", live, idem, withReason(codes.Unavailable, "BROKER_UNAVAILABLE"), answered, false},
		{"no server reached", live, idem, status.Error(codes.Unavailable, "no healthy server"), none, false},
		{"not idempotent, cut", live, notIdem, status.Error(codes.Unavailable, "error reading from server: EOF"), cut, false},
		{"not idempotent, cancelled", live, notIdem, status.Error(codes.Canceled, "cancelled"), answered, false},
		{"caller went away", canceled, idem, status.Error(codes.Canceled, "cancelled"), cut, false},
		{"deadline", live, idem, status.Error(codes.DeadlineExceeded, "late"), cut, false},
		{"answer of the server", live, idem, status.Error(codes.InvalidArgument, "bad"), answered, false},
		{"rate limited", live, idem, withReason(codes.ResourceExhausted, "RATE_LIMITED"), answered, false},
		{"internal", live, idem, status.Error(codes.Internal, "boom"), answered, false},
		{"not a status", live, idem, errors.New("plain"), cut, false},
		{"success", live, idem, nil, answered, false},
	} {
		if got := shouldRetry(tc.ctx, tc.method, tc.err, tc.a); got != tc.want {
			t.Errorf("%s: shouldRetry = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// fakeInvoker answers the attempts of one call in turn with errs (nil:
// success), each attempt reaching a server unless reached says otherwise,
// and each a broken connection (no metadata from the server) unless
// answered says otherwise.
type fakeInvoker struct {
	errs     []error
	reached  []bool
	answered []bool
	attempts int
}

func (f *fakeInvoker) invoke(_ context.Context, _ string, _, _ any, _ *grpc.ClientConn, opts ...grpc.CallOption) error {
	i := f.attempts
	f.attempts++
	if i >= len(f.errs) {
		return errors.New("unexpected attempt")
	}
	for _, o := range opts {
		switch o := o.(type) {
		case grpc.PeerCallOption:
			if f.reached == nil || f.reached[i] {
				*o.PeerAddr = peer.Peer{Addr: &net.TCPAddr{Port: 50051 + i}}
			}
		case grpc.TrailerCallOption:
			if f.answered != nil && f.answered[i] {
				*o.TrailerAddr = metadata.Pairs("content-type", "application/grpc")
			}
		}
	}
	return f.errs[i]
}

func TestInvokeWithRetry(t *testing.T) {
	cut := status.Error(codes.Unavailable, "error reading from server: EOF")
	const idem, notIdem = "/mdc.v1.CollectorService/SaveQuotes", "/mdc.v1.DashboardService/CreateRun"
	for _, tc := range []struct {
		name         string
		method       string
		errs         []error
		reached      []bool
		answered     []bool
		wantAttempts int
		wantErr      error
		wantPort     int // of the server the last attempt reached; 0: none
	}{
		{"first attempt succeeds", idem, []error{nil}, nil, nil, 1, nil, 50051},
		{"second server answers", idem, []error{cut, nil}, nil, nil, 2, nil, 50052},
		{"third attempt is the last", idem, []error{cut, cut, cut}, nil, nil, 3, cut, 50053},
		{"not idempotent: one attempt", notIdem, []error{cut}, nil, nil, 1, cut, 50051},
		{"a retry that reaches no server ends it", idem, []error{cut, cut}, []bool{true, false}, nil, 2, cut, 0},
		{"the server's own UNAVAILABLE stands", idem, []error{cut}, nil, []bool{true}, 1, cut, 50051},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeInvoker{errs: tc.errs, reached: tc.reached, answered: tc.answered}
			p, retries, err := invokeWithRetry(context.Background(), tc.method, nil, nil, nil, f.invoke, nil)
			if f.attempts != tc.wantAttempts || retries != tc.wantAttempts-1 {
				t.Errorf("attempts = %d (retries %d), want %d", f.attempts, retries, tc.wantAttempts)
			}
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			port := 0
			if p.Addr != nil {
				port = p.Addr.(*net.TCPAddr).Port
			}
			if port != tc.wantPort {
				t.Errorf("last peer port = %d, want %d", port, tc.wantPort)
			}
		})
	}
}

// A retry is counted in the request's log line, with the first error.
func TestInvokeWithRetryNotesTheRetry(t *testing.T) {
	cut := status.Error(codes.Unavailable, "error reading from server: EOF")
	info := &reqinfo.Info{}
	ctx := reqinfo.NewContext(context.Background(), info)
	f := &fakeInvoker{errs: []error{cut, nil}}
	if _, _, err := invokeWithRetry(ctx, "/mdc.v1.CollectorService/SaveQuotes", nil, nil, nil, f.invoke, nil); err != nil {
		t.Fatal(err)
	}
	if info.Retries != 1 || !errors.Is(info.Retried, cut) {
		t.Errorf("retries = %d, retried = %v", info.Retries, info.Retried)
	}
}

// The caller's options are not changed by the attempts' own.
func TestInvokeWithRetryKeepsTheCallersOptions(t *testing.T) {
	cut := status.Error(codes.Unavailable, "error reading from server: EOF")
	opts := make([]grpc.CallOption, 1, 4)
	opts[0] = grpc.WaitForReady(false)
	f := &fakeInvoker{errs: []error{cut, cut, nil}}
	if _, _, err := invokeWithRetry(context.Background(), "/mdc.v1.CollectorService/SaveQuotes", nil, nil, nil, f.invoke, opts); err != nil {
		t.Fatal(err)
	}
	if len(opts) != 1 || opts[:2][1] != nil {
		t.Errorf("the caller's options were written to: %v", opts[:2])
	}
}

// The log line of a request whose call was sent again says so.
func TestLogLineOfARetriedRequest(t *testing.T) {
	var buf bytes.Buffer
	cut := status.Error(codes.Unavailable, "error reading from server: EOF")
	h := observe.Requests(observe.NewLogger(&buf, slog.LevelInfo), true, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := &fakeInvoker{errs: []error{cut, nil}}
		if _, _, err := invokeWithRetry(r.Context(), "/mdc.v1.CollectorService/SaveQuotes", nil, nil, nil, f.invoke, nil); err != nil {
			t.Error(err)
		}
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/v1/developer/collector/quotes", nil))
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if line["retries"] != float64(1) || !strings.Contains(fmt.Sprint(line["retried_error"]), "error reading from server: EOF") {
		t.Errorf("log line %s: want retries 1 and the retried error", buf.String())
	}
}
