package e2e

// compose.yaml's `scale` profile (docs/operations.md, "Read replica"): the
// topology of topology_test.go for a Docker host. Containers do not run in
// the test suite (scripts/test-containers.sh runs them), so this checks the
// file's structure: the profile's services,
// how they find each other, their settings (each one a setting mdc-server
// knows) and the order they start in.

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Profiles    []string                     `yaml:"profiles"`
	Image       string                       `yaml:"image"`
	User        string                       `yaml:"user"`
	Command     []string                     `yaml:"command"`
	Entrypoint  []string                     `yaml:"entrypoint"`
	Environment map[string]string            `yaml:"environment"`
	Volumes     []string                     `yaml:"volumes"`
	Ports       []string                     `yaml:"ports"`
	DependsOn   map[string]map[string]string `yaml:"depends_on"`
	Networks    map[string]struct {
		IPv4 string `yaml:"ipv4_address"`
	} `yaml:"networks"`
}

func readCompose(t *testing.T) (composeFile, string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c, root
}

// hostOf is the host of a postgres:// URL whose ${...} parts compose fills.
func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(strings.NewReplacer("${MDC_PG_PASSWORD:?set MDC_PG_PASSWORD to the database password}", "pw").Replace(raw))
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	return u.Host
}

// withDefaults is s with each ${NAME:-default} replaced by its default, as
// compose fills it when NAME is unset.
func withDefaults(s string) string {
	return defaultVar.ReplaceAllString(s, "$1")
}

var defaultVar = regexp.MustCompile(`\$\{[A-Z0-9_]+:-([^}]*)\}`)

func TestComposeScaleProfile(t *testing.T) {
	c, root := readCompose(t)
	scale := []string{"pg-primary", "pg-standby", "scale-server-1", "scale-server-2", "scale-gateway-1", "scale-gateway-2"}
	servers := []string{"scale-server-1", "scale-server-2"}
	gateways := []string{"scale-gateway-1", "scale-gateway-2"}
	var inProfile []string
	for name, svc := range c.Services {
		switch {
		case len(svc.Profiles) == 0:
		case len(svc.Profiles) == 1 && svc.Profiles[0] == "scale":
			inProfile = append(inProfile, name)
		case len(svc.Profiles) == 1 && svc.Profiles[0] == "ha":
			// TestComposeHAProfile
		default:
			t.Errorf("%s: profiles %v", name, svc.Profiles)
		}
		// Every dependency exists and starts whenever its dependent does.
		for dep := range svc.DependsOn {
			d, ok := c.Services[dep]
			if !ok {
				t.Errorf("%s depends on %s, which is no service", name, dep)
			} else if len(d.Profiles) > 0 && len(svc.Profiles) == 0 {
				t.Errorf("%s (no profile) depends on %s of profile %v", name, dep, d.Profiles)
			}
		}
	}
	sort.Strings(inProfile)
	want := append([]string{}, scale...)
	sort.Strings(want)
	if strings.Join(inProfile, ",") != strings.Join(want, ",") {
		t.Fatalf("services of profile scale: %v, want %v", inProfile, want)
	}
	for _, name := range []string{"postgres", "server", "gateway"} {
		if _, ok := c.Services[name]; !ok {
			t.Errorf("the default service %s is gone", name)
		}
	}

	primary, standby := c.Services["pg-primary"], c.Services["pg-standby"]
	for name, svc := range map[string]composeService{"pg-primary": primary, "pg-standby": standby} {
		if withDefaults(svc.Image) != "postgres:15" {
			t.Errorf("%s: image %q, want postgres:15", name, svc.Image)
		}
	}
	// The primary admits replication connections: its init script exists and
	// adds the rule.
	hba := ""
	for _, v := range primary.Volumes {
		if strings.Contains(v, "/docker-entrypoint-initdb.d/") {
			hba = strings.SplitN(v, ":", 2)[0]
		}
	}
	if hba == "" {
		t.Error("pg-primary mounts no init script allowing replication")
	} else if script, err := os.ReadFile(filepath.Join(root, hba)); err != nil {
		t.Errorf("pg-primary's init script: %v", err)
	} else if !strings.Contains(string(script), "host replication mdc") {
		t.Errorf("%s adds no replication rule:\n%s", hba, script)
	}
	// The standby is a pg_basebackup -R copy of the primary, streaming from
	// it, in a volume of its own.
	script := strings.Join(standby.Entrypoint, " ")
	for _, part := range []string{"pg_basebackup -h pg-primary", " -R ", "-X stream", "exec postgres"} {
		if !strings.Contains(script, part) {
			t.Errorf("pg-standby's entrypoint lacks %q:\n%s", part, script)
		}
	}
	if standby.User != "postgres" || standby.Environment["PGPASSWORD"] == "" {
		t.Errorf("pg-standby must run as postgres with PGPASSWORD: user %q, env %v", standby.User, standby.Environment)
	}
	if standby.DependsOn["pg-primary"]["condition"] != "service_healthy" {
		t.Errorf("pg-standby must wait for a healthy pg-primary: %v", standby.DependsOn)
	}
	volumeOf := func(svc composeService) string {
		for _, v := range svc.Volumes {
			if strings.HasSuffix(v, ":/var/lib/postgresql/data") {
				return strings.TrimSuffix(v, ":/var/lib/postgresql/data")
			}
		}
		return ""
	}
	pv, sv := volumeOf(primary), volumeOf(standby)
	if pv == "" || sv == "" || pv == sv || pv == volumeOf(c.Services["postgres"]) {
		t.Errorf("data volumes: primary %q, standby %q; each needs its own", pv, sv)
	}
	for _, v := range []string{pv, sv} {
		if _, ok := c.Volumes[v]; !ok {
			t.Errorf("volume %q is not declared", v)
		}
	}

	// The servers: the primary to write, the standby to read, each setting
	// one mdc-server knows.
	out, err := exec.Command(env.serverBin, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("mdc-server --help: %v\n%s", err, out)
	}
	usage := string(out)
	ports := map[string]string{}
	for _, name := range servers {
		svc := c.Services[name]
		if h := hostOf(t, svc.Environment["DATABASE_URL"]); h != "pg-primary:5432" {
			t.Errorf("%s: DATABASE_URL at %q, want pg-primary:5432", name, h)
		}
		if h := hostOf(t, svc.Environment["DATABASE_READ_URL"]); h != "pg-standby:5432" {
			t.Errorf("%s: DATABASE_READ_URL at %q, want pg-standby:5432", name, h)
		}
		for key := range svc.Environment {
			if !strings.Contains(usage, "["+key+"]") {
				t.Errorf("%s sets %s, which mdc-server does not know", name, key)
			}
		}
		for _, dep := range []string{"pg-primary", "pg-standby"} {
			if svc.DependsOn[dep]["condition"] != "service_healthy" {
				t.Errorf("%s must wait for a healthy %s: %v", name, dep, svc.DependsOn)
			}
		}
		for _, g := range gateways {
			ip := c.Services[g].Networks["default"].IPv4
			if ip == "" || !strings.Contains(","+svc.Environment["MDC_TRUSTED_PROXIES"]+",", ","+ip+",") {
				t.Errorf("%s does not trust %s's address %q: MDC_TRUSTED_PROXIES %q", name, g, ip, svc.Environment["MDC_TRUSTED_PROXIES"])
			}
		}
		if svc.Environment["MDC_GRPC_ADDR"] != "0.0.0.0:50051" {
			t.Errorf("%s: MDC_GRPC_ADDR %q", name, svc.Environment["MDC_GRPC_ADDR"])
		}
		checkHostPorts(t, name, svc, ports)
	}
	// The gateways: each with both servers.
	for _, name := range gateways {
		svc := c.Services[name]
		if got := svc.Environment["MDC_GRPC_ADDR"]; got != "scale-server-1:50051,scale-server-2:50051" {
			t.Errorf("%s: MDC_GRPC_ADDR %q, want both servers", name, got)
		}
		for _, s := range servers {
			if svc.DependsOn[s]["condition"] != "service_healthy" {
				t.Errorf("%s must wait for a healthy %s: %v", name, s, svc.DependsOn)
			}
		}
		checkHostPorts(t, name, svc, ports)
	}
	for _, name := range []string{"postgres", "server", "gateway"} {
		checkHostPorts(t, name, c.Services[name], ports)
	}
}

// checkHostPorts fails t when svc publishes a host port that another
// service (in ports: host port -> service) already does.
func checkHostPorts(t *testing.T, name string, svc composeService, ports map[string]string) {
	t.Helper()
	for _, p := range svc.Ports {
		parts := strings.Split(withDefaults(p), ":")
		if len(parts) != 3 || parts[0] != "127.0.0.1" {
			t.Errorf("%s publishes %q; want 127.0.0.1:host:container", name, p)
			continue
		}
		if other, ok := ports[parts[1]]; ok {
			t.Errorf("%s and %s both publish host port %s", name, other, parts[1])
		}
		ports[parts[1]] = name
	}
}
