package gateway

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	"mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/codec"
	"mdc/gateway/internal/export"
	"mdc/gateway/internal/observe"
	"mdc/gateway/internal/openapi"
	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/routes"
	"mdc/gateway/internal/static"
	"mdc/gateway/internal/stream"
	"mdc/gateway/internal/transport"
	"mdc/gateway/internal/upstream"
	"mdc/gateway/internal/webui"
)

// newHandler returns the gateway's HTTP handler: every service in services
// forwarded to conn (the streaming calls to streams, nil: conn; /health
// asks probe when no server is healthy, nil: none), GET /openapi.json,
// Swagger UI at /docs, and the middleware that applies to all of them
// (request id and log line, metrics, security headers, CORS, header limits,
// the bearer header of protected routes, the heavy-read limits, Content-Type, body limits and the
// budget of bodies in flight, UTF-8 of path and query), and the dashboard
// (web/) at / and every other path outside the API.
func newHandler(ctx context.Context, conn, probe *grpc.ClientConn, streams grpc.ClientConnInterface, o Options) (http.Handler, error) {
	o = o.withDefaults()
	m := codec.NewMarshaler()
	table := routes.NewTable(routes.Descriptors())
	mux := runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, m),
		runtime.WithMarshalerOption("application/json", m),
		runtime.WithMarshalerOption(codec.CSVMediaType, codec.CSVBody{Marshaler: m}),
		runtime.WithErrorHandler(handleError),
		runtime.WithRoutingErrorHandler(routingErrorHandler(table)),
		runtime.WithIncomingHeaderMatcher(incomingHeader),
		runtime.WithForwardResponseOption(upstream.HealthStatus),
		runtime.WithMiddlewares(recordRoute(table), codec.DropUnknownMaskKeys(codec.MdcMaskRoutes())),
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
	if err := export.Register(mux, streams, o.ExportWriteTimeout, export.Cuts{Logger: o.Logger, Count: o.metrics.ExportCut}); err != nil {
		return nil, fmt.Errorf("register export routes: %w", err)
	}
	table.AnswersFiles(http.MethodGet, export.Paths())
	// The imports take files, streamed: not a JSON body (RequireJSON) nor
	// one under the body limit (LimitBody), which they skip below.
	if err := export.RegisterImports(mux, conn, export.ImportLimits{MaxBytes: o.ImportMaxBytes, Idle: importIdle}); err != nil {
		return nil, fmt.Errorf("register import routes: %w", err)
	}
	if err := upstream.RegisterHealth(ctx, mux, conn, probe); err != nil {
		return nil, fmt.Errorf("register health service: %w", err)
	}
	if err := mux.HandlePath(http.MethodGet, routes.OpenAPIPath, serveOpenAPI); err != nil {
		return nil, fmt.Errorf("register %s: %w", routes.OpenAPIPath, err)
	}
	table.Add(http.MethodGet, routes.OpenAPIPath)
	docs := static.WithJSONErrors(m, static.NewDocs())
	dashboard, err := static.NewDashboard(webui.Files())
	if err != nil {
		return nil, err
	}
	serveDocs := func(w http.ResponseWriter, r *http.Request, _ map[string]string) { docs.ServeHTTP(w, r) }
	for _, path := range []string{routes.DocsPath, routes.DocsPath + "/{asset}"} {
		if err := mux.HandlePath(http.MethodGet, path, serveDocs); err != nil {
			return nil, fmt.Errorf("register %s: %w", path, err)
		}
		table.Add(http.MethodGet, path)
	}
	known := transport.NewKnownTokens()
	budget := transport.NewBodyBudget(o.MaxBodyBytesInFlight)
	o.metrics.ObserveBodyBudget(budget)
	// The middleware, outermost first: a request meets them in this order.
	// CRAFT: the order matters. The client address and the log line come
	// before anything that may refuse (so a refusal is logged with its
	// client); CORS before the header limits and the token check (a
	// preflight carries no token); the token check before any body is read
	// (a made-up token is refused without holding body budget, issue 31);
	// UTF-8 of path and query just before the dashboard and the routes.
	layers := []layer{
		{"client address", func(next http.Handler) http.Handler {
			return transport.WithClientAddress(o.TrustedProxies, next)
		}},
		{"request id and log line", func(next http.Handler) http.Handler {
			return observe.Requests(o.Logger, !o.NoAccessLog, next)
		}},
		{"security headers", transport.WithSecurityHeaders},
		{"metrics", func(next http.Handler) http.Handler { return o.metrics.Measure(table, next) }},
		{"CORS", func(next http.Handler) http.Handler { return transport.WithCORS(o.CORSOrigins, m, next) }},
		{"header limits", func(next http.Handler) http.Handler { return transport.LimitHeaders(m, next) }},
		{"bearer token", func(next http.Handler) http.Handler {
			return transport.RequireBearer(table, known, transport.SignInTokenCheck(conn, observe.RequestIDHeader), m, next)
		}},
		{"heavy reads", func(next http.Handler) http.Handler {
			return transport.LimitHeavyReads(table, o.heavyReads(), m, next)
		}},
		// An import's file is no JSON body: it skips the content type and
		// the 4 MiB limit and budget (its own limits: MDC_IMPORT_MAX_BYTES).
		{"JSON bodies: content type, limits and budget (imports apart)", func(next http.Handler) http.Handler {
			checked := transport.RequireJSON(table, m,
				transport.LimitBody(o.MaxBodyBytes, o.uploadRate, budget, known, m, next))
			return importsApart(checked, next)
		}},
		{"UTF-8 path and query", func(next http.Handler) http.Handler { return transport.RejectInvalidUTF8(m, table, next) }},
		{"dashboard", func(next http.Handler) http.Handler { return static.WithDashboard(dashboard, m, next) }},
	}
	return chain(layers, stream.Handler(mux, table, m, mux)), nil
}

// layer is one middleware of the gateway: a name to read it by, and how it
// wraps the handler after it.
type layer struct {
	name string
	wrap func(next http.Handler) http.Handler
}

// chain wraps inner in layers, the first outermost.
func chain(layers []layer, inner http.Handler) http.Handler {
	h := inner
	for i := len(layers) - 1; i >= 0; i-- {
		h = layers[i].wrap(h)
	}
	return h
}

// importIdle is how long an import's upload may send nothing (or its
// client read nothing of the answer) before the gateway ends it.
const importIdle = time.Minute

// importsApart sends the requests of the import routes to afterBody
// directly and every other request to checked, which checks and limits
// JSON bodies first.
func importsApart(checked, afterBody http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if export.IsImport(r) {
			afterBody.ServeHTTP(w, r)
			return
		}
		checked.ServeHTTP(w, r)
	})
}

// heavyReads is the heavy-read limits of o (withDefaults applied).
func (o Options) heavyReads() *transport.HeavyReads {
	return transport.NewHeavyReads(max(o.HeavyReads, 0), o.CallTimeout)
}

// recordRoute is a mux middleware: it notes the template of the route that
// matched, for the log line.
func recordRoute(table *routes.Table) runtime.Middleware {
	return func(next runtime.HandlerFunc) runtime.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request, pathParams map[string]string) {
			if info := reqinfo.From(r.Context()); info != nil {
				if p, ok := runtime.HTTPPattern(r.Context()); ok {
					key := p.String()
					if tmpl, ok := table.Display(key); ok {
						key = tmpl
					}
					info.Route = key
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
