package helm

import (
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"
)

func TestLint(t *testing.T) {
	for name, values := range map[string]map[string]any{
		"default": nil,
		"scale":   valuesFile(t, "values-scale.yaml"),
	} {
		for _, problem := range lintChart(values) {
			t.Errorf("helm lint --strict (%s values): %s", name, problem)
		}
	}
}

func TestDefaultValues(t *testing.T) {
	r := mustRender(t, nil)
	checkAll(t, r)
	checkSettingsAreKnown(t, r)
	checkMigrationJob(t, r)
	server, gateway := r.deployment("prod-mdc-server"), r.deployment("prod-mdc-gateway")
	if server == nil || gateway == nil || len(r.deployments()) != 2 {
		t.Fatalf("want Deployments prod-mdc-server and prod-mdc-gateway, got %v", r.all("apps/v1/Deployment"))
	}
	for _, d := range []*appsv1.Deployment{server, gateway} {
		if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 {
			t.Errorf("%s: want 1 replica", d.Name)
		}
	}
	if hpas := r.all("autoscaling/v2/HorizontalPodAutoscaler"); len(hpas) != 0 {
		t.Errorf("autoscalers by default: %v", hpas)
	}
	if n := len(r.all("policy/v1/PodDisruptionBudget")); n != 2 {
		t.Errorf("%d PodDisruptionBudgets, want 2", n)
	}
	cluster := r.get("postgresql.cnpg.io/v1/Cluster", "prod-mdc-db")
	if cluster == nil {
		t.Fatal("no CloudNativePG Cluster prod-mdc-db")
	}
	spec := cluster.value.(*cnpgCluster).Spec
	if spec.Instances != 1 || spec.Bootstrap == nil || spec.Bootstrap.InitDB == nil ||
		spec.Bootstrap.InitDB.Database != "mdc" || spec.Bootstrap.InitDB.Owner != "mdc" {
		t.Errorf("Cluster spec: %+v", spec)
	}

	c := server.Spec.Template.Spec.Containers[0]
	wantSecretRef(t, c, "DATABASE_URL", "prod-mdc-db-app", "uri", false)
	if env(c, "DATABASE_READ_URL") != nil || env(c, "PGPASSWORD") != nil {
		t.Errorf("a one-instance cluster has no replica to read from")
	}
	wantSecretRef(t, c, "MDC_ADMIN_TOKEN", "prod-mdc-secrets", "admin-token", true)
	wantSecretRef(t, c, "MDC_SECRET_KEY", "prod-mdc-secrets", "secret-key", true)

	// The server is ready on gRPC health for the whole server, on its gRPC port.
	grpcPort, _ := containerPortNamed(c, "grpc")
	for kind, probe := range map[string]*corev1.Probe{"startup": c.StartupProbe, "readiness": c.ReadinessProbe} {
		if probe == nil || probe.GRPC == nil || probe.GRPC.Port != grpcPort || probe.GRPC.Service == nil || *probe.GRPC.Service != "" {
			t.Errorf("server %s probe: want gRPC health of \"\" on port %d, got %+v", kind, grpcPort, probe)
		}
	}
	g := gateway.Spec.Template.Spec.Containers[0]
	if p := g.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/health" || p.HTTPGet.Port.StrVal != "http" {
		t.Errorf("gateway readiness: want GET /health on port http, got %+v", p)
	}
	checkGatewayFindsServers(t, r, g)
	checkServerPolicy(t, r)

	test := r.get("v1/Pod", "prod-mdc-test-health")
	if test == nil || test.meta.Annotations["helm.sh/hook"] != "test" {
		t.Fatalf("no helm test pod: %v", test)
	}
	if cmd := test.value.(*corev1.Pod).Spec.Containers[0].Command; cmd[len(cmd)-1] != "http://prod-mdc-gateway:8080/health" {
		t.Errorf("test pod asks %q", cmd[len(cmd)-1])
	}
}

func TestScaleValues(t *testing.T) {
	r := mustRender(t, valuesFile(t, "values-scale.yaml"))
	checkAll(t, r)
	checkSettingsAreKnown(t, r)
	checkMigrationJob(t, r)
	for _, name := range []string{"prod-mdc-server", "prod-mdc-gateway"} {
		hpa := r.get("autoscaling/v2/HorizontalPodAutoscaler", name)
		if hpa == nil {
			t.Errorf("no autoscaler %s", name)
		}
		pdb := r.get("policy/v1/PodDisruptionBudget", name)
		if pdb == nil || pdb.value.(*policyv1.PodDisruptionBudget).Spec.MinAvailable.IntValue() != 1 {
			t.Errorf("%s: want a PodDisruptionBudget with minAvailable 1", name)
		}
	}
	cluster := r.get("postgresql.cnpg.io/v1/Cluster", "prod-mdc-db")
	if cluster == nil || cluster.value.(*cnpgCluster).Spec.Instances != 2 {
		t.Fatalf("want a Cluster of a primary and a replica: %v", cluster)
	}
	c := r.deployment("prod-mdc-server").Spec.Template.Spec.Containers[0]
	wantSecretRef(t, c, "DATABASE_URL", "prod-mdc-db-app", "uri", false)
	wantSecretRef(t, c, "PGPASSWORD", "prod-mdc-db-app", "password", false)
	if e := env(c, "DATABASE_READ_URL"); e == nil || e.Value != "postgresql://mdc@prod-mdc-db-ro.trading:5432/mdc" {
		t.Errorf("DATABASE_READ_URL: want the -ro Service of the Cluster, got %+v", e)
	}
	if job := r.get("batch/v1/Job", "prod-mdc-migrate"); job != nil {
		jc := job.value.(*batchv1.Job).Spec.Template.Spec.Containers[0]
		if env(jc, "DATABASE_READ_URL") != nil {
			t.Errorf("the migration job needs the primary only")
		}
	}
}

// values-ha.yaml: three instances, every commit confirmed by one standby,
// writes stopped rather than kept on one copy (docs/deployment.md, "High
// availability"); the default chart stays asynchronous.
func TestHAValues(t *testing.T) {
	r := mustRender(t, valuesFile(t, "values-ha.yaml"))
	checkAll(t, r)
	cluster := r.get("postgresql.cnpg.io/v1/Cluster", "prod-mdc-db")
	if cluster == nil {
		t.Fatal("no Cluster")
	}
	spec := cluster.value.(*cnpgCluster).Spec
	if spec.Instances != 3 {
		t.Errorf("instances %d, want 3", spec.Instances)
	}
	want := cnpgSynchronousConfig{Method: "any", Number: 1, DataDurability: "required"}
	if got := spec.PostgreSQL.Synchronous; got == nil || *got != want {
		t.Errorf("synchronous %+v, want %+v", got, want)
	}
	def := mustRender(t, nil).get("postgresql.cnpg.io/v1/Cluster", "prod-mdc-db")
	if def == nil || def.value.(*cnpgCluster).Spec.PostgreSQL.Synchronous != nil {
		t.Errorf("the default values render synchronous replication: %+v", def)
	}
}

func TestBackupThroughTheOperator(t *testing.T) {
	scale := valuesFile(t, "values-scale.yaml")
	for name, overlay := range map[string]string{
		"volume snapshots": `
database:
  cnpg:
    backup: {volumeSnapshot: {className: csi-snapclass}}
    scheduledBackup: {enabled: true, method: volumeSnapshot}`,
		"barman cloud plugin": `
database:
  cnpg:
    plugins:
      - {name: barman-cloud.cloudnative-pg.io, isWALArchiver: true, parameters: {barmanObjectName: mdc-store}}
    scheduledBackup: {enabled: true, method: plugin, pluginConfiguration: {name: barman-cloud.cloudnative-pg.io}}`,
	} {
		t.Run(name, func(t *testing.T) {
			r := mustRender(t, merge(scale, parseValues(t, overlay)))
			checkAll(t, r)
			o := r.get("postgresql.cnpg.io/v1/ScheduledBackup", "prod-mdc-db")
			if o == nil {
				t.Fatal("no ScheduledBackup")
			}
			backup := o.value.(*cnpgScheduledBackup).Spec
			cluster := r.get("postgresql.cnpg.io/v1/Cluster", backup.Cluster.Name)
			if cluster == nil {
				t.Fatalf("ScheduledBackup of Cluster %q, which is not rendered", backup.Cluster.Name)
			}
			spec := cluster.value.(*cnpgCluster).Spec
			if fields := strings.Fields(backup.Schedule); len(fields) != 6 {
				t.Errorf("schedule %q: CloudNativePG's cron has six fields, seconds first", backup.Schedule)
			}
			switch backup.Method {
			case "volumeSnapshot":
				if spec.Backup == nil || spec.Backup.VolumeSnapshot == nil || spec.Backup.VolumeSnapshot.ClassName == "" {
					t.Errorf("method volumeSnapshot, but the Cluster has no backup.volumeSnapshot")
				}
			case "plugin":
				if backup.PluginConfiguration == nil || !slices.ContainsFunc(spec.Plugins, func(p cnpgPlugin) bool { return p.Name == backup.PluginConfiguration.Name }) {
					t.Errorf("method plugin, but its plugin is not among the Cluster's %+v", spec.Plugins)
				}
			default:
				t.Errorf("method %q", backup.Method)
			}
		})
	}
}

func TestExternalDatabase(t *testing.T) {
	r := mustRender(t, parseValues(t, `
database:
  mode: external
  external: {existingSecret: `+externalDatabaseSecret+`}`))
	checkAll(t, r)
	if clusters := r.all("postgresql.cnpg.io/v1/Cluster"); len(clusters) != 0 {
		t.Errorf("an external database, but a Cluster is rendered: %v", clusters)
	}
	c := r.deployment("prod-mdc-server").Spec.Template.Spec.Containers[0]
	wantSecretRef(t, c, "DATABASE_URL", externalDatabaseSecret, "url", false)
	wantSecretRef(t, c, "DATABASE_READ_URL", externalDatabaseSecret, "read-url", true)
	jc := r.get("batch/v1/Job", "prod-mdc-migrate").value.(*batchv1.Job).Spec.Template.Spec.Containers[0]
	wantSecretRef(t, jc, "DATABASE_URL", externalDatabaseSecret, "url", false)
}

func TestIngressAndNarrowedPolicies(t *testing.T) {
	r := mustRender(t, parseValues(t, `
ingress:
  enabled: true
  className: nginx
  hosts: [{host: mdc.example.com, paths: [{path: /, pathType: Prefix}]}]
  tls: [{secretName: mdc-tls, hosts: [mdc.example.com]}]
gateway:
  networkPolicy:
    httpClients: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ingress-nginx}}}]
server:
  networkPolicy:
    grpcClients: [{podSelector: {matchLabels: {app: strategy}}}]
metricsScrapers: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]`))
	checkAll(t, r)
	o := r.get("networking.k8s.io/v1/Ingress", "prod-mdc")
	if o == nil {
		t.Fatal("no Ingress")
	}
	for _, rule := range o.value.(*networkingv1.Ingress).Spec.Rules {
		for _, path := range rule.HTTP.Paths {
			svc := r.get("v1/Service", path.Backend.Service.Name)
			if svc == nil || !slices.ContainsFunc(svc.value.(*corev1.Service).Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == path.Backend.Service.Port.Name }) {
				t.Errorf("Ingress backend %s port %q is not a Service port", path.Backend.Service.Name, path.Backend.Service.Port.Name)
			}
		}
	}
	gw := r.get("networking.k8s.io/v1/NetworkPolicy", "prod-mdc-gateway").value.(*networkingv1.NetworkPolicy)
	if from := gw.Spec.Ingress[0].From; len(from) != 2 || from[0].PodSelector.MatchLabels["app.kubernetes.io/component"] != "test" {
		t.Errorf("narrowed HTTP clients must keep the helm test pod: %+v", from)
	}
}

// A release named mdc has the names docs/deployment.md uses; a long
// release name still gives valid ones (checkNamesAndLabels).
func TestReleaseNames(t *testing.T) {
	r := mustRenderRelease(t, "mdc", nil)
	checkAll(t, r)
	for _, name := range []string{"mdc-server", "mdc-gateway", "mdc-server-headless"} {
		if r.get("v1/Service", name) == nil {
			t.Errorf("release mdc: no Service %s", name)
		}
	}
	if r.get("postgresql.cnpg.io/v1/Cluster", "mdc-db") == nil {
		t.Errorf("release mdc: no Cluster mdc-db")
	}
	wantSecretRef(t, r.deployment("mdc-server").Spec.Template.Spec.Containers[0], "MDC_ADMIN_TOKEN", "mdc-secrets", "admin-token", true)

	r = mustRenderRelease(t, strings.Repeat("a", 53), valuesFile(t, "values-scale.yaml"))
	checkAll(t, r)
}

// Settings given as YAML numbers are written as the programs read them,
// not in Go's float notation (4.194304e+06).
func TestNumbersInSettings(t *testing.T) {
	r := mustRender(t, parseValues(t, `
server: {config: {MDC_RATE_LIMIT_READS: 0.5, MDC_RATE_LIMIT_READS_BURST: 1000000}}
gateway: {config: {MDC_MAX_BODY_BYTES: 4194304}}
database: {cnpg: {parameters: {max_connections: 300}}}`))
	for _, c := range []struct{ configMap, key, want string }{
		{"prod-mdc-server", "MDC_RATE_LIMIT_READS", "0.5"},
		{"prod-mdc-server", "MDC_RATE_LIMIT_READS_BURST", "1000000"},
		{"prod-mdc-gateway", "MDC_MAX_BODY_BYTES", "4194304"},
	} {
		if got := r.get("v1/ConfigMap", c.configMap).value.(*corev1.ConfigMap).Data[c.key]; got != c.want {
			t.Errorf("%s %s = %q, want %q", c.configMap, c.key, got, c.want)
		}
	}
	if got := r.get("postgresql.cnpg.io/v1/Cluster", "prod-mdc-db").value.(*cnpgCluster).Spec.PostgreSQL.Parameters["max_connections"]; got != "300" {
		t.Errorf("max_connections = %q, want 300", got)
	}
}

func TestValuesTheChartRefuses(t *testing.T) {
	for _, c := range []struct{ values, want string }{
		{`server: {config: {DATABASE_URL: postgresql://x}}`, "server.config.DATABASE_URL is set by the chart"},
		{`server: {config: {MDC_GRPC_ADDR: "0.0.0.0:1"}}`, "server.config.MDC_GRPC_ADDR is set by the chart"},
		{`gateway: {config: {MDC_GRPC_ADDR: "x:1"}}`, "gateway.config.MDC_GRPC_ADDR is set by the chart"},
		{`server: {config: {LOG_LEVEL: debug}}`, "settings are MDC_* environment variables"},
		{`database: {mode: sqlite}`, "database.mode"},
		{`database: {mode: external}`, "database.external.existingSecret must name a Secret"},
		{`server: {podDisruptionBudget: {minAvailable: 1}}`, "set maxUnavailable or minAvailable, not both"},
		{`ingress: {enabled: true}`, "ingress.hosts must name at least one host"},
		{`sever: {replicaCount: 2}`, "sever"},
		{`server: {replicaCount: two}`, "replicaCount"},
		{`database: {cnpg: {instances: 0}}`, "instances"},
	} {
		_, err := template("prod", parseValues(t, c.values))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("values %s: want an error with %q, got %v", c.values, c.want, err)
		}
	}
}

// The chart's default values hold no secret: settings whose names speak of
// secrets are key or Secret names, and no value looks like a token or a key.
func TestDefaultValuesHoldNoSecrets(t *testing.T) {
	values := valuesFile(t, "values.yaml")
	secretName := regexp.MustCompile(`(?i)password|token|secret|apikey`)
	secretValue := regexp.MustCompile(`^mdc_[A-Za-z0-9_-]{16,}$|^[0-9a-fA-F]{64}$|://[^/@]*:[^/@]*@`)
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for key, value := range v {
				if s, ok := value.(string); ok && s != "" && secretName.MatchString(key) &&
					!strings.HasSuffix(key, "Key") && key != "existingSecret" {
					t.Errorf("%s.%s = %q looks like a secret in the default values", path, key, s)
				}
				walk(path+"."+key, value)
			}
		case []any:
			for _, item := range v {
				walk(path+"[]", item)
			}
		case string:
			if secretValue.MatchString(v) {
				t.Errorf("%s = %q looks like a secret in the default values", path, v)
			}
		}
	}
	walk("values", values)
}

func parseValues(t *testing.T, text string) map[string]any {
	t.Helper()
	var values map[string]any
	if err := yaml.Unmarshal([]byte(text), &values); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return values
}

func env(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

func containerPortNamed(c corev1.Container, name string) (int32, bool) {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort, true
		}
	}
	return 0, false
}

func wantSecretRef(t *testing.T, c corev1.Container, name, secret, key string, optional bool) {
	t.Helper()
	e := env(c, name)
	if e == nil || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
		t.Errorf("%s: %s is not from a Secret: %+v", c.Name, name, e)
		return
	}
	ref := e.ValueFrom.SecretKeyRef
	isOptional := ref.Optional != nil && *ref.Optional
	if ref.Name != secret || ref.Key != key || isOptional != optional {
		t.Errorf("%s: %s from Secret %s key %s (optional %v), want %s key %s (optional %v)",
			c.Name, name, ref.Name, ref.Key, isOptional, secret, key, optional)
	}
}

// checkMigrationJob: `mdc-server migrate` with the servers' image and
// database, after install and before each upgrade.
func checkMigrationJob(t *testing.T, r *rendering) {
	t.Helper()
	o := r.get("batch/v1/Job", "prod-mdc-migrate")
	if o == nil || !o.hook {
		t.Fatalf("no migration hook job: %v", o)
	}
	if hooks := o.meta.Annotations["helm.sh/hook"]; hooks != "post-install,pre-upgrade" {
		t.Errorf("migration job runs at %q", hooks)
	}
	job := o.value.(*batchv1.Job)
	jc := job.Spec.Template.Spec.Containers[0]
	sc := r.deployment("prod-mdc-server").Spec.Template.Spec.Containers[0]
	if !slices.Equal(jc.Args, []string{"migrate"}) || jc.Image != sc.Image {
		t.Errorf("migration job runs %v %v, want the server's image %s with [migrate]", jc.Image, jc.Args, sc.Image)
	}
	if job.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever || job.Spec.BackoffLimit == nil || job.Spec.ActiveDeadlineSeconds == nil {
		t.Errorf("migration job: want restartPolicy Never, a backoffLimit and an activeDeadlineSeconds")
	}
	if a, b := env(jc, "DATABASE_URL"), env(sc, "DATABASE_URL"); a == nil || b == nil || a.ValueFrom.SecretKeyRef.Name != b.ValueFrom.SecretKeyRef.Name || a.ValueFrom.SecretKeyRef.Key != b.ValueFrom.SecretKeyRef.Key {
		t.Errorf("the migration job and the servers must use one database")
	}
}

// checkGatewayFindsServers: the gateway's MDC_GRPC_ADDR is the headless
// Service of the servers, which lists every server pod, on their gRPC port.
func checkGatewayFindsServers(t *testing.T, r *rendering, g corev1.Container) {
	t.Helper()
	addr := env(g, "MDC_GRPC_ADDR")
	m := regexp.MustCompile(`^dns:///([a-z0-9-]+)\.` + namespace + `\.svc\.cluster\.local:(\d+)$`).FindStringSubmatch(addr.Value)
	if m == nil {
		t.Fatalf("gateway MDC_GRPC_ADDR %q: want dns:///<service>.%s.svc.cluster.local:<port>", addr.Value, namespace)
	}
	o := r.get("v1/Service", m[1])
	if o == nil {
		t.Fatalf("gateway MDC_GRPC_ADDR names Service %s, which is not rendered", m[1])
	}
	svc := o.value.(*corev1.Service)
	if svc.Spec.ClusterIP != corev1.ClusterIPNone || !svc.Spec.PublishNotReadyAddresses {
		t.Errorf("%s: want a headless Service listing pods that are not ready too", o)
	}
	server := r.deployment("prod-mdc-server").Spec.Template.Spec.Containers[0]
	grpcPort, _ := containerPortNamed(server, "grpc")
	if !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == "grpc" && p.TargetPort.StrVal == "grpc" }) ||
		m[2] != itoa(grpcPort) {
		t.Errorf("%s: want port %d (grpc), the gateway dials %s", o, grpcPort, m[2])
	}
	if selected := selecting(r, labelsOf(svc.Spec.Selector)); len(selected) != 1 || selected[0].Name != "prod-mdc-server" {
		t.Errorf("%s does not select the servers", o)
	}
}

// checkServerPolicy: only the gateways (and the values' peers) reach the
// servers' gRPC port: they are the peers MDC_TRUSTED_PROXIES believes.
func checkServerPolicy(t *testing.T, r *rendering) {
	t.Helper()
	np := r.get("networking.k8s.io/v1/NetworkPolicy", "prod-mdc-server").value.(*networkingv1.NetworkPolicy)
	gateway := r.deployment("prod-mdc-gateway").Spec.Template.Labels
	for _, rule := range np.Spec.Ingress {
		if !slices.ContainsFunc(rule.Ports, func(p networkingv1.NetworkPolicyPort) bool { return p.Port.StrVal == "grpc" }) {
			continue
		}
		if len(rule.From) != 1 || rule.From[0].PodSelector == nil ||
			!labelsOf(rule.From[0].PodSelector.MatchLabels).Matches(labelsSet(gateway)) {
			t.Errorf("server gRPC port open to %+v, want the gateways only", rule.From)
		}
		return
	}
	t.Errorf("no NetworkPolicy rule for the servers' gRPC port")
}

// checkSettingsAreKnown: every ConfigMap key is a setting the README's
// configuration table lists for that program, and MDC_TRUSTED_PROXIES is
// a list of addresses and networks the server accepts.
func checkSettingsAreKnown(t *testing.T, r *rendering) {
	t.Helper()
	known := readmeSettings(t)
	for name, program := range map[string]string{"prod-mdc-server": "server", "prod-mdc-gateway": "gateway"} {
		o := r.get("v1/ConfigMap", name)
		if o == nil {
			t.Errorf("no ConfigMap %s", name)
			continue
		}
		for key, value := range o.value.(*corev1.ConfigMap).Data {
			if !slices.Contains(known[key], program) {
				t.Errorf("%s: %s is not a setting of mdc-%s (README, Configuration)", o, key, program)
			}
			if key == "MDC_TRUSTED_PROXIES" {
				for _, entry := range strings.Split(value, ",") {
					if !validProxyEntry(strings.TrimSpace(entry)) {
						t.Errorf("MDC_TRUSTED_PROXIES entry %q: want an IP address or a network with no host bits", entry)
					}
				}
			}
		}
	}
}

// validProxyEntry: an address, or address/prefix with no bits set past the
// prefix (mdc-server refuses 10.244.0.1/16).
func validProxyEntry(entry string) bool {
	if addr, err := netip.ParseAddr(entry); err == nil {
		return addr.IsValid()
	}
	prefix, err := netip.ParsePrefix(entry)
	return err == nil && prefix.Masked() == prefix
}

// readmeSettings maps each variable of the README's configuration table
// to its "Read by" column.
func readmeSettings(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "\n## Configuration\n")
	section, _, _ = strings.Cut(section, "\n## ")
	settings := map[string][]string{}
	names := regexp.MustCompile("`([A-Z][A-Z0-9_]+)`")
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(line, "| `") {
			continue
		}
		var readers []string
		for _, reader := range strings.Split(cells[3], ",") {
			readers = append(readers, strings.TrimSpace(reader))
		}
		for _, m := range names.FindAllStringSubmatch(cells[1], -1) {
			settings[m[1]] = readers
		}
	}
	if len(settings) < 20 {
		t.Fatalf("README configuration table: read only %d settings", len(settings))
	}
	return settings
}

func labelsOf(m map[string]string) labels.Selector { return labels.SelectorFromSet(labels.Set(m)) }

func labelsSet(m map[string]string) labels.Set { return labels.Set(m) }

func itoa(n int32) string { return strconv.Itoa(int(n)) }
