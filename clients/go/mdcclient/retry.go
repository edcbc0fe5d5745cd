package mdcclient

// Retries of unary calls that failed with UNAVAILABLE (a server restarting
// or shutting down, a connection lost, a database outage), for the RPCs
// whose descriptors say a second execution is harmless. Which RPCs those
// are is the standard `idempotency_level` method option of proto/mdc/v1
// (options.proto): NO_SIDE_EFFECTS (reads) and IDEMPOTENT (the collector
// writes, Update Run, ...) may be sent again after their answer was lost;
// IDEMPOTENCY_UNKNOWN (creates, deletes, key refreshes) never is, because
// the first attempt may have taken effect. The interceptor reads that from
// the descriptors the generated package registers, so no list of RPCs is
// kept here.

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	// The descriptors of mdc.v1, registered in protoregistry.GlobalFiles.
	_ "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// RetryPolicy bounds the retries of a call. A zero field takes
// DefaultRetryPolicy's value.
type RetryPolicy struct {
	// MaxAttempts is the number of attempts in all, the first included; 1
	// turns retrying off.
	MaxAttempts int
	// InitialBackoff is the wait before the first retry; each further one
	// doubles it, up to MaxBackoff. Each wait is drawn at random between
	// half the value and the value (jitter), and is at least the delay of a
	// google.rpc.RetryInfo the error carries.
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
}

// DefaultRetryPolicy is what Dial uses: 5 attempts, waiting about 250 ms,
// 500 ms, 1 s and 2 s in between (as long as a restarting server takes).
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 5, InitialBackoff: 250 * time.Millisecond, MaxBackoff: 5 * time.Second}

// NoRetry is the policy that sends every call once.
var NoRetry = RetryPolicy{MaxAttempts: 1}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts == 0 {
		p.MaxAttempts = DefaultRetryPolicy.MaxAttempts
	}
	if p.InitialBackoff <= 0 {
		p.InitialBackoff = DefaultRetryPolicy.InitialBackoff
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = DefaultRetryPolicy.MaxBackoff
	}
	return p
}

// backoff is the wait before retry number n (1 for the first).
func (p RetryPolicy) backoff(n int) time.Duration {
	return jitteredBackoff(p.InitialBackoff, p.MaxBackoff, n)
}

// jitteredBackoff is the wait before try number n (1 for the first) of
// something that failed: initial doubled n-1 times, at most limit, then
// drawn at random between half that and that, so that clients that failed
// together do not all come back at once.
func jitteredBackoff(initial, limit time.Duration, n int) time.Duration {
	wait := initial
	for i := 1; i < n && wait < limit; i++ {
		wait *= 2
	}
	wait = min(wait, limit)
	if wait <= 0 {
		return 0
	}
	return wait/2 + rand.N(wait/2+1)
}

// retryPolicyOption is the DialOption of WithRetryPolicy: it changes nothing
// in gRPC's configuration (grpc.EmptyDialOption), Dial looks for it.
type retryPolicyOption struct {
	grpc.EmptyDialOption
	policy RetryPolicy
}

// WithRetryPolicy is the Dial option that replaces DefaultRetryPolicy:
// mdcclient.Dial(addr, token, mdcclient.WithRetryPolicy(mdcclient.NoRetry))
// sends every call once. It does nothing when given to grpc.NewClient; use
// RetryInterceptor there.
func WithRetryPolicy(p RetryPolicy) grpc.DialOption {
	return retryPolicyOption{policy: p}
}

// retryPolicyOf is the policy of the last WithRetryPolicy among opts, or
// DefaultRetryPolicy.
func retryPolicyOf(opts []grpc.DialOption) RetryPolicy {
	policy := DefaultRetryPolicy
	for _, o := range opts {
		if r, ok := o.(retryPolicyOption); ok {
			policy = r.policy
		}
	}
	return policy
}

// RetryInterceptor returns the unary client interceptor Dial installs: a
// call of an RPC that Retryable accepts is sent again when it fails with
// codes.Unavailable, up to p.MaxAttempts attempts, after a wait that grows
// exponentially with jitter and is at least the google.rpc.RetryInfo delay
// the error carries. It never waits past the call's context deadline: when
// the next wait would end after it, or the context ends while waiting, the
// call returns the last attempt's error. Use it with grpc.NewClient as
// grpc.WithChainUnaryInterceptor(mdcclient.RetryInterceptor(p)).
func RetryInterceptor(p RetryPolicy) grpc.UnaryClientInterceptor {
	p = p.withDefaults()
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
		invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		if err == nil || p.MaxAttempts <= 1 || !Retryable(method) {
			return err
		}
		for attempt := 2; attempt <= p.MaxAttempts && worthRetrying(err); attempt++ {
			wait := p.backoff(attempt - 1)
			if delay, ok := RetryDelay(err); ok {
				wait = max(wait, delay)
			}
			if !sleep(ctx, wait) {
				return err
			}
			err = invoker(ctx, method, req, reply, cc, opts...)
		}
		return err
	}
}

// worthRetrying reports whether err is an Unavailable that a later attempt
// may not get. (A configuration the server lacks, such as no broker, is
// FailedPrecondition, never retried.)
func worthRetrying(err error) bool {
	e := ErrorOf(err)
	return e != nil && e.Code == codes.Unavailable
}

// sleep waits d unless ctx ends first or its deadline comes before d has
// passed; false when it did not wait the whole d.
func sleep(ctx context.Context, d time.Duration) bool {
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= d {
		return false
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// retryable caches Retryable's answer per full method name.
var retryable sync.Map // string -> bool

// Retryable reports whether the RPC named by its full method name
// ("/mdc.v1.DeveloperService/GetList", as gRPC passes it to interceptors)
// may be sent again after a failure that leaves its outcome unknown: its
// method descriptor, looked up in protoregistry.GlobalFiles, says
// idempotency_level NO_SIDE_EFFECTS or IDEMPOTENT. False for every other
// level and for a method without a registered descriptor.
func Retryable(fullMethod string) bool {
	if cached, ok := retryable.Load(fullMethod); ok {
		return cached.(bool)
	}
	answer := idempotencyLevel(fullMethod) != descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN
	retryable.Store(fullMethod, answer)
	return answer
}

// idempotencyLevel is the idempotency_level option of the method named
// "/package.Service/Method"; IDEMPOTENCY_UNKNOWN when it has none or no
// descriptor is registered under that name.
func idempotencyLevel(fullMethod string) descriptorpb.MethodOptions_IdempotencyLevel {
	service, method, ok := strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/")
	if !ok {
		return descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(service + "." + method))
	if err != nil {
		return descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN
	}
	m, isMethod := d.(protoreflect.MethodDescriptor)
	if !isMethod {
		return descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN
	}
	options, _ := m.Options().(*descriptorpb.MethodOptions)
	return options.GetIdempotencyLevel()
}
