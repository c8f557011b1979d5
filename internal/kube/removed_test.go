package kube

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestRemovalNote: the release that removes an object's API version and
// what to move to, said against the cluster's release: the next upgrade
// named as such, a later one by number, one already past for a version the
// cluster does not serve; nothing for a version served for good, or
// served while the cluster's release is unknown.
func TestRemovalNote(t *testing.T) {
	gvk := func(gv, kind string) schema.GroupVersionKind {
		g, err := schema.ParseGroupVersion(gv)
		if err != nil {
			t.Fatal(err)
		}
		return g.WithKind(kind)
	}
	for _, tc := range []struct {
		gvk     schema.GroupVersionKind
		cluster Release
		served  bool
		want    string
	}{
		{gvk("resource.k8s.io/v1beta1", "DeviceClass"), r(37), true,
			"the next upgrade, to Kubernetes 1.38, stops serving resource.k8s.io/v1beta1 DeviceClass (the cluster runs 1.37): move the manifest to resource.k8s.io/v1 before that upgrade"},
		{gvk("resource.k8s.io/v1beta1", "DeviceClass"), r(33), true,
			"Kubernetes 1.38 stops serving resource.k8s.io/v1beta1 DeviceClass (the cluster runs 1.33): move the manifest to resource.k8s.io/v1 before that upgrade"},
		{gvk("admissionregistration.k8s.io/v1beta1", "ValidatingAdmissionPolicy"), r(33), true,
			"the next upgrade, to Kubernetes 1.34, stops serving admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy (the cluster runs 1.33): move the manifest to admissionregistration.k8s.io/v1 before that upgrade"},
		{gvk("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"), r(33), false,
			"Kubernetes 1.32 removed flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema: move the manifest to flowcontrol.apiserver.k8s.io/v1"},
		{gvk("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"), Release{}, false,
			"Kubernetes 1.32 removed flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema: move the manifest to flowcontrol.apiserver.k8s.io/v1"},
		{gvk("policy/v1beta1", "PodSecurityPolicy"), r(24), true,
			"the next upgrade, to Kubernetes 1.25, stops serving policy/v1beta1 PodSecurityPolicy (the cluster runs 1.24): nothing replaces it: remove the object before that upgrade"},
		{gvk("resource.k8s.io/v1beta1", "ResourceClaim"), r(33), false,
			"Kubernetes 1.38 stops serving resource.k8s.io/v1beta1 ResourceClaim, which the cluster (1.33) does not serve already: move the manifest to resource.k8s.io/v1"},
		{gvk("apps/v1beta2", "Deployment"), r(33), false,
			"Kubernetes 1.16 removed apps/v1beta2 Deployment: move the manifest to apps/v1"},
		// The same version's other kinds are not removed with these.
		{gvk("admissionregistration.k8s.io/v1beta1", "MutatingAdmissionPolicy"), r(37), true,
			"Kubernetes 1.40 stops serving admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy (the cluster runs 1.37): move the manifest to admissionregistration.k8s.io/v1 before that upgrade"},
		{gvk("resource.k8s.io/v1beta1", "DeviceClass"), Release{}, true, ""},
		{gvk("resource.k8s.io/v1beta1", "DeviceClass"), r(38), true, ""},
		{gvk("apps/v1", "Deployment"), r(33), true, ""},
		{gvk("resource.k8s.io/v1beta1", "Gizmo"), r(33), true, ""},
	} {
		if got := RemovalNote(tc.gvk, tc.cluster, tc.served); got != tc.want {
			t.Errorf("%s on %s (served %v):\n got %q\nwant %q", tc.gvk, tc.cluster, tc.served, got, tc.want)
		}
	}
}

// TestRemovedAPIsOneRowPerAPI: a kind of a version is in one row only, so
// that no note depends on the table's order.
func TestRemovedAPIsOneRowPerAPI(t *testing.T) {
	seen := map[string]bool{}
	for _, row := range removedAPIs {
		kinds := row.Kinds
		if len(kinds) == 0 {
			kinds = []string{"*"}
		}
		for _, k := range kinds {
			for _, key := range []string{row.Version.String() + " " + k, row.Version.String() + " *"} {
				if seen[key] {
					t.Errorf("%s %s: in two rows", row.Version, k)
				}
			}
			seen[row.Version.String()+" "+k] = true
		}
		if !row.Removed.Known() {
			t.Errorf("%s: no release", row.Version)
		}
	}
}
