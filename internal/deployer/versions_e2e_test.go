package deployer

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestControllerVersionsAgainstAPIServer: helm-controller's and Argo CD's
// repo server's versions are their Deployments' image tags, Argo CD's in
// the namespace it runs in; "" where there is none.
func TestControllerVersionsAgainstAPIServer(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	if v := HelmControllerVersion(ctx, client); v != "" {
		t.Errorf("no Flux: %q", v)
	}
	if v := ArgoCDVersion(ctx, client, ""); v != "" {
		t.Errorf("no Argo CD: %q", v)
	}
	apply := func(gvk schema.GroupVersionKind, namespace string, obj map[string]any) {
		t.Helper()
		r, err := client.Resource(gvk, namespace)
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: obj}
		if _, err := r.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "install", Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	deployment := func(namespace, name string, containers ...map[string]any) {
		apply(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, "", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": namespace}})
		var cs []any
		for _, c := range containers {
			cs = append(cs, c)
		}
		apply(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, namespace, map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": name, "namespace": namespace},
			"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": name}}, "spec": map[string]any{"containers": cs}}}})
	}
	deployment("flux-system", "helm-controller", map[string]any{"name": "manager", "image": "ghcr.io/fluxcd/helm-controller:v1.6.3"})
	deployment("argo", "argocd-repo-server",
		map[string]any{"name": "copyutil", "image": "busybox:1.36"},
		map[string]any{"name": "argocd-repo-server", "image": "quay.io/argoproj/argocd:v3.5.1"})
	if v := HelmControllerVersion(ctx, client); v != "v1.6.3" {
		t.Errorf("helm-controller: %q, want v1.6.3", v)
	}
	if v := ArgoCDVersion(ctx, client, "argo"); v != "v3.5.1" {
		t.Errorf("Argo CD in argo: %q, want v3.5.1 (its repo server's, not a sidecar's)", v)
	}
	if v := ArgoCDVersion(ctx, client, ""); v != "" {
		t.Errorf("Argo CD in argocd, where it does not run: %q", v)
	}
}
