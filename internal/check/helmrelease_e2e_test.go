package check_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestAppliedReleaseAgainstAPIServer: a snapshot of a Flux HelmRelease
// target records the chart version and values digest its status says
// helm-controller applied; one the cluster lacks records none, with a
// warning naming it; a Kustomization records none and says nothing.
func TestAppliedReleaseAgainstAPIServer(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	const ns = "s46-releases"
	deployer := func(kind, name string) *delivery.Deployer {
		return &delivery.Deployer{Controller: delivery.ControllerFlux, File: "clusters/prod/" + name + ".yaml",
			Object: map[string]any{"kind": kind, "metadata": map[string]any{"name": name, "namespace": ns}}}
	}
	if r, err := check.AppliedRelease(ctx, client, deployer("Kustomization", "apps")); r != nil || err != nil {
		t.Errorf("a Kustomization: %+v, %v; want nothing", r, err)
	}

	apply := func(gvk schema.GroupVersionKind, namespace string, obj map[string]any) {
		t.Helper()
		r, err := client.Resource(gvk, namespace)
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: obj}
		if _, err := r.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "platform", Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	crd := map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "helmreleases.helm.toolkit.fluxcd.io"},
		"spec": map[string]any{"group": "helm.toolkit.fluxcd.io", "scope": "Namespaced",
			"names": map[string]any{"kind": "HelmRelease", "plural": "helmreleases", "singular": "helmrelease", "listKind": "HelmReleaseList"},
			"versions": []any{map[string]any{"name": "v2", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}}
	apply(schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}, "", crd)
	apply(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, "", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
	hr := schema.GroupVersionKind{Group: "helm.toolkit.fluxcd.io", Version: "v2", Kind: "HelmRelease"}
	for {
		client.ResetDiscovery()
		if _, err := client.Mapping(hr); err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("HelmRelease never served")
		}
		time.Sleep(100 * time.Millisecond)
	}
	apply(hr, ns, map[string]any{"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease", "metadata": map[string]any{"name": "podinfo", "namespace": ns},
		"spec":   map[string]any{"chart": map[string]any{"spec": map[string]any{"chart": "podinfo", "version": "6.x"}}},
		"status": map[string]any{"history": []any{map[string]any{"chartName": "podinfo", "chartVersion": "6.5.4", "configDigest": "sha256:c0ffee", "status": "deployed", "version": int64(2)}}}})

	r, err := check.AppliedRelease(ctx, client, deployer("HelmRelease", "podinfo"))
	if err != nil || r == nil || r.ChartVersion != "6.5.4" || r.ConfigDigest != "sha256:c0ffee" || r.Version != 2 {
		t.Errorf("the HelmRelease's release: %+v, %v; want chart 6.5.4 and its values' digest", r, err)
	}
	r, err = check.AppliedRelease(ctx, client, deployer("HelmRelease", "absent"))
	if r != nil || err == nil || !strings.Contains(err.Error(), "clusters/prod/absent.yaml: HelmRelease s46-releases/absent has released nothing") {
		t.Errorf("an absent HelmRelease: %+v, %v; want a warning naming it", r, err)
	}
}
