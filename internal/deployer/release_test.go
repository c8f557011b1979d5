package deployer

import (
	"context"
	"maps"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestReleaseOf: what helm-controller writes in a HelmRelease's status
// is read as the release it applied: the v2 API's newest history entry,
// v2beta1's lastAppliedRevision; nothing for a release not made yet.
func TestReleaseOf(t *testing.T) {
	v2 := map[string]any{"status": map[string]any{
		"lastAttemptedRevision": "6.6.0",
		"history": []any{
			map[string]any{"chartName": "podinfo", "chartVersion": "6.5.4", "appVersion": "6.5.4", "configDigest": "sha256:c0ffee",
				"digest": "sha256:d1", "status": "deployed", "version": float64(3)},
			map[string]any{"chartName": "podinfo", "chartVersion": "6.5.3", "status": "superseded", "version": float64(2)},
		}}}
	got := releaseOf("web/podinfo", v2)
	want := delivery.AppliedRelease{HelmRelease: "web/podinfo", ChartName: "podinfo", ChartVersion: "6.5.4", AppVersion: "6.5.4", ConfigDigest: "sha256:c0ffee",
		Digest: "sha256:d1", Status: "deployed", Version: 3, LastAttemptedRevision: "6.6.0"}
	if got == nil || *got != want {
		t.Errorf("v2 status: %+v; want %+v", got, want)
	}
	beta := map[string]any{"status": map[string]any{"lastAppliedRevision": "1.2.0", "lastAttemptedRevision": "1.2.0"}}
	if got := releaseOf("web/old", beta); got == nil || got.ChartVersion != "1.2.0" {
		t.Errorf("v2beta1 status: %+v; want chart version 1.2.0", got)
	}
	if got := releaseOf("web/new", map[string]any{"status": map[string]any{"lastAttemptedRevision": "1.0.0"}}); got != nil {
		t.Errorf("a release that never succeeded: %+v; want none", got)
	}
}

// TestReadRelease: on the API server, with helm-controller's CRD
// installed, the HelmRelease's status is read with a GET; a HelmRelease
// the cluster does not have is none.
func TestReadRelease(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx := context.Background()
	c, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	crd := obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "helmreleases.helm.toolkit.fluxcd.io", map[string]any{
		"spec": map[string]any{"group": "helm.toolkit.fluxcd.io", "scope": "Namespaced",
			"names": map[string]any{"plural": "helmreleases", "singular": "helmrelease", "kind": "HelmRelease", "listKind": "HelmReleaseList"},
			"versions": []any{map[string]any{"name": "v2", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}})
	ri, err := c.Resource(crd.GroupVersionKind(), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ri.Apply(ctx, crd.GetName(), crd, metav1.ApplyOptions{FieldManager: "platform", Force: true}); err != nil {
		t.Fatal(err)
	}
	ns := obj("v1", "Namespace", "", "releases", nil)
	nri, err := c.Resource(ns.GroupVersionKind(), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nri.Apply(ctx, "releases", ns, metav1.ApplyOptions{FieldManager: "platform", Force: true}); err != nil {
		t.Fatal(err)
	}
	hr := obj("helm.toolkit.fluxcd.io/v2", "HelmRelease", "releases", "podinfo", map[string]any{
		"spec": map[string]any{"chart": map[string]any{"spec": map[string]any{"chart": "podinfo", "version": "6.x"}}},
		"status": map[string]any{"history": []any{map[string]any{"chartName": "podinfo", "chartVersion": "6.5.4",
			"configDigest": "sha256:c0ffee", "status": "deployed", "version": int64(1)}}}})
	// A CRD is served a moment after it is created: a client of its own
	// each time, whose discovery is read anew.
	deadline := time.Now().Add(20 * time.Second)
	for {
		fresh, err := kube.New(cluster.Config(), "default", 4)
		if err != nil {
			t.Fatal(err)
		}
		hri, err := fresh.Resource(hr.GroupVersionKind(), "releases")
		if err == nil {
			_, err = hri.Apply(ctx, "podinfo", hr, metav1.ApplyOptions{FieldManager: "helm-controller", Force: true})
		}
		if err == nil {
			c = fresh
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	got, err := ReadRelease(ctx, c, "releases", "podinfo")
	if err != nil || got == nil || got.ChartVersion != "6.5.4" || got.ConfigDigest != "sha256:c0ffee" || got.Version != 1 || got.HelmRelease != "releases/podinfo" {
		t.Errorf("ReadRelease: %+v, %v; want chart 6.5.4, its values' digest and release 1", got, err)
	}
	if got, err := ReadRelease(ctx, c, "releases", "absent"); got != nil || err != nil {
		t.Errorf("ReadRelease of an absent HelmRelease: %+v, %v; want none", got, err)
	}
}

// obj is an object of the test API server's, with extra top-level fields.
func obj(apiVersion, kind, ns, name string, extra map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind}}
	u.SetName(name)
	u.SetNamespace(ns)
	maps.Copy(u.Object, extra)
	return u
}
