package render

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func requireCluster(t *testing.T) {
	t.Helper()
	testcluster.Require(t, cluster)
}

// TestBuiltinScopesMatchAPIServer checks the built-in list against a real
// kube-apiserver (v1.33, and v1.37 in make test's second run): every
// cluster-scoped kind it serves is in the list, and no kind in the list is
// namespaced there.
func TestBuiltinScopesMatchAPIServer(t *testing.T) {
	requireCluster(t)
	c, err := kube.New(cluster.Config(), "", 1)
	if err != nil {
		t.Fatal(err)
	}
	lists, err := c.Discovery.ServerPreferredResources()
	if err != nil {
		t.Fatal(err)
	}
	// Other tests of this package install CRDs; their kinds are not the
	// API server's own.
	crds, err := c.Dynamic.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	custom := map[string]bool{}
	for _, crd := range crds.Items {
		g, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
		custom[g] = true
	}
	served := map[schema.GroupKind]bool{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		if custom[gv.Group] {
			continue
		}
		for _, r := range l.APIResources {
			gk := schema.GroupKind{Group: gv.Group, Kind: r.Kind}
			served[gk] = r.Namespaced
			if !r.Namespaced && !clusterScoped[gk] {
				t.Errorf("%s is cluster-scoped on the API server but not in the built-in list", gk)
			}
		}
	}
	for gk := range clusterScoped {
		if namespaced, ok := served[gk]; ok && namespaced {
			t.Errorf("%s is namespaced on the API server but in the built-in list", gk)
		}
	}
}

// TestRenderWithDiscovery uses the API server as the scope resolver: kinds
// it does not serve (Widget, whose CRD is only in the render) fall back.
func TestRenderWithDiscovery(t *testing.T) {
	requireCluster(t)
	inRepoRoot(t)
	c, err := kube.New(cluster.Config(), "", 1)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Render(context.Background(), []string{"testdata/render/plain", "testdata/render/single.yaml"}, Options{Namespace: "team", Scope: c})
	if err != nil {
		t.Fatal(err)
	}
	find(t, objs, "Widget.example.com/blue")
	find(t, objs, "ConfigMap/team/api-limits")
	find(t, objs, "Namespace/tools")
	find(t, objs, "ClusterRoleBinding.rbac.authorization.k8s.io/api-reader")
}
