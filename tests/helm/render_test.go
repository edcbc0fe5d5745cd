// Package helm tests the Helm chart in deploy/helm/mdc without a cluster:
// `helm lint` and `helm template` through the Helm library (helm.sh/helm/v3,
// pinned in go.mod), then every rendered object decoded strictly into its
// Kubernetes type (decode_test.go) and checked for what a decode cannot see
// (checks_test.go).
package helm

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint"
	"helm.sh/helm/v3/pkg/lint/support"
	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"
)

const (
	chartDir  = "../../deploy/helm/mdc"
	namespace = "trading"
)

// kubeVersion is the Kubernetes release the chart is rendered for: the
// oldest it supports (Chart.yaml's kubeVersion), whose API versions are
// the ones the decoder knows.
var kubeVersion = &chartutil.KubeVersion{Version: "v1.27.0", Major: "1", Minor: "27"}

// valuesFile reads one of the chart's values files (values-scale.yaml).
func valuesFile(t *testing.T, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(chartDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(data, &values); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return values
}

// merge is what `helm -f a.yaml -f b.yaml` does with several values: maps
// merge key by key, anything else the later one replaces.
func merge(layers ...map[string]any) map[string]any {
	out := map[string]any{}
	for _, layer := range layers {
		for key, value := range layer {
			if sub, ok := value.(map[string]any); ok {
				if have, ok := out[key].(map[string]any); ok {
					out[key] = merge(have, sub)
					continue
				}
				out[key] = merge(sub)
				continue
			}
			out[key] = value
		}
	}
	return out
}

// document is one rendered object: where it came from and its YAML.
type document struct {
	source string // template path, e.g. mdc/templates/server-deployment.yaml
	hook   bool
	yaml   string
}

// template runs `helm template <release> deploy/helm/mdc --namespace
// trading` with values over the chart's own, and returns every object,
// hooks (the migration job, the test pod) included.
func template(release string, values map[string]any) ([]document, error) {
	chart, err := loader.Load(chartDir)
	if err != nil {
		return nil, err
	}
	install := action.NewInstall(&action.Configuration{Log: func(string, ...any) {}})
	install.DryRun = true
	install.ClientOnly = true
	install.Replace = true
	install.ReleaseName = release
	install.Namespace = namespace
	install.KubeVersion = kubeVersion
	rel, err := install.Run(chart, values)
	if err != nil {
		return nil, err
	}
	var docs []document
	manifests := releaseutil.SplitManifests(rel.Manifest)
	keys := make([]string, 0, len(manifests))
	for key := range manifests {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		text := manifests[key]
		source := key
		if line, _, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(line, "# Source: ") {
			source = strings.TrimPrefix(line, "# Source: ")
		}
		docs = append(docs, document{source: source, yaml: text})
	}
	for _, hook := range rel.Hooks {
		docs = append(docs, document{source: hook.Path, hook: true, yaml: hook.Manifest})
	}
	return docs, nil
}

// mustRender renders and decodes, failing the test on any error.
func mustRender(t *testing.T, values map[string]any) *rendering {
	t.Helper()
	return mustRenderRelease(t, "prod", values)
}

func mustRenderRelease(t *testing.T, release string, values map[string]any) *rendering {
	t.Helper()
	docs, err := template(release, values)
	if err != nil {
		t.Fatalf("helm template: %v", err)
	}
	r, err := decodeAll(docs)
	if err != nil {
		t.Fatalf("decoding the rendered objects: %v", err)
	}
	return r
}

// lintChart runs `helm lint --strict` with values; it returns every message
// at warning level or above.
func lintChart(values map[string]any) []string {
	linter := lint.AllWithKubeVersion(chartDir, values, namespace, kubeVersion)
	var problems []string
	for _, m := range linter.Messages {
		if m.Severity >= support.WarningSev {
			problems = append(problems, fmt.Sprintf("%s: %v", m.Path, m.Err))
		}
	}
	return problems
}
