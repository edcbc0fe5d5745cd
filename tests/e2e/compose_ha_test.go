package e2e

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestComposeHAProfile checks compose.yaml's `ha` profile as written (its
// run, a leader lost and writes resumed, is `make test-containers`): etcd,
// three Patroni members of one image, a server whose DATABASE_URL names all
// three and keeps the one that accepts writes, a gateway in front of it;
// every dependency in the profile, and Patroni told to replicate
// synchronously and strictly (docs/deployment.md, High availability).
func TestComposeHAProfile(t *testing.T) {
	c, root := readCompose(t)
	var inProfile []string
	for name, svc := range c.Services {
		if len(svc.Profiles) == 1 && svc.Profiles[0] == "ha" {
			inProfile = append(inProfile, name)
			for dep := range svc.DependsOn {
				if d := c.Services[dep]; len(d.Profiles) != 1 || d.Profiles[0] != "ha" {
					t.Errorf("%s depends on %s, outside the ha profile", name, dep)
				}
			}
		}
	}
	sort.Strings(inProfile)
	want := "ha-etcd,ha-gateway,ha-pg-1,ha-pg-2,ha-pg-3,ha-server"
	if got := strings.Join(inProfile, ","); got != want {
		t.Fatalf("services of profile ha: %s, want %s", got, want)
	}
	members := []string{"ha-pg-1", "ha-pg-2", "ha-pg-3"}
	for _, m := range members {
		svc := c.Services[m]
		if svc.Image != "mdc-patroni" || svc.Environment["PATRONI_NAME"] != m {
			t.Errorf("%s: image %q, PATRONI_NAME %q", m, svc.Image, svc.Environment["PATRONI_NAME"])
		}
		if _, ok := svc.DependsOn["ha-etcd"]; !ok {
			t.Errorf("%s does not wait for etcd", m)
		}
	}
	dbURL := c.Services["ha-server"].Environment["DATABASE_URL"]
	for _, m := range members {
		if !strings.Contains(dbURL, m+":5432") {
			t.Errorf("ha-server's DATABASE_URL %q does not name %s", dbURL, m)
		}
	}
	if !strings.HasSuffix(dbURL, "?target_session_attrs=read-write") {
		t.Errorf("ha-server's DATABASE_URL %q does not keep the member that accepts writes", dbURL)
	}
	if got := c.Services["ha-gateway"].Environment["MDC_GRPC_ADDR"]; got != "ha-server:50051" {
		t.Errorf("ha-gateway's MDC_GRPC_ADDR %q", got)
	}
	entrypoint, err := os.ReadFile(filepath.Join(root, "docker/patroni/entrypoint.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"synchronous_mode: true", "synchronous_mode_strict: true", "use_pg_rewind: true"} {
		if !strings.Contains(string(entrypoint), line) {
			t.Errorf("docker/patroni/entrypoint.sh has no %q", line)
		}
	}
}
