package helm

// What a strict decode cannot see, checked on every rendering: names and
// labels the API server would refuse; pods that run without probes,
// resources or a non-root, read-only container; selectors that select
// nothing; ports, ConfigMaps, Secrets, ServiceAccounts and Deployments
// named but not there; secrets written as plain values.

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// checkAll runs every check on r and reports each problem.
func checkAll(t *testing.T, r *rendering) {
	t.Helper()
	for _, check := range []struct {
		name string
		run  func(*rendering) []string
	}{
		{"names and labels", checkNamesAndLabels},
		{"pods", checkPods},
		{"pod references", checkPodReferences},
		{"services", checkServices},
		{"budgets and autoscalers", checkBudgetsAndAutoscalers},
		{"network policies", checkNetworkPolicies},
		{"no secret values", checkNoSecretValues},
	} {
		for _, problem := range check.run(r) {
			t.Errorf("%s: %s", check.name, problem)
		}
	}
}

func checkNamesAndLabels(r *rendering) []string {
	var problems []string
	seen := map[string]bool{}
	for _, o := range r.objects {
		if seen[o.kind+"/"+o.meta.Name] {
			problems = append(problems, fmt.Sprintf("%s rendered twice", o))
		}
		seen[o.kind+"/"+o.meta.Name] = true
		// Services need a DNS label (RFC 1035), the rest a DNS subdomain.
		var errs []string
		if o.kind == "v1/Service" {
			errs = validation.IsDNS1035Label(o.meta.Name)
		} else {
			errs = validation.IsDNS1123Subdomain(o.meta.Name)
		}
		for _, e := range errs {
			problems = append(problems, fmt.Sprintf("%s: name: %s", o, e))
		}
		for _, e := range metav1validation.ValidateLabels(o.meta.Labels, field.NewPath("metadata", "labels")) {
			problems = append(problems, fmt.Sprintf("%s: %v", o, e))
		}
		if o.meta.Namespace != "" {
			problems = append(problems, fmt.Sprintf("%s: namespace %q written in the template (helm sets it)", o, o.meta.Namespace))
		}
	}
	for owner, pod := range r.podTemplates() {
		for _, e := range metav1validation.ValidateLabels(pod.Labels, field.NewPath("spec", "template", "labels")) {
			problems = append(problems, fmt.Sprintf("%s: %v", owner, e))
		}
		for _, c := range pod.Spec.Containers {
			for _, p := range c.Ports {
				for _, e := range validation.IsValidPortName(p.Name) {
					problems = append(problems, fmt.Sprintf("%s: port %q: %s", owner, p.Name, e))
				}
			}
			for _, env := range c.Env {
				for _, e := range validation.IsEnvVarName(env.Name) {
					problems = append(problems, fmt.Sprintf("%s: env %q: %s", owner, env.Name, e))
				}
			}
		}
	}
	return problems
}

// checkPods: every container has requests and limits of CPU and memory,
// runs as a non-root user with a read-only root filesystem, no privilege
// escalation and no capabilities; no pod mounts a service account token;
// every long-running container has readiness and liveness probes on ports
// it declares.
func checkPods(r *rendering) []string {
	var problems []string
	for owner, pod := range r.podTemplates() {
		spec := pod.Spec
		if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
			problems = append(problems, owner+": mounts a service account token")
		}
		psc := spec.SecurityContext
		if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
			problems = append(problems, owner+": pod securityContext must set runAsNonRoot and a non-zero runAsUser")
		}
		for _, c := range spec.Containers {
			where := fmt.Sprintf("%s container %s", owner, c.Name)
			for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				if _, ok := c.Resources.Requests[name]; !ok {
					problems = append(problems, fmt.Sprintf("%s: no %s request", where, name))
				}
				if _, ok := c.Resources.Limits[name]; !ok {
					problems = append(problems, fmt.Sprintf("%s: no %s limit", where, name))
				}
			}
			for name, limit := range c.Resources.Limits {
				if request, ok := c.Resources.Requests[name]; ok && request.Cmp(limit) > 0 {
					problems = append(problems, fmt.Sprintf("%s: %s request above its limit", where, name))
				}
			}
			sc := c.SecurityContext
			if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
				sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
				sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 {
				problems = append(problems, where+": securityContext must be read-only, without privilege escalation, dropping ALL capabilities")
			}
			if sc != nil && sc.RunAsUser != nil && *sc.RunAsUser == 0 {
				problems = append(problems, where+": runs as root")
			}
			if spec.RestartPolicy == corev1.RestartPolicyNever {
				continue // a job or a test: runs to completion, no probes
			}
			if c.ReadinessProbe == nil || c.LivenessProbe == nil {
				problems = append(problems, where+": needs a readiness and a liveness probe")
			}
			for kind, probe := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe, "startup": c.StartupProbe} {
				if probe != nil {
					problems = append(problems, probeProblems(where+" "+kind+" probe", c, probe)...)
				}
			}
		}
	}
	return problems
}

// probeProblems: a probe has exactly one action, on a port its container
// declares.
func probeProblems(where string, c corev1.Container, p *corev1.Probe) []string {
	var actions int
	var port intstr.IntOrString
	if p.HTTPGet != nil {
		actions++
		port = p.HTTPGet.Port
	}
	if p.TCPSocket != nil {
		actions++
		port = p.TCPSocket.Port
	}
	if p.GRPC != nil {
		actions++
		port = intstr.FromInt32(p.GRPC.Port)
	}
	if p.Exec != nil {
		return []string{where + ": runs a command; probe a health endpoint"}
	}
	if actions != 1 {
		return []string{fmt.Sprintf("%s: %d actions, want 1", where, actions)}
	}
	if _, ok := containerPort(c, port); !ok {
		return []string{fmt.Sprintf("%s: port %s is not a port of the container", where, port.String())}
	}
	return nil
}

// containerPort finds a port of c by name or number.
func containerPort(c corev1.Container, port intstr.IntOrString) (corev1.ContainerPort, bool) {
	for _, p := range c.Ports {
		if (port.Type == intstr.String && p.Name == port.StrVal) || (port.Type == intstr.Int && p.ContainerPort == port.IntVal) {
			return p, true
		}
	}
	return corev1.ContainerPort{}, false
}

// checkPodReferences: the ConfigMaps, Secrets and ServiceAccounts a pod
// names exist, or are optional, or are made by an object of the chart (the
// CloudNativePG Cluster's <cluster>-app Secret), or are the external
// database Secret the values name.
func checkPodReferences(r *rendering) []string {
	var problems []string
	madeSecrets := map[string]bool{}
	for _, o := range r.all("postgresql.cnpg.io/v1/Cluster") {
		madeSecrets[o.meta.Name+"-app"] = true
	}
	for _, o := range r.all("v1/Secret") {
		madeSecrets[o.meta.Name] = true
	}
	for owner, pod := range r.podTemplates() {
		if sa := pod.Spec.ServiceAccountName; sa != "" && sa != "default" && r.get("v1/ServiceAccount", sa) == nil {
			problems = append(problems, fmt.Sprintf("%s: ServiceAccount %s is not rendered", owner, sa))
		}
		for _, c := range pod.Spec.Containers {
			for _, from := range c.EnvFrom {
				if ref := from.ConfigMapRef; ref != nil && r.get("v1/ConfigMap", ref.Name) == nil && (ref.Optional == nil || !*ref.Optional) {
					problems = append(problems, fmt.Sprintf("%s: ConfigMap %s is not rendered", owner, ref.Name))
				}
			}
			for _, env := range c.Env {
				if env.ValueFrom == nil || env.ValueFrom.SecretKeyRef == nil {
					continue
				}
				ref := env.ValueFrom.SecretKeyRef
				optional := ref.Optional != nil && *ref.Optional
				if !optional && !madeSecrets[ref.Name] && ref.Name != externalDatabaseSecret {
					problems = append(problems, fmt.Sprintf("%s: %s from Secret %s, which nothing makes and is not optional", owner, env.Name, ref.Name))
				}
			}
		}
	}
	return problems
}

// externalDatabaseSecret is the Secret the external-database test names.
const externalDatabaseSecret = "mdc-database"

// selecting returns the Deployments whose pods selector selects.
func selecting(r *rendering, selector labels.Selector) []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, d := range r.deployments() {
		if !selector.Empty() && selector.Matches(labels.Set(d.Spec.Template.Labels)) {
			out = append(out, d)
		}
	}
	return out
}

// checkServices: each Deployment's selector matches its pods; each Service
// selects the pods of exactly one Deployment, and its ports target ports
// those pods declare.
func checkServices(r *rendering) []string {
	var problems []string
	for _, d := range r.deployments() {
		selector, err := metav1ToSelector(d.Spec.Selector)
		if err != nil || !selector.Matches(labels.Set(d.Spec.Template.Labels)) {
			problems = append(problems, fmt.Sprintf("Deployment %s: its selector does not match its pod labels (%v)", d.Name, err))
		}
	}
	for _, o := range r.all("v1/Service") {
		svc := o.value.(*corev1.Service)
		selected := selecting(r, labels.SelectorFromSet(svc.Spec.Selector))
		if len(selected) != 1 {
			problems = append(problems, fmt.Sprintf("%s: selects the pods of %d Deployments, want 1", o, len(selected)))
			continue
		}
		for _, port := range svc.Spec.Ports {
			if _, ok := containerPortOfPod(selected[0].Spec.Template.Spec, port.TargetPort); !ok {
				problems = append(problems, fmt.Sprintf("%s: port %s targets %s, which %s's pods do not declare", o, port.Name, port.TargetPort.String(), selected[0].Name))
			}
		}
	}
	return problems
}

func containerPortOfPod(spec corev1.PodSpec, port intstr.IntOrString) (corev1.ContainerPort, bool) {
	for _, c := range spec.Containers {
		if p, ok := containerPort(c, port); ok {
			return p, true
		}
	}
	return corev1.ContainerPort{}, false
}

// checkBudgetsAndAutoscalers: PodDisruptionBudgets select one Deployment's
// pods and leave a drain room to evict one; autoscalers scale an existing
// Deployment that sets no replicas of its own (the autoscaler owns them)
// and requests the CPU its utilization target is a share of.
func checkBudgetsAndAutoscalers(r *rendering) []string {
	var problems []string
	hpaMin := map[string]int32{}
	for _, o := range r.all("autoscaling/v2/HorizontalPodAutoscaler") {
		hpa := o.value.(*autoscalingv2.HorizontalPodAutoscaler)
		ref := hpa.Spec.ScaleTargetRef
		d := r.deployment(ref.Name)
		if ref.Kind != "Deployment" || ref.APIVersion != "apps/v1" || d == nil {
			problems = append(problems, fmt.Sprintf("%s: scales %s %s %s, which is not rendered", o, ref.APIVersion, ref.Kind, ref.Name))
			continue
		}
		if d.Spec.Replicas != nil {
			problems = append(problems, fmt.Sprintf("%s: Deployment %s sets replicas, which each upgrade would reset", o, d.Name))
		}
		if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 1 || *hpa.Spec.MinReplicas > hpa.Spec.MaxReplicas {
			problems = append(problems, fmt.Sprintf("%s: want 1 <= minReplicas <= maxReplicas", o))
		} else {
			hpaMin[d.Name] = *hpa.Spec.MinReplicas
		}
		for _, m := range hpa.Spec.Metrics {
			if m.Resource == nil || m.Resource.Target.Type != autoscalingv2.UtilizationMetricType {
				continue
			}
			for _, c := range d.Spec.Template.Spec.Containers {
				if _, ok := c.Resources.Requests[m.Resource.Name]; !ok {
					problems = append(problems, fmt.Sprintf("%s: targets %s utilization, but container %s requests none", o, m.Resource.Name, c.Name))
				}
			}
		}
	}
	for _, o := range r.all("policy/v1/PodDisruptionBudget") {
		pdb := o.value.(*policyv1.PodDisruptionBudget)
		selector, err := metav1ToSelector(pdb.Spec.Selector)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", o, err))
			continue
		}
		selected := selecting(r, selector)
		if len(selected) != 1 {
			problems = append(problems, fmt.Sprintf("%s: selects the pods of %d Deployments, want 1", o, len(selected)))
			continue
		}
		d := selected[0]
		if (pdb.Spec.MinAvailable == nil) == (pdb.Spec.MaxUnavailable == nil) {
			problems = append(problems, fmt.Sprintf("%s: set exactly one of minAvailable and maxUnavailable", o))
			continue
		}
		replicas := hpaMin[d.Name]
		if d.Spec.Replicas != nil {
			replicas = *d.Spec.Replicas
		}
		if least := pdb.Spec.MinAvailable; least != nil && least.Type == intstr.Int && least.IntVal >= replicas {
			problems = append(problems, fmt.Sprintf("%s: minAvailable %d with %d replicas of %s blocks every node drain", o, least.IntVal, replicas, d.Name))
		}
		if most := pdb.Spec.MaxUnavailable; most != nil && most.Type == intstr.Int && most.IntVal < 1 {
			problems = append(problems, fmt.Sprintf("%s: maxUnavailable 0 blocks every node drain", o))
		}
	}
	return problems
}

// checkNetworkPolicies: each policy selects one Deployment's pods, names
// ports they declare, and its pod selectors select pods of the chart.
func checkNetworkPolicies(r *rendering) []string {
	var problems []string
	pods := r.podTemplates()
	for _, o := range r.all("networking.k8s.io/v1/NetworkPolicy") {
		np := o.value.(*networkingv1.NetworkPolicy)
		selector, err := metav1ToSelector(&np.Spec.PodSelector)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", o, err))
			continue
		}
		selected := selecting(r, selector)
		if len(selected) != 1 {
			problems = append(problems, fmt.Sprintf("%s: selects the pods of %d Deployments, want 1", o, len(selected)))
			continue
		}
		for _, rule := range np.Spec.Ingress {
			for _, port := range rule.Ports {
				if port.Port == nil {
					continue
				}
				if _, ok := containerPortOfPod(selected[0].Spec.Template.Spec, *port.Port); !ok {
					problems = append(problems, fmt.Sprintf("%s: port %s is not a port of %s's pods", o, port.Port.String(), selected[0].Name))
				}
			}
			for _, peer := range rule.From {
				if peer.PodSelector == nil || peer.NamespaceSelector != nil {
					continue // pods elsewhere: the values' own peers
				}
				peerSelector, err := metav1ToSelector(peer.PodSelector)
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s: %v", o, err))
					continue
				}
				matched := false
				for _, pod := range pods {
					matched = matched || peerSelector.Matches(labels.Set(pod.Labels))
				}
				if !matched && !isValuesPeer(peer) {
					problems = append(problems, fmt.Sprintf("%s: peer %v selects no pod of the chart", o, peer.PodSelector.MatchLabels))
				}
			}
		}
	}
	return problems
}

// isValuesPeer tells a peer the values added (other workloads of the
// namespace) from one the chart means to select its own pods with.
func isValuesPeer(peer networkingv1.NetworkPolicyPeer) bool {
	_, ours := peer.PodSelector.MatchLabels["app.kubernetes.io/instance"]
	return !ours
}

// secretEnv are the settings whose values are secrets: never a plain value
// in a pod or a ConfigMap.
var secretEnv = []string{"DATABASE_URL", "PGPASSWORD", "MDC_ADMIN_TOKEN", "MDC_SECRET_KEY", "MDC_BROKER_API_KEY", "MDC_BROKER_API_SECRET"}

// checkNoSecretValues: the chart renders no Secret; secrets reach the pods
// only as references; a database URL it writes itself carries no password.
func checkNoSecretValues(r *rendering) []string {
	var problems []string
	for _, o := range r.all("v1/Secret") {
		problems = append(problems, fmt.Sprintf("%s: the chart must not hold secret values", o))
	}
	for _, o := range r.all("v1/ConfigMap") {
		for key := range o.value.(*corev1.ConfigMap).Data {
			if slices.Contains(secretEnv, key) || key == "DATABASE_READ_URL" {
				problems = append(problems, fmt.Sprintf("%s: holds %s", o, key))
			}
		}
	}
	for owner, pod := range r.podTemplates() {
		for _, c := range pod.Spec.Containers {
			for _, env := range c.Env {
				if slices.Contains(secretEnv, env.Name) && env.ValueFrom == nil {
					problems = append(problems, fmt.Sprintf("%s: %s is a plain value", owner, env.Name))
				}
				if env.Name == "DATABASE_READ_URL" && env.ValueFrom == nil {
					if u, err := parseURL(env.Value); err != nil || u.User == nil {
						problems = append(problems, fmt.Sprintf("%s: DATABASE_READ_URL %q: want postgresql://user@host/db (%v)", owner, env.Value, err))
					} else if _, has := u.User.Password(); has {
						problems = append(problems, fmt.Sprintf("%s: DATABASE_READ_URL holds a password", owner))
					}
				}
			}
		}
	}
	return problems
}

func metav1ToSelector(selector *metav1.LabelSelector) (labels.Selector, error) {
	if selector == nil {
		return labels.Nothing(), fmt.Errorf("no selector")
	}
	return metav1.LabelSelectorAsSelector(selector)
}

func parseURL(text string) (*url.URL, error) {
	u, err := url.Parse(text)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "postgresql" && u.Scheme != "postgres" {
		return nil, fmt.Errorf("scheme %q", u.Scheme)
	}
	return u, nil
}
