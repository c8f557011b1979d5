package targets_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestGitOpsFixtureHelmRender: render --target of the fixture's Helm
// forms. The HelmRelease releases the chart in this repository with its
// valuesFrom ConfigMap (whole, then one key at a targetPath) under its
// spec.values, carrying Helm's and helm-controller's labels; the Argo CD
// Application releases it under its releaseName with its valueFiles and a
// forceString parameter, carrying its tracking annotation and no Helm
// metadata (`helm template` adds none).
func TestGitOpsFixtureHelmRender(t *testing.T) {
	r := newGitOpsRepo(t)
	byName := map[string]targets.Target{}
	for _, s := range r.list() {
		byName[s.Name] = s
	}

	flux := r.render(byName["HelmRelease/frontend.web"])
	if flux.err != nil {
		t.Fatalf("web/frontend: %v", flux.err)
	}
	dep, ok := flux.byID["Deployment.apps/web/frontend-frontend"]
	if !ok || len(flux.byID) != 3 {
		t.Fatalf("web/frontend: %v, want the release's Deployment, Service and Ingress in web", keysOf(flux.byID))
	}
	if n, _, _ := unstructured.NestedInt64(dep, "spec", "replicas"); n != 2 {
		t.Errorf("replicas %d, want the ConfigMap's 2", n)
	}
	c := containerOf(t, dep)
	if c["image"] != "ghcr.io/example/frontend:2.3.1-rc.1" || c["imagePullPolicy"] != "Always" {
		t.Errorf("image %v %v, want spec.values' tag over the ConfigMap's, and its pullPolicy", c["image"], c["imagePullPolicy"])
	}
	ing := flux.byID["Ingress.networking.k8s.io/web/frontend-frontend"]
	if rules, _, _ := unstructured.NestedSlice(ing, "spec", "rules"); len(rules) != 1 || rules[0].(map[string]any)["host"] != "shop.staging.example.com" {
		t.Errorf("ingress rules %v, want the host set at its targetPath", rules)
	}
	for id, obj := range flux.byID {
		u := unstructured.Unstructured{Object: obj}
		l, a := u.GetLabels(), u.GetAnnotations()
		if l["helm.toolkit.fluxcd.io/name"] != "frontend" || l["helm.toolkit.fluxcd.io/namespace"] != "web" || l["app.kubernetes.io/managed-by"] != "Helm" || a["meta.helm.sh/release-name"] != "frontend" {
			t.Errorf("web/frontend: %s: labels %v annotations %v, want helm-controller's and Helm's", id, l, a)
		}
	}

	argo := r.render(byName["frontend-production"])
	if argo.err != nil {
		t.Fatalf("frontend-production: %v", argo.err)
	}
	dep, ok = argo.byID["Deployment.apps/web/frontend-frontend"]
	if !ok || len(argo.byID) != 3 {
		t.Fatalf("frontend-production: %v, want the release frontend's objects in web", keysOf(argo.byID))
	}
	if n, _, _ := unstructured.NestedInt64(dep, "spec", "replicas"); n != 4 {
		t.Errorf("replicas %d, want values-production.yaml's 4", n)
	}
	if c := containerOf(t, dep); c["image"] != "ghcr.io/example/frontend:2.3.1" {
		t.Errorf("image %v, want the parameter's tag over the values file's", c["image"])
	}
	for id, obj := range argo.byID {
		u := unstructured.Unstructured{Object: obj}
		if _, helm := u.GetLabels()["app.kubernetes.io/managed-by"]; helm || u.GetAnnotations()["argocd.argoproj.io/tracking-id"] == "" {
			t.Errorf("frontend-production: %s: labels %v annotations %v, want Argo CD's tracking and no Helm metadata", id, u.GetLabels(), u.GetAnnotations())
		}
	}
}

func containerOf(t *testing.T, dep map[string]any) map[string]any {
	t.Helper()
	cs, _, _ := unstructured.NestedSlice(dep, "spec", "template", "spec", "containers")
	if len(cs) != 1 {
		t.Fatalf("containers %v", cs)
	}
	return cs[0].(map[string]any)
}
