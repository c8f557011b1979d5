package check_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestResolveApplyAgainstAPIServer: Helm 4's and helm-controller's method
// is decided from the release's objects as the API server recorded their
// writes: Update entries by the deploy's manager (Helm 3's client-side
// writes) upgrade client-side, an Apply entry server-side, none is an
// install; an older helm-controller upgrades client-side whatever they
// say.
func TestResolveApplyAgainstAPIServer(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	const ns = "i47-resolve"
	write := func(u *unstructured.Unstructured, manager string, apply bool) {
		t.Helper()
		r, err := client.Resource(u.GroupVersionKind(), u.GetNamespace())
		if err != nil {
			t.Fatal(err)
		}
		if apply {
			_, err = r.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: manager, Force: true})
		} else {
			_, err = r.Create(ctx, u, metav1.CreateOptions{FieldManager: manager})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	object := func(kind, namespace, name string, more map[string]any) *unstructured.Unstructured {
		apiVersion := "v1"
		if kind == "Deployment" {
			apiVersion = "apps/v1"
		}
		o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name, "namespace": namespace}}
		for k, v := range more {
			o[k] = v
		}
		return &unstructured.Unstructured{Object: o}
	}
	rendered := func(names ...string) []model.Object {
		var out []model.Object
		for _, n := range names {
			u := object("ConfigMap", ns, n, map[string]any{"data": map[string]any{"k": "v"}})
			out = append(out, model.Object{ID: model.IDOf(u), Object: u})
		}
		return out
	}
	write(object("Namespace", "", ns, nil), "", false)
	write(rendered("helm3")[0].Object, "helm", false)
	write(rendered("helm4")[0].Object, "helm", true)
	write(rendered("flux")[0].Object, "helm-controller", true)

	helm := delivery.ApplyMethod{Method: delivery.ApplyServerSide, Resolve: delivery.ResolveHelm}
	for _, c := range []struct {
		name  string
		objs  []model.Object
		want  delivery.ApplyMethod
		words string
	}{
		// Helm merges client-side managers per release: not once the
		// release was applied server-side (ReleaseServerSide).
		{"helm 3 release", rendered("helm3", "new"), delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest, PerRelease: true}, "Update entries by helm"},
		{"helm 4 release", rendered("helm4", "helm3"), delivery.ApplyMethod{Method: delivery.ApplyServerSide, PerRelease: true, ReleaseServerSide: true}, "an Apply entry by helm"},
		{"install", rendered("new", "newer"), delivery.ApplyMethod{Method: delivery.ApplyServerSide, PerRelease: true}, "installs"},
	} {
		got, err := check.ResolveApply(ctx, client, check.Target{FieldManager: "helm", Apply: helm}, c.objs)
		if err != nil {
			t.Fatal(err)
		}
		why := got.Why
		got.Why, got.Resolve = "", ""
		if got != c.want || !strings.Contains(why, c.words) {
			t.Errorf("%s: %+v (%s), want %+v (%s)", c.name, got, why, c.want, c.words)
		}
	}

	// Without Flux in the cluster, the objects decide.
	hc := check.Target{FieldManager: "helm-controller", Apply: delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true, Resolve: delivery.ResolveHelmController}}
	got, err := check.ResolveApply(ctx, client, hc, rendered("flux"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Method != delivery.ApplyServerSide || !got.Force || got.ControllerVersion != "" {
		t.Errorf("helm-controller, no Flux: %+v, want server-side forced", got)
	}
	// An older helm-controller (Helm 3) upgrades client-side.
	write(object("Namespace", "", "flux-system", nil), "", false)
	write(object("Deployment", "flux-system", "helm-controller", map[string]any{"spec": map[string]any{
		"selector": map[string]any{"matchLabels": map[string]any{"app": "helm-controller"}},
		"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "helm-controller"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "manager", "image": "ghcr.io/fluxcd/helm-controller:v1.4.3"}}}},
	}}), "", false)
	got, err = check.ResolveApply(ctx, client, hc, rendered("flux"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Method != delivery.ApplyClientSide || got.ControllerVersion != "v1.4.3" || !strings.Contains(got.Why, "v1.4.3") {
		t.Errorf("helm-controller v1.4.3: %+v, want client-side, naming the version", got)
	}
}
