package e2e

// Checks of the Prometheus alert rules beside the Grafana dashboard
// (docs/grafana/mdc-alerts.yaml) against live scrapes (metrics_test.go): the
// file is a valid rule file, each rule is complete, and every series its
// expression names is one the processes expose.

import (
	"bytes"
	"os"
	"testing"

	"go.yaml.in/yaml/v3"
)

type alertRuleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// The alerts the file must hold (issue 24: a dead collector).
var alertsRequired = []string{"MdcCollectorSilent"}

func checkAlertRules(t *testing.T, path string, scrapes ...scrape) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file alertRuleFile
	decoder := yaml.NewDecoder(bytes.NewReader(raw))
	decoder.KnownFields(true)
	if err := decoder.Decode(&file); err != nil {
		t.Fatalf("%s is not a rule file: %v", path, err)
	}
	exposed := map[string]bool{}
	for _, sc := range scrapes {
		for name := range sc.names() {
			exposed[name] = true
		}
	}
	found := map[string]bool{}
	for _, g := range file.Groups {
		if g.Name == "" || len(g.Rules) == 0 {
			t.Errorf("group %q: a name and rules are needed", g.Name)
		}
		for _, r := range g.Rules {
			found[r.Alert] = true
			if r.Alert == "" || r.Expr == "" || r.For == "" || r.Labels["severity"] == "" ||
				r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Errorf("rule %q: alert, expr, for, labels.severity, annotations.summary and description are needed", r.Alert)
			}
			names := exposedName.FindAllString(r.Expr, -1)
			if len(names) == 0 {
				t.Errorf("rule %s: %q names no series", r.Alert, r.Expr)
			}
			for _, name := range names {
				if !exposed[name] {
					t.Errorf("rule %s: %q uses %s, which neither process exposes", r.Alert, r.Expr, name)
				}
			}
		}
	}
	for _, name := range alertsRequired {
		if !found[name] {
			t.Errorf("no alert %s in %s", name, path)
		}
	}
}
