package openapigen

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/internal/rpcpolicy"
)

// mdcRPCs are the full names of every RPC of mdc.v1.
func mdcRPCs(t *testing.T) []string {
	var rpcs []string
	rpcpolicy.Methods(func(md protoreflect.MethodDescriptor) {
		rpcs = append(rpcs, string(md.FullName()))
	})
	if len(rpcs) == 0 {
		t.Fatal("no mdc.v1 RPCs registered")
	}
	return rpcs
}

func mustContract(t *testing.T, rpc string) rpcContract {
	t.Helper()
	c, err := contractOf(rpc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEveryRPCHasAContract: every RPC the protos define has the options the
// document is made from; one added without them fails here (and the build
// fails on it, naming it).
func TestEveryRPCHasAContract(t *testing.T) {
	for _, rpc := range mdcRPCs(t) {
		c, err := contractOf(rpc)
		if err != nil {
			t.Error(err)
			continue
		}
		if c.access != public && c.access != developerToken && c.access != adminToken {
			t.Errorf("%s: access %v", rpc, c.access)
		}
		if c.clock != clockIgnored && c.clock != clockCuts && c.clock != clockForbids {
			t.Errorf("%s: backtest clock %v", rpc, c.clock)
		}
	}
}

// TestContractStatuses checks the statuses the RPCs' error cases add are
// error statuses the gateway can produce from a gRPC code.
func TestContractStatuses(t *testing.T) {
	known := map[int]bool{400: true, 401: true, 403: true, 404: true, 409: true, 412: true, 429: true, 503: true}
	for _, name := range mdcRPCs(t) {
		for status, when := range mustContract(t, name).errors {
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

// TestBuildFailsOnAnRPCWithoutOptions: an operation whose RPC has no
// options (here: is not in the descriptors at all) stops the build with an
// error naming the operation and the RPC, rather than being documented by
// guess.
func TestBuildFailsOnAnRPCWithoutOptions(t *testing.T) {
	swagger := `{"swagger":"2.0","info":{"title":"t","version":"v1"},"paths":{"/v1/x":{"get":{
		"operationId":"NewService_Thing","responses":{"200":{"description":"ok"}}}}}}`
	_, err := Build([]byte(swagger), func(string) {})
	if err == nil || !strings.Contains(err.Error(), "mdc.v1.NewService.Thing") || !strings.Contains(err.Error(), "/v1/x") {
		t.Errorf("Build = %v, want an error naming GET /v1/x and mdc.v1.NewService.Thing", err)
	}
}

// TestContractFollowsTheOptions spot-checks contractOf against options
// written in the protos: the access, the clock, body_optional, and each
// error case's google.rpc.Code as the HTTP status the gateway answers it
// with (FAILED_PRECONDITION: 412, ALREADY_EXISTS: 409).
func TestContractFollowsTheOptions(t *testing.T) {
	signIn := mustContract(t, "mdc.v1.DashboardService.SignIn")
	if signIn.access != public || signIn.clock != clockIgnored || signIn.errors[401] == "" || signIn.errors[429] == "" {
		t.Errorf("SignIn: %+v", signIn)
	}
	del := mustContract(t, "mdc.v1.AdminService.DeleteDeveloper")
	if del.access != adminToken || !strings.Contains(del.errors[412], "last admin") || del.errors[404] == "" {
		t.Errorf("DeleteDeveloper: %+v", del)
	}
	if c := mustContract(t, "mdc.v1.AdminService.CreateDeveloper"); c.errors[409] == "" {
		t.Errorf("CreateDeveloper: %+v", c)
	}
	if c := mustContract(t, "mdc.v1.DashboardService.UpdateRun"); !c.bodyOptional || c.access != developerToken {
		t.Errorf("UpdateRun: %+v", c)
	}
	if c := mustContract(t, "mdc.v1.DashboardService.ListOrders"); c.clock != clockCuts {
		t.Errorf("ListOrders: %+v", c)
	}
	// A watch ignores the clock and refuses it with FAILED_PRECONDITION.
	if c := mustContract(t, "mdc.v1.StreamService.WatchQuotes"); c.clock != clockIgnored || !strings.Contains(c.errors[412], "X-Current-Timestamp") {
		t.Errorf("WatchQuotes: %+v", c)
	}
	if c := mustContract(t, "mdc.v1.StreamService.ReplayDay"); c.clock != clockForbids {
		t.Errorf("ReplayDay: %+v", c)
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
		got := errorStatuses(operation{rpc: tt.rpc, contract: mustContract(t, tt.rpc), op: op})
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
