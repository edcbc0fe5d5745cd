package openapigen

import (
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// TestEveryRPCSetsIdempotencyLevel: every RPC of mdc.v1 says whether it may
// be sent again (option idempotency_level), so no client has to guess from
// its HTTP verb.
func TestEveryRPCSetsIdempotencyLevel(t *testing.T) {
	count := 0
	protoregistry.GlobalFiles.RangeFilesByPackage("mdc.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			methods := fd.Services().Get(i).Methods()
			for j := 0; j < methods.Len(); j++ {
				count++
				options, _ := methods.Get(j).Options().(*descriptorpb.MethodOptions)
				if options == nil || options.IdempotencyLevel == nil {
					t.Errorf("RPC %s sets no idempotency_level", methods.Get(j).FullName())
				}
			}
		}
		return true
	})
	if count == 0 {
		t.Fatal("no mdc.v1 RPCs registered")
	}
}

// TestIdempotentExtension: x-mdc-idempotent follows each RPC's
// idempotency_level, and an operation whose RPC is unknown is reported and
// published as not idempotent.
func TestIdempotentExtension(t *testing.T) {
	want := map[string]bool{
		"mdc.v1.DeveloperService.GetList":         true,  // NO_SIDE_EFFECTS
		"mdc.v1.CollectorService.SaveShortlist":   true,  // IDEMPOTENT
		"mdc.v1.DashboardService.UpdateRun":       true,  // IDEMPOTENT
		"mdc.v1.DashboardService.CreateRun":       false, // IDEMPOTENCY_UNKNOWN
		"mdc.v1.DashboardService.DeleteRun":       false, // IDEMPOTENCY_UNKNOWN
		"mdc.v1.AdminService.RefreshDeveloperKey": false,
		"mdc.v1.NoService.Thing":                  false, // not in the descriptors
	}
	var ops []operation
	for rpc := range want {
		ops = append(ops, operation{method: "POST", path: "/" + rpc, rpc: rpc, op: openapi3.NewOperation()})
	}
	var warnings []string
	applyIdempotency(ops, func(msg string) { warnings = append(warnings, msg) })
	for _, o := range ops {
		if got := o.op.Extensions[IdempotentExtension]; got != want[o.rpc] {
			t.Errorf("%s: %s = %v, want %v", o.rpc, IdempotentExtension, got, want[o.rpc])
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "mdc.v1.NoService.Thing") {
		t.Errorf("warnings = %q, want one naming mdc.v1.NoService.Thing", warnings)
	}
}

// TestBuildPublishesIdempotency: the extension survives the document's
// conversion, marshalling and loading.
func TestBuildPublishesIdempotency(t *testing.T) {
	swagger := `{"swagger":"2.0","info":{"title":"t","version":"v1"},"paths":{"/v1/x":{"get":{
		"operationId":"CollectorService_CheckHoliday","responses":{"200":{"description":"ok"}}}}}}`
	doc, err := Build([]byte(swagger), func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Paths.Value("/v1/x").Get.Extensions[IdempotentExtension]; got != true {
		t.Errorf("%s = %v, want true", IdempotentExtension, got)
	}
}
