// Package rpcpolicy reads the facts about each RPC of mdc.v1 that the protos
// write beside it (proto/mdc/v1/options.proto): the (mdc.v1.rpc) option
// (who may call it, how the backtest clock applies, its error cases, ...)
// and the standard idempotency_level. It reads them from the generated
// descriptors, so the gateway and the OpenAPI generator keep no per-RPC
// list of their own: the gateway's retry rule and public routes, the
// document's security, clock headers and error responses all follow from
// here. Check says what an RPC lacks; a test fails on any RPC that lacks
// anything, and so does the OpenAPI build.
package rpcpolicy

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"mdc/gateway/gen/mdcv1" // also registers the mdc.v1 descriptors
)

// Package is the proto package of the mdc API.
const Package = "mdc.v1"

// Methods calls f with every RPC of package mdc.v1, in the order of the
// files, services and methods.
func Methods(f func(protoreflect.MethodDescriptor)) {
	protoregistry.GlobalFiles.RangeFilesByPackage(Package, func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			methods := fd.Services().Get(i).Methods()
			for j := 0; j < methods.Len(); j++ {
				f(methods.Get(j))
			}
		}
		return true
	})
}

// Lookup finds the RPC of a full name (mdc.v1.AdminService.GetDeveloper).
func Lookup(fullName string) (protoreflect.MethodDescriptor, error) {
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(fullName))
	if err != nil {
		return nil, fmt.Errorf("RPC %s is not in the descriptors", fullName)
	}
	md, ok := d.(protoreflect.MethodDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not an RPC", fullName)
	}
	return md, nil
}

// Of is the (mdc.v1.rpc) option of md; nil when it has none.
func Of(md protoreflect.MethodDescriptor) *mdcv1.RpcPolicy {
	p, _ := proto.GetExtension(md.Options(), mdcv1.E_Rpc).(*mdcv1.RpcPolicy)
	return p
}

// idempotencyLevel is md's idempotency_level, and whether it sets one.
func idempotencyLevel(md protoreflect.MethodDescriptor) (descriptorpb.MethodOptions_IdempotencyLevel, bool) {
	options, _ := md.Options().(*descriptorpb.MethodOptions)
	if options == nil || options.IdempotencyLevel == nil {
		return descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN, false
	}
	return options.GetIdempotencyLevel(), true
}

// Idempotent reports whether md may be sent again after its answer was
// lost: its idempotency_level is NO_SIDE_EFFECTS (a read) or IDEMPOTENT (a
// second execution leaves the same data and gives the same answer). An RPC
// that sets none is not (the safe side).
func Idempotent(md protoreflect.MethodDescriptor) bool {
	level, _ := idempotencyLevel(md)
	return level == descriptorpb.MethodOptions_NO_SIDE_EFFECTS || level == descriptorpb.MethodOptions_IDEMPOTENT
}

// Streams reports whether md is a streaming call.
func Streams(md protoreflect.MethodDescriptor) bool {
	return md.IsStreamingClient() || md.IsStreamingServer()
}

// Public reports whether md needs no token (ACCESS_PUBLIC).
func Public(md protoreflect.MethodDescriptor) bool {
	return Of(md).GetAccess() == mdcv1.Access_ACCESS_PUBLIC
}

// HeavyRead reports whether md is a heavy read (its option's heavy_read: a
// cross-section, candles of many symbols, coverage), which the gateway
// forwards a few at a time (transport.LimitHeavyReads).
func HeavyRead(md protoreflect.MethodDescriptor) bool {
	return Of(md).GetHeavyRead()
}

// GRPCMethod is the gRPC method name of md, /mdc.v1.Service/Method.
func GRPCMethod(md protoreflect.MethodDescriptor) string {
	return "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
}

// Check returns what md lacks of the options every RPC of mdc.v1 must set:
// an idempotency_level, and an (mdc.v1.rpc) with access, read_from,
// rate_limit and backtest_clock set (not UNSPECIFIED), the why of its retry
// rule, and a code and a text for each error case. The error names the RPC.
func Check(md protoreflect.MethodDescriptor) error {
	var problems []string
	if _, ok := idempotencyLevel(md); !ok {
		problems = append(problems, "sets no idempotency_level")
	}
	p := Of(md)
	if p == nil {
		problems = append(problems, "has no (mdc.v1.rpc) option")
	} else {
		unset := func(field string) {
			problems = append(problems, "(mdc.v1.rpc) sets no "+field)
		}
		if p.GetAccess() == mdcv1.Access_ACCESS_UNSPECIFIED {
			unset("access")
		}
		if p.GetReadFrom() == mdcv1.ReadFrom_READ_FROM_UNSPECIFIED {
			unset("read_from")
		}
		if p.GetRateLimit() == mdcv1.RateLimit_RATE_LIMIT_UNSPECIFIED {
			unset("rate_limit")
		}
		if p.GetBacktestClock() == mdcv1.BacktestClock_BACKTEST_CLOCK_UNSPECIFIED {
			unset("backtest_clock")
		}
		if p.GetRetry() == "" {
			unset("retry (why it is, or is not, sent again)")
		}
		for i, e := range p.GetErrors() {
			if e.GetCode() == 0 {
				problems = append(problems, fmt.Sprintf("(mdc.v1.rpc) errors[%d] has no code (OK is no error)", i))
			}
			if e.GetWhen() == "" {
				problems = append(problems, fmt.Sprintf("(mdc.v1.rpc) errors[%d] (%s) says not when", i, e.GetCode()))
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("RPC %s %s (see proto/mdc/v1/options.proto)", md.FullName(), strings.Join(problems, "; "))
}

// AdminInputs are the request types of the admin RPCs (ACCESS_ADMIN).
func AdminInputs() map[protoreflect.FullName]bool {
	inputs := map[protoreflect.FullName]bool{}
	Methods(func(md protoreflect.MethodDescriptor) {
		if Of(md).GetAccess() == mdcv1.Access_ACCESS_ADMIN {
			inputs[md.Input().FullName()] = true
		}
	})
	return inputs
}
