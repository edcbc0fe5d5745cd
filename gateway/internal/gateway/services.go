package gateway

import (
	"context"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	"mdc/gateway/gen/mdcv1"
)

// registerFunc is the shape of the generated Register<Service>Handler
// functions.
type registerFunc func(context.Context, *runtime.ServeMux, *grpc.ClientConn) error

// services are the gRPC services of unary calls the gateway exposes over
// HTTP/JSON, all on one shared connection to the mdc servers. Adding a
// service is one line. HealthService is registered apart
// (upstream.RegisterHealth), and so is StreamService, whose calls run on
// connections of their own (upstream.StreamPool).
var services = []registerFunc{
	mdcv1.RegisterCollectorServiceHandler,
	mdcv1.RegisterDeveloperServiceHandler,
	mdcv1.RegisterDashboardServiceHandler,
	mdcv1.RegisterAdminServiceHandler,
}
