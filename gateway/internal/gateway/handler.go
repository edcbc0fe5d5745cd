package gateway

import (
	"context"
	"fmt"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/openapi"
	"mdc/gateway/internal/webui"
)

// openAPIPath is where the OpenAPI document is served.
const openAPIPath = "/openapi.json"

// NewHandler returns the gateway's HTTP handler: every service in services
// forwarded to conn, GET /openapi.json, Swagger UI at /docs, and the
// middleware that applies to all of them (request id and log line, CORS,
// header limits, the bearer header of protected routes, body limits and the
// budget of bodies in flight, UTF-8 of path and query), and the dashboard
// (web/) at / and every other path outside the API (webui.go).
func NewHandler(ctx context.Context, conn *grpc.ClientConn, o Options) (http.Handler, error) {
	return newHandler(ctx, conn, nil, nil, o)
}

// newHandler is NewHandler with probe, the connection /health asks when no
// server is healthy (health.go; nil: none), and streams, the connections of
// the streaming calls (streampool.go; nil: conn).
func newHandler(ctx context.Context, conn, probe *grpc.ClientConn, streams grpc.ClientConnInterface, o Options) (http.Handler, error) {
	o = o.withDefaults()
	m := newMarshaler()
	routes := newRouteTable(descriptorRoutes())
	mux := runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, m),
		runtime.WithMarshalerOption("application/json", m),
		runtime.WithErrorHandler(handleError),
		runtime.WithRoutingErrorHandler(routingErrorHandler(routes)),
		runtime.WithIncomingHeaderMatcher(incomingHeader),
		runtime.WithForwardResponseOption(healthStatus),
		runtime.WithMiddlewares(recordRoute(routes), dropUnknownMaskKeys(mdcMaskRoutes())),
	)
	for _, register := range services {
		if err := register(ctx, mux, conn); err != nil {
			return nil, fmt.Errorf("register service: %w", err)
		}
	}
	if streams == nil {
		streams = conn
	}
	if err := mdcv1.RegisterStreamServiceHandlerClient(ctx, mux, mdcv1.NewStreamServiceClient(streams)); err != nil {
		return nil, fmt.Errorf("register stream service: %w", err)
	}
	if err := registerHealth(ctx, mux, conn, probe); err != nil {
		return nil, fmt.Errorf("register health service: %w", err)
	}
	if err := mux.HandlePath(http.MethodGet, openAPIPath, serveOpenAPI); err != nil {
		return nil, fmt.Errorf("register %s: %w", openAPIPath, err)
	}
	routes.add(http.MethodGet, openAPIPath)
	docs := withJSONErrors(m, newDocsHandler())
	dashboard, err := newWebUI(webui.Files())
	if err != nil {
		return nil, err
	}
	serveDocs := func(w http.ResponseWriter, r *http.Request, _ map[string]string) { docs.ServeHTTP(w, r) }
	for _, path := range []string{docsPath, docsPath + "/{asset}"} {
		if err := mux.HandlePath(http.MethodGet, path, serveDocs); err != nil {
			return nil, fmt.Errorf("register %s: %w", path, err)
		}
		routes.add(http.MethodGet, path)
	}
	known := newKnownTokens()
	return withClientAddress(o.TrustedProxies, observe(o.Logger, !o.NoAccessLog, withSecurityHeaders(o.metrics.measure(routes,
		withCORS(o.CORSOrigins, m,
			limitHeaders(m,
				requireBearer(routes, known, m,
					requireJSON(routes, m,
						limitBody(o.MaxBodyBytes, newBodyBudget(o.MaxBodyBytesInFlight), known, m,
							rejectInvalidUTF8(m, routes, withWebUI(dashboard, m, withStreams(mux, routes, m, mux)))))))))))), nil
}

// recordRoute is a mux middleware: it notes the template of the route that
// matched, for the log line.
func recordRoute(routes *routeTable) runtime.Middleware {
	return func(next runtime.HandlerFunc) runtime.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request, pathParams map[string]string) {
			if info := infoFrom(r.Context()); info != nil {
				if p, ok := runtime.HTTPPattern(r.Context()); ok {
					key := p.String()
					if tmpl, ok := routes.byPattern[key]; ok {
						key = tmpl
					}
					info.route = key
				}
			}
			next(w, r, pathParams)
		}
	}
}

// serveOpenAPI answers with the embedded OpenAPI document. It needs no token.
func serveOpenAPI(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openapi.Document)
}
