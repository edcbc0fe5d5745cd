package gateway

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"mdc/gateway/gen/mdcv1"
)

// rpcPolicy is the (mdc.v1.rpc) option of md: the facts about the RPC
// written beside it in proto/mdc/v1 (options.proto). Every RPC of mdc.v1
// has one (a test of the gateway fails otherwise); nil for others.
func rpcPolicy(md protoreflect.MethodDescriptor) *mdcv1.RpcPolicy {
	p, _ := proto.GetExtension(md.Options(), mdcv1.E_Rpc).(*mdcv1.RpcPolicy)
	return p
}

// mdcMethods calls f with every RPC of package mdc.v1.
func mdcMethods(f func(protoreflect.MethodDescriptor)) {
	protoregistry.GlobalFiles.RangeFilesByPackage(apiPackage, func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			methods := fd.Services().Get(i).Methods()
			for j := 0; j < methods.Len(); j++ {
				f(methods.Get(j))
			}
		}
		return true
	})
}

// adminInputs are the request types of the admin RPCs. The server checks
// their role before their arguments, so the gateway leaves their argument
// checks to it: a developer token is 403 whatever the body holds.
func adminInputs() map[protoreflect.FullName]bool {
	inputs := map[protoreflect.FullName]bool{}
	mdcMethods(func(md protoreflect.MethodDescriptor) {
		if rpcPolicy(md).GetAccess() == mdcv1.Access_ACCESS_ADMIN {
			inputs[md.Input().FullName()] = true
		}
	})
	return inputs
}
