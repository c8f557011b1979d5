package argocd

import (
	"fmt"
	"regexp"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// Argo CD's tracking (util/argo resource_tracking.go, util/kube).
const (
	TrackingIDAnnotation           = "argocd.argoproj.io/tracking-id"
	argoInstallationIDAnnotation   = "argocd.argoproj.io/installation-id"
	argoDefaultInstanceLabel       = "app.kubernetes.io/instance"
	argoLegacyInstanceLabel        = "applications.argoproj.io/app-name"
	argoTrackingLabel              = "label"
	argoTrackingAnnotationAndLabel = "annotation+label"
	argoLabelMaxLength             = 63
)

var argoLabelEnd = regexp.MustCompile(`[a-zA-Z0-9]$`)

// argoTracking is how the Application's installation marks what it applies.
type argoTracking struct {
	method         string // "label", "annotation+label", else annotation
	labelKey       string
	installationID string
	app            string // Application.InstanceName
	namespace      string // spec.destination.namespace
}

func (a *Application) tracking() argoTracking {
	ann := a.Metadata.Annotations
	t := argoTracking{
		method:         ann[delivery.ArgoTrackingMethodKey],
		labelKey:       ann[delivery.ArgoInstanceLabelKey],
		installationID: ann[delivery.ArgoInstallationIDKey],
		app:            a.instanceName(),
		namespace:      a.Spec.Destination.Namespace,
	}
	if t.labelKey == "" {
		t.labelKey = argoDefaultInstanceLabel
	}
	return t
}

// apply is SetAppInstance as the repo server calls it: on every object but
// CustomResourceDefinitions.
func (t argoTracking) apply(u *unstructured.Unstructured) error {
	gvk := u.GroupVersionKind()
	if gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition" {
		return nil
	}
	switch t.method {
	case argoTrackingLabel:
		return t.setLabel(u, t.app)
	case argoTrackingAnnotationAndLabel:
		if err := t.setAnnotation(u); err != nil {
			return err
		}
		val := t.app
		if len(val) > argoLabelMaxLength {
			val = val[:argoLabelMaxLength]
			for !argoLabelEnd.MatchString(val) {
				if len(val) <= 1 {
					return fmt.Errorf("failed to set app instance label: unable to truncate label to not end with a special character")
				}
				val = val[:len(val)-1]
			}
		}
		return t.setLabel(u, val)
	default:
		return t.setAnnotation(u)
	}
}

// setAnnotation writes <app>:<group>/<kind>:<namespace>/<name>, the
// namespace the destination's when the manifest sets none (cluster-scoped
// objects too: the repo server does not know scopes), and the installation
// ID when there is one.
func (t argoTracking) setAnnotation(u *unstructured.Unstructured) error {
	ns := u.GetNamespace()
	if ns == "" {
		ns = t.namespace
	}
	id := fmt.Sprintf("%s:%s/%s:%s/%s", t.app, u.GroupVersionKind().Group, u.GetKind(), ns, u.GetName())
	ann, err := stringMap(u.Object, "annotations")
	if err != nil {
		return err
	}
	if t.installationID != "" {
		ann[argoInstallationIDAnnotation] = t.installationID
	} else {
		delete(ann, argoInstallationIDAnnotation)
	}
	ann[TrackingIDAnnotation] = id
	u.SetAnnotations(ann)
	return nil
}

// setLabel is SetAppInstanceLabel: the legacy label key also labels the
// pod templates of workloads.
func (t argoTracking) setLabel(u *unstructured.Unstructured, val string) error {
	labels, err := stringMap(u.Object, "labels")
	if err != nil {
		return err
	}
	labels[t.labelKey] = val
	u.SetLabels(labels)
	if t.labelKey != argoLegacyInstanceLabel {
		return nil
	}
	gvk := schema.FromAPIVersionAndKind(u.GetAPIVersion(), u.GetKind())
	switch {
	case (gvk.Group == "apps" || gvk.Group == "extensions") && (gvk.Kind == "Deployment" || gvk.Kind == "ReplicaSet" || gvk.Kind == "StatefulSet" || gvk.Kind == "DaemonSet"),
		gvk.Group == "batch" && gvk.Kind == "Job":
		tl, _, err := unstructured.NestedMap(u.Object, "spec", "template", "metadata", "labels")
		if err != nil {
			return err
		}
		if tl == nil {
			tl = map[string]any{}
		}
		tl[t.labelKey] = val
		return unstructured.SetNestedMap(u.Object, tl, "spec", "template", "metadata", "labels")
	}
	return nil
}

// stringMap is metadata.<field> as strings (util/kube's
// nestedNullableStringMap): absent or null is empty, anything but strings
// an error.
func stringMap(obj map[string]any, field string) (map[string]string, error) {
	out := map[string]string{}
	meta, _ := obj["metadata"].(map[string]any)
	raw, ok := meta[field]
	if !ok || raw == nil {
		return out, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("metadata.%s is not a map", field)
	}
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("metadata.%s[%q] is not a string", field, k)
		}
		out[k] = s
	}
	return out, nil
}
