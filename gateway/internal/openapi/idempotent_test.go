package openapi

import (
	"testing"

	"google.golang.org/protobuf/types/descriptorpb"

	"mdc/gateway/internal/openapigen"
)

// TestIdempotentExtension: every operation of the served document carries
// x-mdc-idempotent, equal to its RPC's idempotency_level (the TypeScript
// client's retry table is generated from it).
func TestIdempotentExtension(t *testing.T) {
	_, ops := load(t)
	for _, o := range ops {
		got, ok := o.Extensions[openapigen.IdempotentExtension].(bool)
		if !ok {
			t.Errorf("%s: %s = %v, want a boolean", o, openapigen.IdempotentExtension, o.Extensions[openapigen.IdempotentExtension])
			continue
		}
		level := o.rpc.Options().(*descriptorpb.MethodOptions).GetIdempotencyLevel()
		if want := level != descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN; got != want {
			t.Errorf("%s: %s = %v, but %s is %v", o, openapigen.IdempotentExtension, got, o.rpc.FullName(), level)
		}
	}
}
