package kube

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// removedAPI is a built-in API version Kubernetes stops serving: from
// Removed on, an object sent in it is refused, whatever the manifest's
// age. Use is where its objects go ("" when nothing replaces it).
type removedAPI struct {
	Version schema.GroupVersion
	// Kinds are the kinds it stops serving; empty: every kind of Version.
	Kinds   []string
	Removed Release
	Use     string
}

func r(minor int) Release { return Release{Major: 1, Minor: minor} }

// removedAPIs is the table the removal notes are read from, a row per API.
// Up to 1.32 it is Kubernetes' deprecation guide ("Removed APIs by
// release"); from 1.33 on, the release from which the API server stops
// serving a beta version, as k8s.io/api v0.37.2 declares it
// (APILifecycleRemoved: the server's own cut-off, which the guide lists
// once the release is out). Alpha versions, never served unless a cluster
// turns them on, are not listed.
var removedAPIs = []removedAPI{
	{schema.GroupVersion{Group: "extensions", Version: "v1beta1"}, []string{"DaemonSet", "Deployment", "ReplicaSet"}, r(16), "apps/v1"},
	{schema.GroupVersion{Group: "extensions", Version: "v1beta1"}, []string{"NetworkPolicy"}, r(16), "networking.k8s.io/v1"},
	{schema.GroupVersion{Group: "extensions", Version: "v1beta1"}, []string{"PodSecurityPolicy"}, r(16), "policy/v1beta1"},
	{schema.GroupVersion{Group: "apps", Version: "v1beta1"}, nil, r(16), "apps/v1"},
	{schema.GroupVersion{Group: "apps", Version: "v1beta2"}, nil, r(16), "apps/v1"},
	{schema.GroupVersion{Group: "admissionregistration.k8s.io", Version: "v1beta1"}, []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}, r(22), "admissionregistration.k8s.io/v1"},
	{schema.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1beta1"}, nil, r(22), "apiextensions.k8s.io/v1"},
	{schema.GroupVersion{Group: "apiregistration.k8s.io", Version: "v1beta1"}, nil, r(22), "apiregistration.k8s.io/v1"},
	{schema.GroupVersion{Group: "certificates.k8s.io", Version: "v1beta1"}, []string{"CertificateSigningRequest"}, r(22), "certificates.k8s.io/v1"},
	{schema.GroupVersion{Group: "coordination.k8s.io", Version: "v1beta1"}, []string{"Lease"}, r(22), "coordination.k8s.io/v1"},
	{schema.GroupVersion{Group: "extensions", Version: "v1beta1"}, []string{"Ingress"}, r(22), "networking.k8s.io/v1"},
	{schema.GroupVersion{Group: "networking.k8s.io", Version: "v1beta1"}, []string{"Ingress", "IngressClass"}, r(22), "networking.k8s.io/v1"},
	{schema.GroupVersion{Group: "rbac.authorization.k8s.io", Version: "v1beta1"}, nil, r(22), "rbac.authorization.k8s.io/v1"},
	{schema.GroupVersion{Group: "scheduling.k8s.io", Version: "v1beta1"}, nil, r(22), "scheduling.k8s.io/v1"},
	{schema.GroupVersion{Group: "storage.k8s.io", Version: "v1beta1"}, []string{"CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"}, r(22), "storage.k8s.io/v1"},
	{schema.GroupVersion{Group: "batch", Version: "v1beta1"}, []string{"CronJob"}, r(25), "batch/v1"},
	{schema.GroupVersion{Group: "discovery.k8s.io", Version: "v1beta1"}, nil, r(25), "discovery.k8s.io/v1"},
	{schema.GroupVersion{Group: "events.k8s.io", Version: "v1beta1"}, nil, r(25), "events.k8s.io/v1"},
	{schema.GroupVersion{Group: "autoscaling", Version: "v2beta1"}, nil, r(25), "autoscaling/v2"},
	{schema.GroupVersion{Group: "policy", Version: "v1beta1"}, []string{"PodDisruptionBudget"}, r(25), "policy/v1"},
	{schema.GroupVersion{Group: "policy", Version: "v1beta1"}, []string{"PodSecurityPolicy"}, r(25), ""},
	{schema.GroupVersion{Group: "node.k8s.io", Version: "v1beta1"}, nil, r(25), "node.k8s.io/v1"},
	{schema.GroupVersion{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta1"}, nil, r(26), "flowcontrol.apiserver.k8s.io/v1"},
	{schema.GroupVersion{Group: "autoscaling", Version: "v2beta2"}, nil, r(26), "autoscaling/v2"},
	{schema.GroupVersion{Group: "storage.k8s.io", Version: "v1beta1"}, []string{"CSIStorageCapacity"}, r(27), "storage.k8s.io/v1"},
	{schema.GroupVersion{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta2"}, nil, r(29), "flowcontrol.apiserver.k8s.io/v1"},
	{schema.GroupVersion{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta3"}, nil, r(32), "flowcontrol.apiserver.k8s.io/v1"},
	{schema.GroupVersion{Group: "admissionregistration.k8s.io", Version: "v1beta1"}, []string{"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"}, r(34), "admissionregistration.k8s.io/v1"},
	{schema.GroupVersion{Group: "networking.k8s.io", Version: "v1beta1"}, []string{"IPAddress", "ServiceCIDR"}, r(37), "networking.k8s.io/v1"},
	{schema.GroupVersion{Group: "storage.k8s.io", Version: "v1beta1"}, []string{"VolumeAttributesClass"}, r(37), "storage.k8s.io/v1"},
	{schema.GroupVersion{Group: "resource.k8s.io", Version: "v1beta1"}, []string{"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"}, r(38), "resource.k8s.io/v1"},
	{schema.GroupVersion{Group: "resource.k8s.io", Version: "v1beta2"}, []string{"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"}, r(39), "resource.k8s.io/v1"},
	{schema.GroupVersion{Group: "admissionregistration.k8s.io", Version: "v1beta1"}, []string{"MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding"}, r(40), "admissionregistration.k8s.io/v1"},
	{schema.GroupVersion{Group: "certificates.k8s.io", Version: "v1beta1"}, []string{"ClusterTrustBundle", "PodCertificateRequest"}, r(40), "certificates.k8s.io/v1"},
	{schema.GroupVersion{Group: "storagemigration.k8s.io", Version: "v1beta1"}, nil, r(40), "storagemigration.k8s.io/v1"},
}

// removalOf is the row of an object's apiVersion and kind; false when
// Kubernetes serves it for good (or this table does not know it).
func removalOf(gvk schema.GroupVersionKind) (removedAPI, bool) {
	for _, row := range removedAPIs {
		if row.Version == gvk.GroupVersion() && (len(row.Kinds) == 0 || slices.Contains(row.Kinds, gvk.Kind)) {
			return row, true
		}
	}
	return removedAPI{}, false
}

// RemovalNote says which release removes the API version an object is
// sent in, and what to move to: the API server warns only once it
// deprecates a version, and not at all of one it stopped serving. cluster
// is the API server's release (zero: unknown). served tells whether the
// cluster serves the version: a note for a served one names a release
// after the cluster's (the next upgrade when it is the next one); for one
// not served, the release that stopped serving it (or will: a beta
// version a cluster serves only when told to). "" when the version is
// not removed, or the cluster's release is unknown and it is served.
func RemovalNote(gvk schema.GroupVersionKind, cluster Release, served bool) string {
	row, ok := removalOf(gvk)
	if !ok {
		return ""
	}
	what := fmt.Sprintf("%s %s", gvk.GroupVersion(), gvk.Kind)
	if !served {
		use := "nothing replaces it: remove the object from the manifests"
		if row.Use != "" {
			use = "move the manifest to " + row.Use
		}
		if cluster.Known() && cluster.Before(row.Removed) {
			// Not removed yet: a version the cluster was not told to serve.
			return fmt.Sprintf("Kubernetes %s stops serving %s, which the cluster (%s) does not serve already: %s", row.Removed, what, cluster, use)
		}
		return fmt.Sprintf("Kubernetes %s removed %s: %s", row.Removed, what, use)
	}
	if !cluster.Known() || !cluster.Before(row.Removed) {
		// Served past its removal: a cluster that turned it back on, or
		// a table wrong about it; either way there is nothing to predict.
		return ""
	}
	when := "Kubernetes " + row.Removed.String()
	if (Release{Major: cluster.Major, Minor: cluster.Minor + 1}) == row.Removed {
		when = "the next upgrade, to Kubernetes " + row.Removed.String() + ","
	}
	use := "nothing replaces it: remove the object before that upgrade"
	if row.Use != "" {
		use = "move the manifest to " + row.Use + " before that upgrade"
	}
	return fmt.Sprintf("%s stops serving %s (the cluster runs %s): %s", when, what, cluster, use)
}
