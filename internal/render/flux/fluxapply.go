package flux

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/ownership-check/ownership-check/internal/typing"
)

// What kustomize-controller does to the built objects before and while it
// applies them (its apply step, over fluxcd/pkg/ssa), which is not in the
// kustomize library: owner labels, normalization, commonMetadata, and the
// objects its annotations keep out of the apply.

// fluxGroup is kustomize-controller's API group: the prefix of its owner
// labels and of the annotations it honours.
const fluxGroup = "kustomize.toolkit.fluxcd.io"

const (
	NameLabel      = fluxGroup + "/name"
	NamespaceLabel = fluxGroup + "/namespace"
	fluxSSA        = fluxGroup + "/ssa"
	fluxReconcile  = fluxGroup + "/reconcile"
	fluxDecrypt    = fluxGroup + "/decrypt"
)

// Applied is one object as the controller applies it, or why it does
// not apply it.
type Applied struct {
	Obj map[string]any
	// Skip: the controller leaves the object out of its apply, and why.
	Skip string
	// note: a caveat the object's findings carry.
	note string
}

// Apply does to obj what the controller does after the build: its
// owner labels, the normalization of fluxcd/pkg/ssa, the Kustomization's
// commonMetadata, in the controller's order; then its exclusion and
// if-not-present selectors.
func Apply(ks unstructured.Unstructured, obj map[string]any) (Applied, error) {
	u := &unstructured.Unstructured{Object: obj}
	labels := u.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[NameLabel] = ks.GetName()
	labels[NamespaceLabel] = fluxNamespace(ks)
	u.SetLabels(labels)
	if err := fluxNormalize(u); err != nil {
		return Applied{}, err
	}
	if err := fluxCommonMetadata(ks, u); err != nil {
		return Applied{}, err
	}
	switch {
	case anyInMetadata(u, fluxReconcile, "disabled"):
		return Applied{Obj: u.Object, Skip: fluxReconcile + ": disabled: kustomize-controller does not apply it"}, nil
	case anyInMetadata(u, fluxSSA, "Ignore"):
		return Applied{Obj: u.Object, Skip: fluxSSA + ": Ignore: kustomize-controller does not apply it"}, nil
	case anyInMetadata(u, fluxSSA, "IfNotPresent"):
		return Applied{Obj: u.Object, note: fluxSSA + ": IfNotPresent: kustomize-controller applies it only when it does not exist"}, nil
	}
	return Applied{Obj: u.Object}, nil
}

// anyInMetadata is the controller's selector match: a label or an
// annotation with the value, case-insensitive.
func anyInMetadata(u *unstructured.Unstructured, key, value string) bool {
	for _, m := range []map[string]string{u.GetLabels(), u.GetAnnotations()} {
		if v := m[key]; v != "" && strings.EqualFold(v, value) {
			return true
		}
	}
	return false
}

// fluxCommonMetadata sets spec.commonMetadata's labels and annotations on
// the object's own metadata, over what it has (SetCommonMetadata of
// fluxcd/pkg/ssa).
func fluxCommonMetadata(ks unstructured.Unstructured, u *unstructured.Unstructured) error {
	for _, f := range []struct {
		field string
		get   func() map[string]string
		set   func(map[string]string)
	}{
		{"labels", u.GetLabels, u.SetLabels},
		{"annotations", u.GetAnnotations, u.SetAnnotations},
	} {
		add, _, err := unstructured.NestedStringMap(ks.Object, "spec", "commonMetadata", f.field)
		if err != nil {
			return fmt.Errorf("spec.commonMetadata.%s: %w", f.field, err)
		}
		m := f.get()
		if m == nil {
			m = map[string]string{}
		}
		for k, v := range add {
			m[k] = v
		}
		if len(m) > 0 {
			f.set(m)
		}
	}
	return nil
}

// fluxNormalize is fluxcd/pkg/ssa's normalization of what the controller
// applies: a kind client-go knows goes through its Go type (which drops
// unknown fields and writes what the type always writes), ports get their
// default protocol, a Secret's stringData moves into data; status goes,
// but a CRD's. Roles and ClusterRoles are left as they are (an upstream
// serialization bug). The top-level creationTimestamp the normalization
// sets to null is left out: the API server takes no field manager for it.
func fluxNormalize(u *unstructured.Unstructured) error {
	if u.GetAPIVersion() == "rbac.authorization.k8s.io/v1" && (u.GetKind() == "Role" || u.GetKind() == "ClusterRole") {
		return nil
	}
	if typed, err := typing.Scheme.New(u.GroupVersionKind()); err == nil {
		if mo, ok := typed.(metav1.Object); ok {
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, mo); err != nil {
				return fmt.Errorf("%s %s: normalization: %w", u.GetKind(), u.GetName(), err)
			}
			normalizeTyped(mo)
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(mo)
			if err != nil {
				return fmt.Errorf("%s %s: normalization: %w", u.GetKind(), u.GetName(), err)
			}
			u.Object = m
		}
	}
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	if !(u.GetKind() == "CustomResourceDefinition" && strings.HasPrefix(u.GetAPIVersion(), "apiextensions.k8s.io/")) {
		unstructured.RemoveNestedField(u.Object, "status")
	}
	return nil
}

func normalizeTyped(o metav1.Object) {
	switch t := o.(type) {
	case *corev1.Pod:
		podProtocols(&t.Spec)
	case *appsv1.Deployment:
		podProtocols(&t.Spec.Template.Spec)
	case *appsv1.StatefulSet:
		podProtocols(&t.Spec.Template.Spec)
	case *appsv1.DaemonSet:
		podProtocols(&t.Spec.Template.Spec)
	case *appsv1.ReplicaSet:
		podProtocols(&t.Spec.Template.Spec)
	case *batchv1.Job:
		podProtocols(&t.Spec.Template.Spec)
	case *batchv1.CronJob:
		podProtocols(&t.Spec.JobTemplate.Spec.Template.Spec)
	case *corev1.Service:
		for i := range t.Spec.Ports {
			if t.Spec.Ports[i].Protocol == "" {
				t.Spec.Ports[i].Protocol = corev1.ProtocolTCP
			}
		}
	case *corev1.Secret:
		if len(t.StringData) > 0 {
			if t.Data == nil {
				t.Data = make(map[string][]byte, len(t.StringData))
			}
			for k, v := range t.StringData {
				t.Data[k] = []byte(v)
			}
			t.StringData = nil
		}
	}
}

// podProtocols: only the containers' ports, as the controller does (not
// init containers').
func podProtocols(spec *corev1.PodSpec) {
	for _, c := range spec.Containers {
		for i := range c.Ports {
			if c.Ports[i].Protocol == "" {
				c.Ports[i].Protocol = corev1.ProtocolTCP
			}
		}
	}
}

// SopsEncrypted: a core Secret encrypted by SOPS: its top-level sops
// stanza, as the controller tells one; or a value SOPS encrypted, as a
// secretGenerator makes from an encrypted file, which the controller
// decrypts before the build (its DecryptSources).
func SopsEncrypted(obj map[string]any) bool {
	u := unstructured.Unstructured{Object: obj}
	if u.GetKind() != "Secret" || u.GetAPIVersion() != "v1" {
		return false
	}
	if _, found := obj["sops"]; found {
		return true
	}
	for _, f := range []string{"data", "stringData"} {
		m, _, _ := unstructured.NestedMap(obj, f)
		for _, v := range m {
			s, _ := v.(string)
			if f == "data" {
				dec, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					continue
				}
				s = string(dec)
			}
			if sopsValue(s) {
				return true
			}
		}
	}
	return false
}

// sopsValue: text SOPS encrypted (a value of its YAML, JSON or INI files,
// or a dotenv file's MAC line).
func sopsValue(s string) bool {
	return strings.Contains(s, "ENC[AES256_GCM,") || strings.Contains(s, "sops_mac=ENC[")
}

// decryptionDisabled: the object asks the controller to apply it as it
// is, encrypted.
func decryptionDisabled(obj map[string]any) bool {
	u := unstructured.Unstructured{Object: obj}
	return strings.EqualFold(u.GetAnnotations()[fluxDecrypt], "disabled")
}

// secretKeys lists a Secret's keys, never its values.
func secretKeys(obj map[string]any) []string {
	set := map[string]bool{}
	for _, f := range []string{"data", "stringData"} {
		m, _, _ := unstructured.NestedMap(obj, f)
		for k := range m {
			set[k] = true
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// withoutSops is a copy of obj without the stanza SOPS adds, as the
// controller applies it once decrypted.
func withoutSops(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "sops" {
			out[k] = v
		}
	}
	return out
}
