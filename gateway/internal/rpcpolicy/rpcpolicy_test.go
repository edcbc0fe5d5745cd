package rpcpolicy

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"mdc/gateway/gen/mdcv1"
)

// TestEveryRPCSetsItsOptions: every RPC of mdc.v1 carries everything the
// gateway, the OpenAPI document and the clients read about it.
func TestEveryRPCSetsItsOptions(t *testing.T) {
	count := 0
	Methods(func(md protoreflect.MethodDescriptor) {
		count++
		if err := Check(md); err != nil {
			t.Error(err)
		}
	})
	if count == 0 {
		t.Fatal("no mdc.v1 RPCs registered")
	}
}

// fakeMethod is the method Do of a service mdc.test.Fake, with options.
func fakeMethod(t *testing.T, options *descriptorpb.MethodOptions) protoreflect.MethodDescriptor {
	t.Helper()
	fdp := &descriptorpb.FileDescriptorProto{
		Name:        proto.String("mdc/test/fake.proto"),
		Package:     proto.String("mdc.test"),
		Syntax:      proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("Req")}},
		Service: []*descriptorpb.ServiceDescriptorProto{{
			Name: proto.String("Fake"),
			Method: []*descriptorpb.MethodDescriptorProto{{
				Name:       proto.String("Do"),
				InputType:  proto.String(".mdc.test.Req"),
				OutputType: proto.String(".mdc.test.Req"),
				Options:    options,
			}},
		}},
	}
	fd, err := protodesc.NewFile(fdp, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Services().Get(0).Methods().Get(0)
}

// TestCheckNamesWhatIsMissing: an RPC without its options, or with one
// left UNSPECIFIED, is reported by name with what it lacks.
func TestCheckNamesWhatIsMissing(t *testing.T) {
	if err := Check(fakeMethod(t, nil)); err == nil ||
		!strings.Contains(err.Error(), "mdc.test.Fake.Do") ||
		!strings.Contains(err.Error(), "idempotency_level") ||
		!strings.Contains(err.Error(), "no (mdc.v1.rpc)") {
		t.Errorf("Check of an RPC without options = %v", err)
	}

	complete := func() *mdcv1.RpcPolicy {
		return &mdcv1.RpcPolicy{
			Access:        mdcv1.Access_ACCESS_DEVELOPER,
			ReadFrom:      mdcv1.ReadFrom_READ_FROM_PRIMARY,
			RateLimit:     mdcv1.RateLimit_RATE_LIMIT_READS,
			BacktestClock: mdcv1.BacktestClock_BACKTEST_CLOCK_IGNORED,
			Retry:         "read",
			Errors:        []*mdcv1.ErrorCase{{Code: 5, When: "Nothing there."}},
		}
	}
	withPolicy := func(p *mdcv1.RpcPolicy) *descriptorpb.MethodOptions {
		o := &descriptorpb.MethodOptions{IdempotencyLevel: descriptorpb.MethodOptions_NO_SIDE_EFFECTS.Enum()}
		proto.SetExtension(o, mdcv1.E_Rpc, p)
		return o
	}
	if err := Check(fakeMethod(t, withPolicy(complete()))); err != nil {
		t.Errorf("Check of a complete RPC = %v", err)
	}
	for _, tc := range []struct {
		lacks string
		edit  func(*mdcv1.RpcPolicy)
	}{
		{"access", func(p *mdcv1.RpcPolicy) { p.Access = 0 }},
		{"read_from", func(p *mdcv1.RpcPolicy) { p.ReadFrom = 0 }},
		{"rate_limit", func(p *mdcv1.RpcPolicy) { p.RateLimit = 0 }},
		{"backtest_clock", func(p *mdcv1.RpcPolicy) { p.BacktestClock = 0 }},
		{"retry", func(p *mdcv1.RpcPolicy) { p.Retry = "" }},
		{"no code", func(p *mdcv1.RpcPolicy) { p.Errors[0].Code = 0 }},
		{"says not when", func(p *mdcv1.RpcPolicy) { p.Errors[0].When = "" }},
	} {
		p := complete()
		tc.edit(p)
		err := Check(fakeMethod(t, withPolicy(p)))
		if err == nil || !strings.Contains(err.Error(), "mdc.test.Fake.Do") || !strings.Contains(err.Error(), tc.lacks) {
			t.Errorf("Check of an RPC whose policy lacks %s = %v", tc.lacks, err)
		}
	}
}

// TestIdempotent follows idempotency_level: NO_SIDE_EFFECTS and IDEMPOTENT
// are, IDEMPOTENCY_UNKNOWN and an unset level are not.
func TestIdempotent(t *testing.T) {
	for level, want := range map[descriptorpb.MethodOptions_IdempotencyLevel]bool{
		descriptorpb.MethodOptions_NO_SIDE_EFFECTS:     true,
		descriptorpb.MethodOptions_IDEMPOTENT:          true,
		descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN: false,
	} {
		md := fakeMethod(t, &descriptorpb.MethodOptions{IdempotencyLevel: level.Enum()})
		if got := Idempotent(md); got != want {
			t.Errorf("Idempotent at %s = %v, want %v", level, got, want)
		}
	}
	if Idempotent(fakeMethod(t, nil)) {
		t.Error("an RPC without idempotency_level is idempotent")
	}
}

func TestLookupAndNames(t *testing.T) {
	md, err := Lookup("mdc.v1.AdminService.GetDeveloper")
	if err != nil {
		t.Fatal(err)
	}
	if got := GRPCMethod(md); got != "/mdc.v1.AdminService/GetDeveloper" {
		t.Errorf("GRPCMethod = %q", got)
	}
	for _, name := range []string{"mdc.v1.NoService.Thing", "mdc.v1.Run"} {
		if _, err := Lookup(name); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("Lookup(%q) = %v", name, err)
		}
	}
}
