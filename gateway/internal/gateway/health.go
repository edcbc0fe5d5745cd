package gateway

import (
	"context"
	"fmt"
	"net/http"

	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// healthStatus makes GET /health and /v1/health answer 503 while the server
// reports itself NOT_SERVING (it cannot reach the database). The body is the
// health response either way.
func healthStatus(ctx context.Context, w http.ResponseWriter, resp proto.Message) error {
	if h, ok := resp.(*mdcv1.HealthCheckResponse); ok && h.GetStatus() != mdcv1.HealthCheckResponse_SERVING {
		setCause(ctx, fmt.Errorf("the server reports %s (database %s)", h.GetStatus(), h.GetDatabase()))
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	return nil
}
