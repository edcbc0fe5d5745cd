package openapigen

import (
	"fmt"

	"google.golang.org/protobuf/types/descriptorpb"

	"mdc/gateway/internal/rpcpolicy"
)

// IdempotentExtension is the operation extension that publishes an RPC's
// retry rule to clients that see only this document (the TypeScript
// client): true when the RPC may be sent again after its answer was lost.
const IdempotentExtension = "x-mdc-idempotent"

// applyIdempotency sets IdempotentExtension on every operation from the
// standard idempotency_level option of its RPC (proto/mdc/v1/options.proto):
// NO_SIDE_EFFECTS and IDEMPOTENT are true, IDEMPOTENCY_UNKNOWN is false. An
// RPC that does not set the option, or is not in the descriptors, is
// reported to warn and published as false, the safe side: its lost answer
// is not sent again. (TestEveryRPCSetsIdempotencyLevel fails on it.)
func applyIdempotency(ops []operation, warn func(string)) {
	for _, o := range ops {
		idempotent, err := rpcIdempotent(o.rpc)
		if err != nil {
			warn(fmt.Sprintf("%s %s: %v; %s is false", o.method, o.path, err, IdempotentExtension))
		}
		if o.op.Extensions == nil {
			o.op.Extensions = map[string]any{}
		}
		o.op.Extensions[IdempotentExtension] = idempotent
	}
}

// rpcIdempotent reads the idempotency_level of rpc (a full name) from the
// registered descriptors.
func rpcIdempotent(rpc string) (bool, error) {
	md, err := rpcpolicy.Lookup(rpc)
	if err != nil {
		return false, err
	}
	options, _ := md.Options().(*descriptorpb.MethodOptions)
	if options == nil || options.IdempotencyLevel == nil {
		return false, fmt.Errorf("RPC %s sets no idempotency_level", rpc)
	}
	return rpcpolicy.Idempotent(md), nil
}
