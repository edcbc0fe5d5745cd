package observe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"

	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/routes"
)

// The gateway's Prometheus metrics, served on a listener of their own
// (MDC_GATEWAY_METRICS_ADDR; unset: none) like mdc-server's
// MDC_METRICS_ADDR, so that scraping never shares the public API port and
// nothing about the process is exposed to API clients. Every series is
// listed in docs/operations.md, "Metrics".

// UnmatchedRoute is the route label of requests that match no route (404):
// one value whatever the path, so a scan of random paths cannot grow the
// number of series.
const UnmatchedRoute = "unmatched"

// Metrics are the request series and the registry that serves them with
// the Go runtime and process collectors.
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	cuts     *prometheus.CounterVec
}

// NewMetrics registers the series.
func NewMetrics() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mdc_gateway_http_requests_total",
			Help: "HTTP requests answered, by method, route template and status code.",
		}, []string{"method", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mdc_gateway_http_request_duration_seconds",
			Help: "Time from receiving a request to the end of its answer, by method and route template.",
			Buckets: []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1,
				0.25, 0.5, 1, 2.5, 5, 10, 30},
		}, []string{"method", "route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mdc_gateway_http_requests_in_flight",
			Help: "HTTP requests being answered.",
		}),
	}
	m.cuts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mdc_gateway_export_cut_total",
		Help: "Export downloads broken off after their file began (the server failed mid-export), by route template.",
	}, []string{"route"})
	m.registry.MustRegister(
		m.requests, m.duration, m.inFlight, m.cuts,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// ExportCut counts an export download of route broken off after its
// file began. A nil m counts nothing.
func (m *Metrics) ExportCut(route string) {
	if m == nil {
		return
	}
	m.cuts.WithLabelValues(route).Inc()
}

// Gather is the registry's: every series, for a scrape or a test.
func (m *Metrics) Gather() ([]*dto.MetricFamily, error) { return m.registry.Gather() }

// Measure counts and times every request that next answers. It goes just
// inside Requests, whose request info carries the route that matched. A nil
// m measures nothing.
func (m *Metrics) Measure(table *routes.Table, next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		rec, ok := w.(*statusRecorder)
		if !ok {
			rec = &statusRecorder{ResponseWriter: w, status: http.StatusOK, info: reqinfo.From(r.Context())}
		}
		next.ServeHTTP(rec, r)
		method := methodLabel(r.Method)
		route := routeLabel(table, r)
		m.requests.WithLabelValues(method, route, strconv.Itoa(rec.status)).Inc()
		m.duration.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
	})
}

// methodLabel is method for the standard HTTP methods and "other" for any
// other: a client cannot add series by inventing methods.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
		http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return method
	}
	return "other"
}

// routeLabel is the template of the route a request was for (as in the log
// line, e.g. /v1/developer/quotes/{symbol}): the one that matched; else,
// for a request refused before routing (headers, body, UTF-8) or with a
// method the path does not allow (405, CORS preflight), the route its path
// matches; else UnmatchedRoute.
func routeLabel(table *routes.Table, r *http.Request) string {
	if info := reqinfo.From(r.Context()); info != nil && info.Route != "" {
		return info.Route
	}
	if display, ok := table.Match(r.Method, r.URL.Path); ok {
		return display
	}
	return UnmatchedRoute
}

// MetricsServer serves GET /metrics of m on its own listener.
type MetricsServer struct {
	srv    *http.Server
	served chan error
}

// ServeMetrics listens on addr and serves m's /metrics there. A nil m or an
// empty addr serves nothing (and returns a nil server, whose Close does
// nothing).
func ServeMetrics(addr string, m *Metrics, logger *slog.Logger) (*MetricsServer, error) {
	if m == nil || addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{}))
	s := &MetricsServer{
		srv: &http.Server{
			Handler:           mux,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			WriteTimeout:      30 * time.Second,
		},
		served: make(chan error, 1),
	}
	logger.Info("mdc-gateway metrics listening", "metrics_addr", ln.Addr().String())
	go func() { s.served <- s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the metrics listener, waiting at most timeout for scrapes
// under way; a problem is logged.
func (s *MetricsServer) Close(timeout time.Duration, logger *slog.Logger) {
	if s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		logger.Warn("mdc-gateway metrics shutdown", "error", err.Error())
		return
	}
	if err := <-s.served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Warn("mdc-gateway metrics listener failed", "error", err.Error())
	}
}
