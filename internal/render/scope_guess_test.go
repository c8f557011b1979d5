package render

import (
	"github.com/ownership-check/ownership-check/internal/render/source"

	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Without a cluster, a custom kind's scope comes from the resolver (what
// the snapshot knows), then a CRD in the render; a custom kind none of
// them knows is taken as namespaced, and its objects say it was guessed.
// Kubernetes' own kinds are never guesses.
func TestScopeGuessed(t *testing.T) {
	crd := source.RawObject{Obj: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"spec": map[string]any{"group": "example.com", "scope": "Cluster", "names": map[string]any{"kind": "Widget"}},
	}}
	runtimes := schema.GroupVersionKind{Group: "trainer.kubeflow.org", Version: "v1alpha1", Kind: "ClusterTrainingRuntime"}
	for _, c := range []struct {
		name                string
		resolver            ScopeResolver
		gvk                 schema.GroupVersionKind
		namespaced, guessed bool
	}{
		{"built-in namespaced", nil, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, true, false},
		{"built-in core", nil, schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, true, false},
		{"built-in cluster-scoped", nil, schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, false, false},
		{"CRD in the render", nil, schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, false, false},
		{"unknown custom kind", nil, runtimes, true, true},
		{"known to the snapshot", KnownScopes{runtimes.GroupKind(): false}, runtimes, false, false},
		{"snapshot knows others only", KnownScopes{{Group: "x.io", Kind: "Y"}: false}, runtimes, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ns, guessed, err := newScopes(c.resolver, []source.RawObject{crd}).namespaced(c.gvk)
			if err != nil || ns != c.namespaced || guessed != c.guessed {
				t.Errorf("namespaced, guessed = %t, %t, %v; want %t, %t", ns, guessed, err, c.namespaced, c.guessed)
			}
		})
	}
}

func TestRenderNotesGuessedScope(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "rt.yaml", "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: torch}\nspec: {}\n")
	objs, err := Render(context.Background(), []string{"rt.yaml"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := objs[0].ID.String(); got != "ClusterTrainingRuntime.trainer.kubeflow.org/default/torch" {
		t.Errorf("guessed identity %s", got)
	}
	if len(objs[0].Notes) != 1 || !strings.Contains(objs[0].Notes[0], "scope guessed") ||
		!strings.Contains(objs[0].Notes[0], "ClusterTrainingRuntime.trainer.kubeflow.org") {
		t.Errorf("notes %q, want the guessed scope named", objs[0].Notes)
	}
	var out strings.Builder
	if err := Encode(&out, objs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "# Note: scope guessed") {
		t.Errorf("render output does not say the scope was guessed:\n%s", out.String())
	}

	known := KnownScopes{{Group: "trainer.kubeflow.org", Kind: "ClusterTrainingRuntime"}: false}
	objs, err = Render(context.Background(), []string{"rt.yaml"}, Options{Scope: known})
	if err != nil {
		t.Fatal(err)
	}
	if got := objs[0].ID.String(); got != "ClusterTrainingRuntime.trainer.kubeflow.org/torch" || len(objs[0].Notes) != 0 {
		t.Errorf("known scope: %s, notes %q", got, objs[0].Notes)
	}
}
