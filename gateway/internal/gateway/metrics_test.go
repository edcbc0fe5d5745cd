package gateway

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"mdc/gateway/internal/observe"
	"mdc/gateway/internal/routes"
)

// startMeasuredGateway runs the gateway over the fake services with metrics
// on, and returns its URL and metrics.
func startMeasuredGateway(t *testing.T) (string, *observe.Metrics) {
	t.Helper()
	_, addr := startFakeServer(t)
	o := testOptions()
	o.metrics = observe.NewMetrics()
	ts := httptest.NewServer(newTestHandlerWith(t, addr, o))
	t.Cleanup(ts.Close)
	return ts.URL, o.metrics
}

// series is every sample of family name in m, as its labels.
func series(t *testing.T, m *observe.Metrics, name string) []map[string]string {
	t.Helper()
	families, err := m.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	var out []map[string]string
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, metric := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range metric.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			out = append(out, labels)
		}
	}
	return out
}

// sample is the metric of family name in m with exactly labels, or nil.
func sample(t *testing.T, m *observe.Metrics, name string, labels map[string]string) *dto.Metric {
	t.Helper()
	families, err := m.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, metric := range f.GetMetric() {
			if len(metric.GetLabel()) != len(labels) {
				continue
			}
			for _, l := range metric.GetLabel() {
				if labels[l.GetName()] != l.GetValue() {
					continue metrics
				}
			}
			return metric
		}
	}
	return nil
}

func requestCount(t *testing.T, m *observe.Metrics, method, route, code string) float64 {
	t.Helper()
	s := sample(t, m, "mdc_gateway_http_requests_total", map[string]string{"method": method, "route": route, "code": code})
	if s == nil {
		return 0
	}
	return s.GetCounter().GetValue()
}

// Every route of the descriptors is its own series, labelled with its
// template (the JSON names of docs/api.md), never the path sent.
func TestMetricsLabelEveryRouteWithItsTemplate(t *testing.T) {
	base, m := startMeasuredGateway(t)
	routes := routes.Descriptors()
	for _, r := range routes {
		do(t, r.Method, base+concretePath(r.Template), "", map[string]string{"Authorization": "Bearer t"})
	}
	for _, r := range routes {
		var total uint64
		for _, labels := range series(t, m, "mdc_gateway_http_requests_total") {
			if labels["method"] == r.Method && labels["route"] == r.Display {
				total++
			}
		}
		if total == 0 {
			t.Errorf("no request series for %s %s", r.Method, r.Display)
		}
		h := sample(t, m, "mdc_gateway_http_request_duration_seconds", map[string]string{"method": r.Method, "route": r.Display})
		if h == nil || h.GetHistogram().GetSampleCount() == 0 {
			t.Errorf("no latency observed for %s %s", r.Method, r.Display)
		}
	}
	for _, labels := range series(t, m, "mdc_gateway_http_requests_total") {
		if strings.Contains(labels["route"], "x1") {
			t.Errorf("a raw path became a label: %v", labels)
		}
	}
}

// The developer's and the dashboard's quote timelines, each status, and
// each route (whatever its path variables hold) are series of their own.
func TestMetricsCountByRouteAndStatus(t *testing.T) {
	base, m := startMeasuredGateway(t)
	auth := map[string]string{"Authorization": "Bearer t"}
	for i := 0; i < 3; i++ {
		do(t, "GET", base+"/v1/developer/quote-timeline?symbol=INFY", "", auth)
	}
	do(t, "GET", base+"/v1/developer/quote-timeline?symbol=INFY", "", map[string]string{"Authorization": ""}) // 401 before routing
	dashboard := do(t, "GET", base+"/v1/dashboard/quote-timelines?symbol=INFY", "", auth)
	for _, run := range []string{"11", "12"} {
		do(t, "PATCH", base+"/v1/dashboard/runs/"+run, `{"completed": true}`, auth)
	}

	if got := requestCount(t, m, "GET", "/v1/developer/quote-timeline", "200"); got != 3 {
		t.Errorf("developer timeline 200 = %v, want 3", got)
	}
	if got := requestCount(t, m, "GET", "/v1/developer/quote-timeline", "401"); got != 1 {
		t.Errorf("developer timeline 401 = %v, want 1", got)
	}
	if got := requestCount(t, m, "GET", "/v1/dashboard/quote-timelines", strconv.Itoa(dashboard.status)); got != 1 {
		t.Errorf("dashboard timeline %d = %v, want 1", dashboard.status, got)
	}
	if got := requestCount(t, m, "PATCH", "/v1/dashboard/runs/{runId}", "200"); got != 2 {
		t.Errorf("PATCH /v1/dashboard/runs/{runId} 200 = %v, want 2", got)
	}
}

// Unknown paths share one label, invented methods another, so requests
// cannot grow the number of series; a known path with a method it does not
// allow keeps its route.
func TestMetricsBoundTheLabels(t *testing.T) {
	base, m := startMeasuredGateway(t)
	for _, path := range []string{"/v1/nope", "/v1/developer/x/y/z", "/v9/anything"} {
		do(t, "GET", base+path, "", nil)
	}
	do(t, "BREW", base+"/v1/nope", "", nil)
	do(t, "PUT", base+"/health", "", nil)

	if got := requestCount(t, m, "GET", observe.UnmatchedRoute, "404"); got != 3 {
		t.Errorf("GET unmatched 404 = %v, want 3", got)
	}
	var brewed bool
	for _, labels := range series(t, m, "mdc_gateway_http_requests_total") {
		if labels["method"] == "BREW" {
			t.Errorf("an invented method became a label: %v", labels)
		}
		brewed = brewed || labels["method"] == "other"
	}
	if !brewed {
		t.Error("no series with method other for BREW")
	}
	if got := requestCount(t, m, "PUT", "/health", "405"); got != 1 {
		t.Errorf("PUT /health 405 = %v, want 1", got)
	}
}

// Nothing is in flight once every answer is written.
func TestMetricsInFlightReturnsToZero(t *testing.T) {
	base, m := startMeasuredGateway(t)
	do(t, "GET", base+"/health", "", nil)
	s := sample(t, m, "mdc_gateway_http_requests_in_flight", map[string]string{})
	if s == nil || s.GetGauge().GetValue() != 0 {
		t.Errorf("in flight = %v, want 0", s)
	}
}

// freeAddr is a loopback address nothing listens on at the moment.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Run serves /metrics on MetricsAddr only, with the request series, the Go
// runtime and the process; the API port has no /metrics.
func TestRunServesMetricsOnTheirOwnListener(t *testing.T) {
	_, grpcAddr := startFakeServer(t)
	o := testOptions()
	o.GRPCAddr = grpcAddr
	o.HTTPAddr = freeAddr(t)
	o.MetricsAddr = freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, o) }()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run = %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("Run did not return after its context ended")
		}
	}()

	api := "http://" + o.HTTPAddr
	var health *http.Response
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var err error
		if health, err = http.Get(api + "/health"); err == nil {
			health.Body.Close()
			break
		}
	}
	if health == nil {
		t.Fatal("the gateway did not answer")
	}
	if r := do(t, "GET", api+"/metrics", "", nil); r.status != http.StatusNotFound {
		t.Errorf("GET /metrics on the API port = %d, want 404", r.status)
	}

	resp, err := http.Get("http://" + o.MetricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %d", resp.StatusCode)
	}
	for _, want := range []string{
		`mdc_gateway_http_requests_total{code="200",method="GET",route="/health"} 1`,
		`mdc_gateway_http_request_duration_seconds_bucket{method="GET",route="/health",le="+Inf"} 1`,
		"mdc_gateway_http_requests_in_flight 0",
		"go_goroutines ",
		"go_memstats_heap_alloc_bytes ",
		"process_resident_memory_bytes ",
		"process_cpu_seconds_total ",
		"process_open_fds ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
}

func TestParseOptionsMetricsAddr(t *testing.T) {
	env := map[string]string{"MDC_GATEWAY_METRICS_ADDR": "127.0.0.1:9465"}
	o, err := ParseOptions(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || o.MetricsAddr != "127.0.0.1:9465" {
		t.Errorf("from the environment: %q, %v", o.MetricsAddr, err)
	}
	o, err = ParseOptions([]string{"--metrics-addr", ":9999"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || o.MetricsAddr != ":9999" {
		t.Errorf("the flag wins: %q, %v", o.MetricsAddr, err)
	}
	o, err = ParseOptions(nil, func(string) string { return "" }, io.Discard)
	if err != nil || o.MetricsAddr != "" {
		t.Errorf("default: %q, %v (want none)", o.MetricsAddr, err)
	}
}
