// Package controllers knows the controllers that take fields of other
// objects over once they are set up: an autoscaler writes the replicas of
// the Deployment it targets, cert-manager's cainjector writes the CA bundle
// of a webhook configuration annotated for it. A deploy that sends such a
// field fights the controller on every deploy, before the values even
// differ (docs/history.md "Known controllers: `fight`").
//
// Each controller is one entry of Rules. The package reads the objects
// that set controllers up (from the cluster, the snapshot or the render)
// and answers which paths of an object are claimed, by whom and why, and
// which of them the deploy sends: the fight findings (Set.Fights), which
// check's judging stage adds to the object's findings.
package controllers

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Rule is one kind of controller.
type Rule struct {
	// Name is how messages call the controller: the kind that sets it up,
	// or the component.
	Name string
	// Manager is the field manager it writes with, when well known.
	Manager string
	// Source is the kind of the objects that set the controller up to
	// manage other objects (HorizontalPodAutoscaler); zero for a rule that
	// reads the managed object itself.
	Source schema.GroupKind
	// Resource is Source's resource, for the role's documentation and the
	// notes when it may not be listed.
	Resource string
	// Targets reads what one Source object makes its controller manage.
	Targets func(src *unstructured.Unstructured) []Target
	// Self reads, from an object itself, the paths a controller is set up
	// to manage in it (an annotation that asks for injection).
	Self func(obj *unstructured.Unstructured) []Target
}

// Target is a path a controller manages, in Target (for Self rules, in
// the object itself), and why.
type Target struct {
	Object model.ID
	Path   fieldpath.Path
	// Why completes "which <controller> manages (...)": "it scales
	// Deployment web between 2 and 5 replicas".
	Why string
}

// Rules are the controllers this version knows. VerticalPodAutoscalers
// and Istio's sidecar injection are left out on purpose: both rewrite
// Pods as they are created, never the Deployment's template the deploy
// sends, so there is no field of the deploy's objects to fight over.
var Rules = []Rule{
	{
		Name: "HorizontalPodAutoscaler", Manager: "kube-controller-manager",
		Source:   schema.GroupKind{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"},
		Resource: "horizontalpodautoscalers",
		Targets: func(src *unstructured.Unstructured) []Target {
			return scaleTarget(src, "", "", describeRange(src, "minReplicas", "maxReplicas"))
		},
	},
	{
		// KEDA drives the replicas through an HPA of its own (in the
		// cluster, that HPA is found by the rule above) and scales to and
		// from zero itself; offline only the ScaledObject is known.
		Name:     "KEDA ScaledObject",
		Source:   schema.GroupKind{Group: "keda.sh", Kind: "ScaledObject"},
		Resource: "scaledobjects",
		Targets: func(src *unstructured.Unstructured) []Target {
			return scaleTarget(src, "apps/v1", "Deployment", describeRange(src, "minReplicaCount", "maxReplicaCount"))
		},
	},
	{
		Name: "cert-manager cainjector", Manager: "cert-manager-cainjector",
		Self: caInjection,
	},
}

var replicas = fieldpath.MakePathOrDie("spec", "replicas")

// scaleTarget reads spec.scaleTargetRef, as HPAs and ScaledObjects share
// it; apiVersion and kind default as given.
func scaleTarget(src *unstructured.Unstructured, apiVersion, kind, bounds string) []Target {
	ref, _, _ := unstructured.NestedStringMap(src.Object, "spec", "scaleTargetRef")
	if ref["name"] == "" {
		return nil
	}
	if ref["apiVersion"] != "" {
		apiVersion = ref["apiVersion"]
	}
	if ref["kind"] != "" {
		kind = ref["kind"]
	}
	if kind == "" {
		return nil
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil
	}
	group := gv.Group
	if group == "extensions" && (kind == "Deployment" || kind == "ReplicaSet") {
		// The same objects as apps': an identity has no version.
		group = "apps"
	}
	why := fmt.Sprintf("it scales %s %s%s", kind, ref["name"], bounds)
	return []Target{{
		Object: model.ID{Group: group, Kind: kind, Namespace: src.GetNamespace(), Name: ref["name"]},
		Path:   replicas,
		Why:    why,
	}}
}

// describeRange words the replica bounds of an autoscaler, "" when unset.
func describeRange(src *unstructured.Unstructured, minField, maxField string) string {
	lo, okLo, _ := unstructured.NestedFieldNoCopy(src.Object, "spec", minField)
	hi, okHi, _ := unstructured.NestedFieldNoCopy(src.Object, "spec", maxField)
	switch {
	case okLo && okHi:
		return fmt.Sprintf(" between %v and %v replicas", lo, hi)
	case okHi:
		return fmt.Sprintf(" up to %v replicas", hi)
	}
	return ""
}

// cert-manager's cainjector writes the CA bundle of objects annotated
// with one of these.
var caAnnotations = []string{
	"cert-manager.io/inject-ca-from",
	"cert-manager.io/inject-ca-from-secret",
	"cert-manager.io/inject-apiserver-ca",
}

func caInjection(obj *unstructured.Unstructured) []Target {
	var from string
	ann := obj.GetAnnotations()
	for _, a := range caAnnotations {
		if v, ok := ann[a]; ok {
			from = a + ": " + v
			break
		}
	}
	if from == "" {
		return nil
	}
	id := model.IDOf(obj)
	why := "it injects the CA bundle the annotation " + from + " asks for"
	gk := schema.GroupKind{Group: id.Group, Kind: id.Kind}
	switch gk {
	case schema.GroupKind{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"},
		schema.GroupKind{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:
		hooks, _, _ := unstructured.NestedSlice(obj.Object, "webhooks")
		var out []Target
		for _, h := range hooks {
			m, _ := h.(map[string]any)
			name, _ := m["name"].(string)
			if name == "" {
				continue
			}
			key := value.FieldList{{Name: "name", Value: value.NewValueInterface(name)}}
			out = append(out, Target{Object: id, Why: why, Path: fieldpath.MakePathOrDie("webhooks", &key, "clientConfig", "caBundle")})
		}
		return out
	case model.CRDGroupKind:
		return []Target{{Object: id, Why: why, Path: fieldpath.MakePathOrDie("spec", "conversion", "webhook", "clientConfig", "caBundle")}}
	case schema.GroupKind{Group: "apiregistration.k8s.io", Kind: "APIService"}:
		return []Target{{Object: id, Why: why, Path: fieldpath.MakePathOrDie("spec", "caBundle")}}
	}
	return nil
}
