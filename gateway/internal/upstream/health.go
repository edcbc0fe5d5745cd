package upstream

import (
	"context"
	"fmt"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/reqinfo"
)

// GET /health and /v1/health report whether the gateway can serve: 200 when
// any of its servers is healthy, 503 when none is (docs/api.md 8). With
// several servers the answer is one healthy server's; the gateway sends
// calls only to healthy ones, so one is enough.

// HealthStatus makes GET /health and /v1/health answer 503 while the server
// that answered reports itself NOT_SERVING (it cannot reach the database).
// The body is the health response either way.
func HealthStatus(ctx context.Context, w http.ResponseWriter, resp proto.Message) error {
	if h, ok := resp.(*mdcv1.HealthCheckResponse); ok && h.GetStatus() != mdcv1.HealthCheckResponse_SERVING {
		reqinfo.SetCause(ctx, fmt.Errorf("the server reports %s (database %s)", h.GetStatus(), h.GetDatabase()))
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	return nil
}

// RegisterHealth serves HealthService.Check through anyHealthyServer: conn
// is the connection every call takes, which reaches healthy servers only;
// probe (nil: none) reaches every server that takes connections.
func RegisterHealth(ctx context.Context, mux *runtime.ServeMux, conn, probe *grpc.ClientConn) error {
	h := anyHealthyServer{healthy: mdcv1.NewHealthServiceClient(conn)}
	if probe != nil {
		h.probe = mdcv1.NewHealthServiceClient(probe)
	}
	return mdcv1.RegisterHealthServiceHandlerClient(ctx, mux, h)
}

// anyHealthyServer asks a healthy server; if that one has just lost its
// database (its answer is NOT_SERVING before it told the gateway, within
// 2 s), it asks the next healthy one once. When no server is healthy it asks
// any server that answers, so the 503 says why (database unreachable); if
// that server says SERVING (it reached the database again but has not told
// the gateway yet, within 2 s) the answer is still 503, since no call would
// reach it yet. When no server answers at all, the answer is the first
// error (503, "the mdc server is unavailable").
type anyHealthyServer struct {
	healthy, probe mdcv1.HealthServiceClient
}

func (h anyHealthyServer) Check(ctx context.Context, in *mdcv1.HealthCheckRequest, opts ...grpc.CallOption) (*mdcv1.HealthCheckResponse, error) {
	resp, err := h.healthy.Check(ctx, in, opts...)
	if err == nil && resp.GetStatus() != mdcv1.HealthCheckResponse_SERVING {
		// Round robin: this goes to the next healthy server, if any.
		if again, againErr := h.healthy.Check(ctx, in, opts...); againErr == nil && again.GetStatus() == mdcv1.HealthCheckResponse_SERVING {
			return again, nil
		}
		return resp, nil
	}
	if h.probe == nil || status.Code(err) != codes.Unavailable {
		return resp, err
	}
	probed, probeErr := h.probe.Check(ctx, in, opts...)
	if probeErr != nil {
		return nil, err
	}
	if probed.GetStatus() == mdcv1.HealthCheckResponse_SERVING {
		return nil, status.Error(codes.Unavailable, "no mdc server reports itself healthy yet; try again later")
	}
	return probed, nil
}
