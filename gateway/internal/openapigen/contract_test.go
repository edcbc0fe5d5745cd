package openapigen

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	_ "mdc/gateway/gen/mdcv1" // registers the mdc.v1 descriptors
)

// TestContractsNameEveryRPC keeps contracts in step with the protos: an
// RPC added without an entry, or an entry left behind by a removed RPC,
// fails here.
func TestContractsNameEveryRPC(t *testing.T) {
	rpcs := map[string]bool{}
	protoregistry.GlobalFiles.RangeFilesByPackage("mdc.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Services().Len(); i++ {
			methods := fd.Services().Get(i).Methods()
			for j := 0; j < methods.Len(); j++ {
				rpcs[string(methods.Get(j).FullName())] = true
			}
		}
		return true
	})
	if len(rpcs) == 0 {
		t.Fatal("no mdc.v1 RPCs registered")
	}
	for _, name := range sortedKeys(rpcs) {
		if _, ok := contracts[name]; !ok {
			t.Errorf("RPC %s has no entry in contracts", name)
		}
	}
	for _, name := range sortedKeys(contracts) {
		if !rpcs[name] {
			t.Errorf("contracts names %s, which is no RPC", name)
		}
	}
}

// TestContractStatuses checks the statuses a table entry adds are error
// statuses the gateway can produce from a gRPC code.
func TestContractStatuses(t *testing.T) {
	known := map[int]bool{400: true, 401: true, 403: true, 404: true, 409: true, 412: true, 429: true, 503: true}
	for name, c := range contracts {
		for status, when := range c.errors {
			if !known[status] {
				t.Errorf("%s: status %d", name, status)
			}
			if strings.TrimSpace(when) == "" {
				t.Errorf("%s: status %d says nothing", name, status)
			}
		}
	}
}

func TestRPCName(t *testing.T) {
	for id, want := range map[string]string{
		"AdminService_GetDeveloper": "mdc.v1.AdminService.GetDeveloper",
		"HealthService_Check":       "mdc.v1.HealthService.Check",
		"HealthService_Check2":      "mdc.v1.HealthService.Check", // an additional binding
	} {
		if got := RPCName(id); got != want {
			t.Errorf("RPCName(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestBuildWarnsOfAnUnknownRPC: an operation without a contract entry is
// reported (and TestContractsNameEveryRPC fails) but still documented with
// the token and errors of a developer RPC.
func TestBuildWarnsOfAnUnknownRPC(t *testing.T) {
	swagger := `{"swagger":"2.0","info":{"title":"t","version":"v1"},"paths":{"/v1/x":{"get":{
		"operationId":"NewService_Thing","responses":{"200":{"description":"ok"}}}}}}`
	var warnings []string
	doc, err := Build([]byte(swagger), func(msg string) { warnings = append(warnings, msg) })
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[0], "mdc.v1.NewService.Thing") {
		t.Errorf("warnings = %q", warnings)
	}
	op := doc.Paths.Value("/v1/x").Get
	if op.Responses.Status(401) == nil || op.Security == nil || len(*op.Security) != 1 {
		t.Errorf("not documented as a developer RPC: security %v, responses %v", op.Security, op.Responses.Keys())
	}
}

// TestErrorStatusesByRule spot-checks the rules of errors.go.
func TestErrorStatusesByRule(t *testing.T) {
	for _, tt := range []struct {
		rpc     string
		body    bool
		want    string
		with403 string
	}{
		{"mdc.v1.HealthService.Check", false, "[400 503]", ""},
		{"mdc.v1.DashboardService.SignIn", true, "[400 401 413 429 503]", ""},
		{"mdc.v1.CollectorService.SaveShortlist", true, "[400 401 413 429 503]", ""},
		{"mdc.v1.DeveloperService.GetList", false, "[400 401 403 404 429 503]", "FUTURE_READ"},
		{"mdc.v1.AdminService.DeleteDeveloper", false, "[400 401 403 404 412 429 503]", "admin route"},
	} {
		op := openapi3.NewOperation()
		if tt.body {
			op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody()}
		}
		got := errorStatuses(operation{rpc: tt.rpc, contract: contracts[tt.rpc], op: op})
		statuses := make([]int, 0, len(got))
		for status := range got {
			statuses = append(statuses, status)
		}
		sort.Ints(statuses)
		if s := fmt.Sprint(statuses); s != tt.want {
			t.Errorf("%s: statuses %s, want %s", tt.rpc, s, tt.want)
		}
		if tt.with403 != "" && !strings.Contains(got[403], tt.with403) {
			t.Errorf("%s: 403 says %q", tt.rpc, got[403])
		}
	}
}
