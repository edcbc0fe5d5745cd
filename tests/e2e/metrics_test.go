package e2e

// The metrics of both processes (docs/operations.md, "Metrics"), scraped
// from their own listeners after real writes and reads: rows written per
// table, RPCs by service and method, the pool, the batchers, the process,
// the gateway's requests by route; and every series the Grafana dashboard
// (docs/grafana/mdc-dashboard.json) queries exists, so it cannot rot.

import (
	"fmt"
	"testing"
	"time"
)

func TestMetricsOfServerAndGateway(t *testing.T) {
	serverAddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	gatewayAddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	s := StartStackWith(t, StackOptions{
		Env:        []string{"MDC_METRICS_ADDR=" + serverAddr},
		GatewayEnv: []string{"MDC_GATEWAY_METRICS_ADDR=" + gatewayAddr},
	})
	username := "metrics_" + mustRandomHex(t, 4)
	_, token := s.NewNamedDeveloper(t, username, "developer")
	start := time.Now()
	before := fetchScrape(t, serverAddr)

	const quotes = 5
	sym := uniqueSymbol(t, "MET")
	var entries []any
	for i := 0; i < quotes; i++ {
		entries = append(entries, map[string]any{
			"nseSymbol": fmt.Sprintf("%s%d", sym, i), "quoteData": devPayload(devQuote{price: 100 + i, volume: 10})})
	}
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, map[string]any{"data": map[string]any{
		"timestamp": "2034-01-10T10:00:00", "timezone": "Asia/Kolkata", "quotes": entries}}), 200)
	postNifty(t, s, token, devQuote{"2034-01-10T10:00:00", 21000.5, 100})
	postShortlist(t, s, token, "TOP_GAINERS", "FULL", "2034-01-10T10:00:00", sym+"0")
	expectStatus(t, s.Do(t, "GET", query("/v1/developer/quote-timeline", map[string]string{
		"symbol": sym + "0", "start_datetime": "2034-01-10T09:15:00", "end_datetime": "2034-01-10T15:30:00"}), token, nil), 200)
	expectStatus(t, s.Do(t, "GET", query("/v1/dashboard/quote-timelines", map[string]string{
		"symbol": sym + "0", "date": "2034-01-10"}), token, nil), 200)

	// The freshness series come from the database, read back every few
	// seconds (service/lifecycle/write_activity.h): wait for this
	// developer's.
	freshness := map[string]string{"developer": username, "kind": "shortlists"}
	for deadline := time.Now().Add(30 * time.Second); len(fetchScrape(t, serverAddr).find(
		"mdc_developer_last_write_timestamp_seconds", freshness)) == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("no mdc_developer_last_write_timestamp_seconds%v after 30 s", freshness)
		}
		time.Sleep(250 * time.Millisecond)
	}
	server := fetchScrape(t, serverAddr)
	gateway := fetchScrape(t, gatewayAddr)

	t.Run("collector freshness", func(t *testing.T) {
		from, to := float64(start.Add(-time.Minute).Unix()), float64(time.Now().Add(time.Minute).Unix())
		for _, kind := range []string{"quotes", "nifty", "shortlists"} {
			one(t, server, "mdc_developer_last_write_timestamp_seconds", map[string]string{"developer": username, "kind": kind},
				func(v float64) bool { return v >= from && v <= to })
		}
		// The admin bootstrap token wrote nothing: no series of its own.
		if got := server.find("mdc_developer_last_write_timestamp_seconds", map[string]string{"developer": "admin"}); len(got) != 0 {
			t.Errorf("series of a developer that wrote nothing: %v", got)
		}
	})

	t.Run("rows written per table", func(t *testing.T) {
		for table, want := range map[string]float64{"stock_quotes": quotes, "nifty_quotes": 1, "shortlist_snapshots": 1} {
			labels := map[string]string{"table": table}
			if len(server.find("mdc_rows_written_total", labels)) != 1 {
				t.Errorf("no mdc_rows_written_total series for %s", table)
				continue
			}
			got := server.sum("mdc_rows_written_total", labels) - before.sum("mdc_rows_written_total", labels)
			if got != want {
				t.Errorf("rows written to %s: %v, want %v", table, got, want)
			}
		}
	})

	t.Run("RPCs by service and method", func(t *testing.T) {
		for _, service := range []string{"mdc.v1.DeveloperService", "mdc.v1.DashboardService"} {
			labels := map[string]string{"service": service, "method": "GetQuoteTimeline", "code": "OK"}
			if got := server.sum("mdc_rpc_total", labels); got != 1 {
				t.Errorf("mdc_rpc_total%v = %v, want 1 (one series per service)", labels, got)
			}
			hist := map[string]string{"service": service, "method": "GetQuoteTimeline"}
			if got := server.sum("mdc_rpc_duration_seconds_count", hist); got != 1 {
				t.Errorf("mdc_rpc_duration_seconds_count%v = %v, want 1", hist, got)
			}
		}
		labels := map[string]string{"service": "mdc.v1.CollectorService", "method": "SaveQuotes", "code": "OK"}
		if got := server.sum("mdc_rpc_total", labels); got != 1 {
			t.Errorf("mdc_rpc_total%v = %v, want 1", labels, got)
		}
		for _, smp := range server.find("mdc_rpc_total", nil) {
			if smp.labels["service"] == "" {
				t.Errorf("an RPC without its service: %v", smp.labels)
			}
		}
	})

	t.Run("pool and batchers", func(t *testing.T) {
		// The harness gives every stack MDC_DB_POOL_SIZE=4.
		one(t, server, "mdc_db_pool_max_connections", nil, func(v float64) bool { return v == 4 })
		// Sampled at a quiet moment (the health check may hold one).
		one(t, server, "mdc_db_pool_connections_in_use", nil, func(v float64) bool { return v >= 0 && v <= 4 })
		one(t, server, "mdc_db_pool_connections_open", nil, func(v float64) bool { return v >= 1 && v <= 4 })
		one(t, server, "mdc_db_pool_wait_seconds_count", nil, func(v float64) bool { return v >= 0 })
		one(t, server, "mdc_db_pool_reconnects_total", nil, func(v float64) bool { return v == 0 })
		for _, batcher := range []string{"reads", "async_reads", "writes", "bulk_writes"} {
			one(t, server, "mdc_batcher_queue_depth", map[string]string{"batcher": batcher}, func(v float64) bool { return v >= 0 })
		}
		// The quotes went as one bulk write of one statement; NIFTY and the
		// shortlist through the write batcher.
		b := map[string]string{"batcher": "bulk_writes"}
		if got := server.sum("mdc_batcher_batch_size_count", b) - before.sum("mdc_batcher_batch_size_count", b); got != 1 {
			t.Errorf("bulk write batches: %v, want 1", got)
		}
		w := map[string]string{"batcher": "writes"}
		if got := server.sum("mdc_batcher_batch_size_sum", w) - before.sum("mdc_batcher_batch_size_sum", w); got != 2 {
			t.Errorf("statements through the write batcher: %v, want 2", got)
		}
		if got := server.sum("mdc_batcher_batch_duration_seconds_count", w) - before.sum("mdc_batcher_batch_duration_seconds_count", w); got < 1 {
			t.Errorf("write batches timed: %v, want at least 1", got)
		}
		// A shortlist and a NIFTY write are statements of different
		// tables: never merged, so two statements whatever the batches.
		if got := server.sum("mdc_batcher_statements_total", w) - before.sum("mdc_batcher_statements_total", w); got != 2 {
			t.Errorf("statements the write batches ran: %v, want 2", got)
		}
		if got := server.sum("mdc_batcher_statements_total", b) - before.sum("mdc_batcher_statements_total", b); got != 1 {
			t.Errorf("statements the bulk write batches ran: %v, want 1", got)
		}
	})

	t.Run("process of each", func(t *testing.T) {
		for name, sc := range map[string]scrape{"mdc-server": server, "mdc-gateway": gateway} {
			t.Run(name, func(t *testing.T) {
				one(t, sc, "process_resident_memory_bytes", nil, func(v float64) bool { return v > 1<<20 })
				// Counted in clock ticks: a process up for a moment may show 0.
				one(t, sc, "process_cpu_seconds_total", nil, func(v float64) bool { return v >= 0 })
				one(t, sc, "process_open_fds", nil, func(v float64) bool { return v >= 3 })
				one(t, sc, "process_start_time_seconds", nil, func(v float64) bool { return v > 1.7e9 })
			})
		}
		one(t, server, "process_threads", nil, func(v float64) bool { return v >= 2 })
		one(t, gateway, "go_goroutines", nil, func(v float64) bool { return v >= 1 })
		one(t, gateway, "go_threads", nil, func(v float64) bool { return v >= 1 })
	})

	t.Run("gateway requests by route and status", func(t *testing.T) {
		for _, c := range []struct {
			method, route string
		}{
			{"POST", "/v1/developer/collector/quotes"},
			{"POST", "/v1/developer/collector/nifty"},
			{"GET", "/v1/developer/quote-timeline"},
			{"GET", "/v1/dashboard/quote-timelines"},
		} {
			labels := map[string]string{"method": c.method, "route": c.route, "code": "200"}
			if got := gateway.sum("mdc_gateway_http_requests_total", labels); got != 1 {
				t.Errorf("mdc_gateway_http_requests_total%v = %v, want 1", labels, got)
			}
			hist := map[string]string{"method": c.method, "route": c.route}
			if got := gateway.sum("mdc_gateway_http_request_duration_seconds_count", hist); got != 1 {
				t.Errorf("mdc_gateway_http_request_duration_seconds_count%v = %v, want 1", hist, got)
			}
		}
		for _, smp := range gateway.find("mdc_gateway_http_requests_total", nil) {
			if smp.labels["route"] == "" {
				t.Errorf("a request without its route: %v", smp.labels)
			}
		}
	})

	t.Run("dashboard queries only exposed series", func(t *testing.T) {
		checkDashboard(t, "../../docs/grafana/mdc-dashboard.json", server, gateway)
	})

	t.Run("alert rules query only exposed series", func(t *testing.T) {
		checkAlertRules(t, "../../docs/grafana/mdc-alerts.yaml", server, gateway)
	})
}

// one checks that name{labels} is exactly one sample of sc and that ok
// holds for its value.
func one(t *testing.T, sc scrape, name string, labels map[string]string, ok func(float64) bool) {
	t.Helper()
	found := sc.find(name, labels)
	if len(found) != 1 {
		t.Errorf("%s%v: %d samples, want 1", name, labels, len(found))
		return
	}
	if !ok(found[0].value) {
		t.Errorf("%s%v = %v: not a sensible value", name, labels, found[0].value)
	}
}
