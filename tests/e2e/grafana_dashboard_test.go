package e2e

// Checks of the Grafana dashboard against live scrapes (metrics_test.go):
// it parses, every panel and query uses the templated Prometheus
// datasource, and every series a query names is one the processes expose.

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"testing"
)

// dashboardDatasource is the datasource every panel and query uses: the
// dashboard's datasource variable, so it imports into any Grafana.
const dashboardDatasource = "${DS_PROMETHEUS}"

var (
	// A series name of mdc or of the standard process and Go collectors.
	exposedName = regexp.MustCompile(`\b(?:mdc|process|go)_[a-zA-Z0-9_]+`)
	// Any name followed by a label matcher is a series name.
	matchedName = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{`)
)

// The series the dashboard must chart (issue 12: requests, errors and
// latency by route; pool; batchers; rows by table; both processes).
var dashboardMustUse = []string{
	"mdc_gateway_http_requests_total",
	"mdc_gateway_http_request_duration_seconds_bucket",
	"mdc_rpc_total",
	"mdc_rpc_duration_seconds_bucket",
	"mdc_database_up",
	"mdc_db_pool_connections_in_use",
	"mdc_db_pool_wait_seconds_count",
	"mdc_db_pool_wait_seconds_bucket",
	"mdc_db_pool_reconnects_total",
	"mdc_batcher_queue_depth",
	"mdc_batcher_batch_size_bucket",
	"mdc_batcher_batch_duration_seconds_bucket",
	"mdc_rows_written_total",
	"mdc_developer_last_write_timestamp_seconds",
	"process_resident_memory_bytes",
	"process_cpu_seconds_total",
	"process_open_fds",
	"process_threads",
	"go_goroutines",
}

type grafanaDatasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type grafanaTarget struct {
	Datasource *grafanaDatasource `json:"datasource"`
	Expr       string             `json:"expr"`
}

type grafanaPanel struct {
	Type       string             `json:"type"`
	Title      string             `json:"title"`
	Datasource *grafanaDatasource `json:"datasource"`
	Targets    []grafanaTarget    `json:"targets"`
	Panels     []grafanaPanel     `json:"panels"` // of a collapsed row
}

type grafanaDashboard struct {
	Title      string         `json:"title"`
	UID        string         `json:"uid"`
	Panels     []grafanaPanel `json:"panels"`
	Templating struct {
		List []struct {
			Name       string             `json:"name"`
			Type       string             `json:"type"`
			Query      any                `json:"query"`
			Definition string             `json:"definition"`
			Datasource *grafanaDatasource `json:"datasource"`
		} `json:"list"`
	} `json:"templating"`
}

// checkDashboard checks the dashboard at path against the scrapes.
func checkDashboard(t *testing.T, path string, scrapes ...scrape) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d grafanaDashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	if d.Title == "" || d.UID == "" {
		t.Errorf("dashboard without title or uid: %q, %q", d.Title, d.UID)
	}

	exposed := map[string]bool{}
	for _, sc := range scrapes {
		for name := range sc.names() {
			exposed[name] = true
		}
	}
	used := map[string]bool{}
	// checkQuery checks one PromQL query or variable query.
	checkQuery := func(where, q string) {
		names := exposedName.FindAllString(q, -1)
		for _, m := range matchedName.FindAllStringSubmatch(q, -1) {
			names = append(names, m[1])
		}
		if len(names) == 0 {
			t.Errorf("%s: %q names no series", where, q)
		}
		seen := map[string]bool{}
		for _, name := range names {
			if seen[name] {
				continue
			}
			seen[name] = true
			used[name] = true
			if !exposed[name] {
				t.Errorf("%s: %q uses %s, which neither process exposes", where, q, name)
			}
		}
	}

	hasDatasourceVariable := false
	for _, v := range d.Templating.List {
		switch v.Type {
		case "datasource":
			if "${"+v.Name+"}" == dashboardDatasource && v.Query == "prometheus" {
				hasDatasourceVariable = true
			}
		case "query":
			if v.Datasource == nil || v.Datasource.UID != dashboardDatasource {
				t.Errorf("variable %s: datasource %v, want %s", v.Name, v.Datasource, dashboardDatasource)
			}
			q := v.Definition
			if obj, ok := v.Query.(map[string]any); ok {
				q, _ = obj["query"].(string)
			} else if s, ok := v.Query.(string); ok {
				q = s
			}
			checkQuery("variable "+v.Name, q)
		}
	}
	if !hasDatasourceVariable {
		t.Errorf("no datasource variable of type prometheus named %s", dashboardDatasource)
	}

	var panels []grafanaPanel
	var walk func([]grafanaPanel)
	walk = func(ps []grafanaPanel) {
		for _, p := range ps {
			panels = append(panels, p)
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	charts := 0
	for _, p := range panels {
		if p.Type == "row" {
			continue
		}
		charts++
		where := "panel " + p.Title
		if p.Datasource == nil || p.Datasource.Type != "prometheus" || p.Datasource.UID != dashboardDatasource {
			t.Errorf("%s: datasource %v, want prometheus %s", where, p.Datasource, dashboardDatasource)
		}
		if len(p.Targets) == 0 {
			t.Errorf("%s: no query", where)
		}
		for _, target := range p.Targets {
			if target.Datasource == nil || target.Datasource.UID != dashboardDatasource {
				t.Errorf("%s: a query's datasource %v, want %s", where, target.Datasource, dashboardDatasource)
			}
			checkQuery(where, target.Expr)
		}
	}
	if charts < 10 {
		t.Errorf("only %d panels", charts)
	}
	var missing []string
	for _, name := range dashboardMustUse {
		if !used[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the dashboard charts none of %v", missing)
	}
}
