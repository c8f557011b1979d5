package deployer

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// fluxSourceCRD is a minimal CustomResourceDefinition of a Flux source
// kind: any content, and no status subresource, so that a test writes
// the status source-controller would.
func fluxSourceCRD(kind, plural string) map[string]any {
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + ".source.toolkit.fluxcd.io"},
		"spec": map[string]any{
			"group": "source.toolkit.fluxcd.io", "scope": "Namespaced",
			"names": map[string]any{"kind": kind, "plural": plural, "singular": strings.ToLower(kind), "listKind": kind + "List"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
		},
	}
}

// clusterChartNote is the note a check makes of the chart the cluster's
// Flux source object holds, read through client.
func clusterChartNote(ctx context.Context, client *kube.Client, d *delivery.Deployer, pins []delivery.ChartPin, names string) string {
	ref, ok := ChartSourceOf(d)
	if !ok {
		return ""
	}
	return ReadChartArtifact(ctx, client, ref).Note(pins, names)
}

// TestClusterChartNoteAgainstAPIServer: with the cluster reachable, the
// chart the HelmRelease's Flux source object holds (.status.artifact) is
// read, and a note names it when the base names another; a cluster
// without Flux's kinds, without the object, or that forbids reading it
// gives no note and no failure.
func TestClusterChartNoteAgainstAPIServer(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	const ns = "s45-charts"
	oci := &delivery.Deployer{Controller: delivery.ControllerFlux,
		Object: map[string]any{"metadata": map[string]any{"name": "podinfo", "namespace": ns}},
		Charts: []delivery.ChartRef{{Kind: delivery.ChartInFluxSource, Source: &delivery.ObjectRef{Kind: "OCIRepository", Namespace: ns, Name: "podinfo"}}}}
	helmRepo := &delivery.Deployer{Controller: delivery.ControllerFlux,
		Object: map[string]any{"metadata": map[string]any{"name": "podinfo", "namespace": ns}},
		Charts: []delivery.ChartRef{{Kind: delivery.ChartInHelmRepository, Chart: "podinfo", Source: &delivery.ObjectRef{Kind: "HelmRepository", Namespace: ns, Name: "podinfo"}}}}
	base := []delivery.ChartPin{{Name: "podinfo", Version: "6.7.1", Digest: "sha256:" + strings.Repeat("b", 64)}}

	// No Flux in the cluster: its kinds are not served.
	if n := clusterChartNote(ctx, client, oci, base, "the base names"); n != "" {
		t.Errorf("without Flux's kinds: note %q", n)
	}

	create := func(gvk schema.GroupVersionKind, namespace string, obj map[string]any) {
		t.Helper()
		r, err := client.Resource(gvk, namespace)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	crd := schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}
	create(crd, "", fluxSourceCRD("OCIRepository", "ocirepositories"))
	create(crd, "", fluxSourceCRD("HelmChart", "helmcharts"))
	create(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, "", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
	for _, kind := range []string{"OCIRepository", "HelmChart"} {
		for {
			client.ResetDiscovery()
			if _, err := client.Mapping(schema.GroupVersionKind{Group: "source.toolkit.fluxcd.io", Version: "v1", Kind: kind}); err == nil {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s never served: %v", kind, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	}

	// Flux, but not the object yet.
	if n := clusterChartNote(ctx, client, oci, base, "the base names"); n != "" {
		t.Errorf("no such OCIRepository: note %q", n)
	}

	source := func(kind, name string, artifact map[string]any) map[string]any {
		return map[string]any{"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": kind,
			"metadata": map[string]any{"name": name, "namespace": ns}, "spec": map[string]any{}, "status": map[string]any{"artifact": artifact}}
	}
	running := "sha256:" + strings.Repeat("a", 64)
	create(schema.GroupVersionKind{Group: "source.toolkit.fluxcd.io", Version: "v1", Kind: "OCIRepository"}, ns,
		source("OCIRepository", "podinfo", map[string]any{"revision": "6.7.0@" + running, "digest": "sha256:" + strings.Repeat("c", 64)}))
	// helm-controller's HelmChart for a HelmRepository's chart:
	// <namespace>-<name> of the HelmRelease, in the source's namespace.
	create(schema.GroupVersionKind{Group: "source.toolkit.fluxcd.io", Version: "v1", Kind: "HelmChart"}, ns,
		source("HelmChart", ns+"-podinfo", map[string]any{"revision": "6.7.1", "digest": base[0].Digest}))

	want := "the cluster runs podinfo 6.7.0@sha256:aaaaaaaaaaaa (OCIRepository " + ns + "/podinfo's artifact), the base names podinfo 6.7.1@sha256:bbbbbbbbbbbb"
	if n := clusterChartNote(ctx, client, oci, base, "the base names"); !strings.HasPrefix(n, want) {
		t.Errorf("note %q, want it to start %q", n, want)
	}
	if n := clusterChartNote(ctx, client, helmRepo, base, "the base names"); n != "" {
		t.Errorf("the HelmChart holds what the base names: note %q", n)
	}

	// Forbidden: an identity that may not read Flux's objects.
	cfg, err := cluster.ServiceAccountConfig(ctx, ns, "no-flux")
	if err != nil {
		t.Fatal(err)
	}
	forbidden, err := kube.New(cfg, ns, 4)
	if err != nil {
		t.Fatal(err)
	}
	if n := clusterChartNote(ctx, forbidden, oci, base, "the base names"); n != "" {
		t.Errorf("forbidden: note %q", n)
	}
}
