package helm

// Strict decoding of each rendered object into the Go type the API server
// would decode it into, chosen by apiVersion and kind: YAML to JSON
// (duplicate keys refused), then sigs.k8s.io/json's strict mode, the
// decoder the API server itself uses: field names match case-sensitively,
// and an unknown or duplicate field is an error, not silently dropped as
// kubectl apply --validate=false would.

import (
	"errors"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// kinds are the apiVersion/kind pairs the chart may render, each with a
// new value of its type. Anything else is an error: a kind the decoder
// does not know cannot be checked.
var kinds = map[string]func() any{
	"v1/ConfigMap":                           func() any { return &corev1.ConfigMap{} },
	"v1/Secret":                              func() any { return &corev1.Secret{} },
	"v1/Service":                             func() any { return &corev1.Service{} },
	"v1/ServiceAccount":                      func() any { return &corev1.ServiceAccount{} },
	"v1/Pod":                                 func() any { return &corev1.Pod{} },
	"apps/v1/Deployment":                     func() any { return &appsv1.Deployment{} },
	"batch/v1/Job":                           func() any { return &batchv1.Job{} },
	"policy/v1/PodDisruptionBudget":          func() any { return &policyv1.PodDisruptionBudget{} },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"networking.k8s.io/v1/NetworkPolicy":     func() any { return &networkingv1.NetworkPolicy{} },
	"networking.k8s.io/v1/Ingress":           func() any { return &networkingv1.Ingress{} },
	"postgresql.cnpg.io/v1/Cluster":          func() any { return &cnpgCluster{} },
	"postgresql.cnpg.io/v1/ScheduledBackup":  func() any { return &cnpgScheduledBackup{} },
}

// object is one decoded object.
type object struct {
	source string
	hook   bool
	kind   string // apiVersion/kind, a key of kinds
	meta   metav1.ObjectMeta
	value  any // *corev1.Service, *appsv1.Deployment, ...
}

func (o object) String() string { return fmt.Sprintf("%s %s (%s)", o.kind, o.meta.Name, o.source) }

// rendering is one `helm template` run, decoded.
type rendering struct {
	objects []object
}

// decodeAll decodes every document strictly; the error names each one that
// failed and why.
func decodeAll(docs []document) (*rendering, error) {
	r := &rendering{}
	var problems []error
	for _, doc := range docs {
		obj, err := decode(doc)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", doc.source, err))
			continue
		}
		r.objects = append(r.objects, obj)
	}
	return r, errors.Join(problems...)
}

func decode(doc document) (object, error) {
	data, err := yaml.YAMLToJSONStrict([]byte(doc.yaml))
	if err != nil {
		return object{}, fmt.Errorf("not valid YAML: %w", err)
	}
	var head metav1.TypeMeta
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &head); err != nil {
		return object{}, err
	}
	kind := head.APIVersion + "/" + head.Kind
	newValue, ok := kinds[kind]
	if !ok {
		return object{}, fmt.Errorf("apiVersion %q kind %q: not a type this test knows", head.APIVersion, head.Kind)
	}
	value := newValue()
	strict, err := kjson.UnmarshalStrict(data, value, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return object{}, fmt.Errorf("%s: %w", kind, err)
	}
	if len(strict) > 0 {
		msgs := make([]string, len(strict))
		for i, e := range strict {
			msgs[i] = e.Error()
		}
		return object{}, fmt.Errorf("%s: %s", kind, strings.Join(msgs, "; "))
	}
	meta, err := metaOf(value)
	if err != nil {
		return object{}, err
	}
	return object{source: doc.source, hook: doc.hook, kind: kind, meta: meta, value: value}, nil
}

// metaOf is the ObjectMeta of a decoded value.
func metaOf(value any) (metav1.ObjectMeta, error) {
	switch v := value.(type) {
	case metav1.Object:
		return metav1.ObjectMeta{
			Name: v.GetName(), Namespace: v.GetNamespace(),
			Labels: v.GetLabels(), Annotations: v.GetAnnotations(),
		}, nil
	}
	return metav1.ObjectMeta{}, fmt.Errorf("%T has no metadata", value)
}

// all returns the objects of one kind ("apps/v1/Deployment").
func (r *rendering) all(kind string) []object {
	var out []object
	for _, o := range r.objects {
		if o.kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// get returns the object of kind named name, or nil.
func (r *rendering) get(kind, name string) *object {
	for i, o := range r.objects {
		if o.kind == kind && o.meta.Name == name {
			return &r.objects[i]
		}
	}
	return nil
}

func (r *rendering) deployments() []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, o := range r.all("apps/v1/Deployment") {
		out = append(out, o.value.(*appsv1.Deployment))
	}
	return out
}

func (r *rendering) deployment(name string) *appsv1.Deployment {
	if o := r.get("apps/v1/Deployment", name); o != nil {
		return o.value.(*appsv1.Deployment)
	}
	return nil
}

// podTemplates are the pods the chart makes: each Deployment's and Job's
// template, and the test Pod, by the name of their owner.
func (r *rendering) podTemplates() map[string]corev1.PodTemplateSpec {
	pods := map[string]corev1.PodTemplateSpec{}
	for _, o := range r.objects {
		switch v := o.value.(type) {
		case *appsv1.Deployment:
			pods[o.String()] = v.Spec.Template
		case *batchv1.Job:
			pods[o.String()] = v.Spec.Template
		case *corev1.Pod:
			pods[o.String()] = corev1.PodTemplateSpec{ObjectMeta: v.ObjectMeta, Spec: v.Spec}
		}
	}
	return pods
}
