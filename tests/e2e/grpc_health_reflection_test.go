package e2e

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// grpc.health.v1.Health can be described through server reflection (as
// grpcurl describe does, without a local health.proto) and reports SERVING
// for the whole server and for every mdc service.
func TestGRPCHealthDescribableAndPerService(t *testing.T) {
	s := SharedStack(t)
	conn, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(req *rpb.ServerReflectionRequest) *rpb.ServerReflectionResponse {
		t.Helper()
		if err := stream.Send(req); err != nil {
			t.Fatal(err)
		}
		r, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	listed := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: ""}})
	names := map[string]bool{}
	for _, svc := range listed.GetListServicesResponse().GetService() {
		names[svc.GetName()] = true
	}
	if !names["grpc.health.v1.Health"] {
		t.Fatalf("reflection does not list grpc.health.v1.Health: %v", names)
	}
	described := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: "grpc.health.v1.Health"}})
	if e := described.GetErrorResponse(); e != nil {
		t.Fatalf("describe grpc.health.v1.Health: %v", e)
	}
	found := false
	for _, raw := range described.GetFileDescriptorResponse().GetFileDescriptorProto() {
		var file descriptorpb.FileDescriptorProto
		if err := proto.Unmarshal(raw, &file); err != nil {
			t.Fatal(err)
		}
		for _, svc := range file.GetService() {
			if file.GetPackage() != "grpc.health.v1" || svc.GetName() != "Health" {
				continue
			}
			methods := map[string]bool{}
			for _, m := range svc.GetMethod() {
				methods[m.GetName()] = true
			}
			if !methods["Check"] || !methods["Watch"] {
				t.Errorf("Health methods = %v, want Check and Watch", methods)
			}
			found = true
		}
	}
	if !found {
		t.Fatal("reflection's answer holds no grpc.health.v1.Health service")
	}
	stream.CloseSend()

	health := healthpb.NewHealthClient(conn)
	for _, name := range []string{"", "mdc.v1.CollectorService", "mdc.v1.DeveloperService",
		"mdc.v1.DashboardService", "mdc.v1.AdminService", "mdc.v1.HealthService"} {
		r, err := health.Check(ctx, &healthpb.HealthCheckRequest{Service: name})
		if err != nil {
			t.Errorf("Check(%q): %v", name, err)
			continue
		}
		if r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("Check(%q) = %v, want SERVING", name, r.GetStatus())
		}
	}
}
