package e2e

// The settings the Helm chart (deploy/helm/mdc) gives mdc-server and
// mdc-gateway, with its default values and with values-scale.yaml, start
// the real binaries: every value is one they accept (tests/helm checks the
// rendered objects; this checks the programs take what is in them). The
// gateway names the server as the chart does, a dns:/// target (there the
// headless Service, here localhost), and answers through it.

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"go.yaml.in/yaml/v3"
)

// chartSettings reads server.config and gateway.config of the chart's
// values files, later files overriding earlier ones as `helm -f` does.
func chartSettings(t *testing.T, files ...string) (server, gateway []string) {
	t.Helper()
	merged := map[string]map[string]any{"server": {}, "gateway": {}}
	for _, file := range files {
		data, err := os.ReadFile(filepath.Join("../../deploy/helm/mdc", file))
		if err != nil {
			t.Fatal(err)
		}
		var values struct {
			Server  struct{ Config map[string]any } `yaml:"server"`
			Gateway struct{ Config map[string]any } `yaml:"gateway"`
		}
		if err := yaml.Unmarshal(data, &values); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for k, v := range values.Server.Config {
			merged["server"][k] = v
		}
		for k, v := range values.Gateway.Config {
			merged["gateway"][k] = v
		}
	}
	env := func(m map[string]any) []string {
		var out []string
		for k, v := range m {
			out = append(out, fmt.Sprintf("%s=%v", k, v))
		}
		sort.Strings(out)
		return out
	}
	return env(merged["server"]), env(merged["gateway"])
}

func TestHelmChartSettingsStartTheRealBinaries(t *testing.T) {
	for name, files := range map[string][]string{
		"default values": {"values.yaml"},
		"scale values":   {"values.yaml", "values-scale.yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			server, gateway := chartSettings(t, files...)
			if len(server) < 3 || len(gateway) < 1 {
				t.Fatalf("too few settings read: %v %v", server, gateway)
			}
			addr, err := freeAddr()
			if err != nil {
				t.Fatal(err)
			}
			_, port, _ := net.SplitHostPort(addr)
			s := StartStackWith(t, StackOptions{
				Env:        append(server, "MDC_GRPC_ADDR="+addr),
				GatewayEnv: append(gateway, "MDC_GRPC_ADDR=dns:///localhost:"+port),
			})
			checkStatus(t, "an admin route through the chart's settings",
				s.Do(t, "GET", "/v1/admin/developers", s.AdminToken(), nil), 200)
		})
	}
}
