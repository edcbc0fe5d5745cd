package gateway

import (
	"context"
	"fmt"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	"mdc/gateway/internal/openapi"
)

// NewHandler returns the gateway's HTTP handler: every service in services
// forwarded to conn, GET /openapi.json, and the middleware that applies to
// all of them (access log, body limit).
func NewHandler(ctx context.Context, conn *grpc.ClientConn, o Options) (http.Handler, error) {
	o = o.withDefaults()
	m := newMarshaler()
	mux := runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, m),
		runtime.WithMarshalerOption("application/json", m),
		runtime.WithErrorHandler(handleError),
		runtime.WithRoutingErrorHandler(handleRoutingError),
		runtime.WithIncomingHeaderMatcher(incomingHeader),
		runtime.WithForwardResponseOption(healthStatus),
		runtime.WithMiddlewares(dropUnknownMaskKeys(mdcMaskRoutes())),
	)
	for _, register := range services {
		if err := register(ctx, mux, conn); err != nil {
			return nil, fmt.Errorf("register service: %w", err)
		}
	}
	if err := mux.HandlePath(http.MethodGet, "/openapi.json", serveOpenAPI); err != nil {
		return nil, fmt.Errorf("register /openapi.json: %w", err)
	}
	return accessLog(o.Logger, limitBody(o.MaxBodyBytes, m, mux)), nil
}

// serveOpenAPI answers with the embedded OpenAPI document. It needs no token.
func serveOpenAPI(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openapi.Document)
}
