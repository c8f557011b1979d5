package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

func helmReleaseDoc(name, extra string) string {
	return "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: " + name + "\n" + extra + "spec:\n  chart: {spec: {chart: web, sourceRef: {kind: HelmRepository, name: charts, namespace: flux-system}}}\n"
}

// TestNotTargetsListed: what a Kustomization's render would apply and
// does not make is listed under it, once, with why, naming it: an object
// its render leaves out (kustomize-controller applies no object marked
// reconcile: disabled), everything under the path of one that is
// suspended; never a file its render does not read, nor an object that
// is the target of a render below it.
func TestNotTargetsListed(t *testing.T) {
	ks := func(name, path, extra string) string {
		return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: " + name + ", namespace: flux-system}\nspec:\n  path: " + path + "\n  sourceRef: {kind: GitRepository, name: flux-system}\n" + extra
	}
	repo := writeRepo(t, map[string]string{
		"clusters/c/apps.yaml":            ks("apps", "./apps", ""),
		"clusters/c/paused.yaml":          ks("paused", "./paused", "  suspend: true\n"),
		"apps/kustomization.yaml":         "resources: [web/ks.yaml, off.yaml]\n",
		"apps/off.yaml":                   helmReleaseDoc("legacy", "  annotations: {kustomize.toolkit.fluxcd.io/reconcile: disabled}\n"),
		"apps/unused.yaml":                helmReleaseDoc("unused", ""),
		"apps/web/ks.yaml":                ks("web", "./apps/web/app", "  targetNamespace: web\n"),
		"apps/web/app/kustomization.yaml": "resources: [helmrelease.yaml]\n",
		"apps/web/app/helmrelease.yaml":   helmReleaseDoc("web", ""),
		"paused/helmrelease.yaml":         helmReleaseDoc("db", "  namespace: data\n"),
	})
	repo.RenderParent = renderParent
	got, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	under := map[string][]NotTarget{}
	var names []string
	for _, g := range got {
		names = append(names, g.Name)
		under[g.Name] = g.NotTargets
	}
	if want := "HelmRelease/web.web flux-system/apps flux-system/paused flux-system/web"; strings.Join(names, " ") != want {
		t.Errorf("targets %v, want %s", names, want)
	}
	if n := under["flux-system/apps"]; len(n) != 1 || n[0].Name != "legacy" || n[0].File != "apps/off.yaml" ||
		!strings.Contains(n[0].Reason, "what renders of Kustomization flux-system/apps, which would apply it, leaves it out") || !strings.Contains(n[0].Reason, "reconcile: disabled") {
		t.Errorf("under flux-system/apps: %+v", n)
	}
	if n := under["flux-system/paused"]; len(n) != 1 || n[0].Kind != "HelmRelease" || n[0].Name != "data/db" ||
		n[0].Reason != "not a target of its own: Kustomization flux-system/paused, which would apply it, is not checked: suspended" {
		t.Errorf("under flux-system/paused: %+v", n)
	}
	if n := under["flux-system/web"]; len(n) != 0 {
		t.Errorf("under flux-system/web: %+v", n)
	}

	// Without a renderer, nothing under the apps path is a target: each
	// object there is listed under it, saying so.
	repo.RenderParent = nil
	got, err = Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		if g.Name != "flux-system/apps" {
			continue
		}
		var files []string
		for _, n := range g.NotTargets {
			files = append(files, n.File)
			if !strings.Contains(n.Reason, "is not rendered for discovery here") {
				t.Errorf("%+v", n)
			}
		}
		if want := "apps/off.yaml apps/unused.yaml apps/web/app/helmrelease.yaml apps/web/ks.yaml"; strings.Join(files, " ") != want {
			t.Errorf("under flux-system/apps without a renderer: %v, want %s", files, want)
		}
	}
}

// TestNotTargetsOfAnAppOfApps: an app-of-apps whose chart does not
// render lists the Applications its templates would make under it, by
// template, with the render's failure.
func TestNotTargetsOfAnAppOfApps(t *testing.T) {
	app := func(name, path string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  source: {repoURL: https://github.com/example/platform.git, path: " + path + "}\n  destination: {server: https://kubernetes.default.svc}\n"
	}
	repo := writeRepo(t, map[string]string{
		"argocd/root.yaml":         app("root", "apps"),
		"apps/Chart.yaml":          "apiVersion: v2\nname: apps\nversion: 1.0.0\n",
		"apps/templates/web.yaml":  "{{ fail \"no cluster given\" }}\n" + app("web", "web"),
		"apps/templates/note.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: note}\n",
	})
	repo.RenderParent = renderParent
	got, err := Discover(context.Background(), repo, []config.Discover{{ArgoCD: "argocd", Clusters: map[string]string{"https://kubernetes.default.svc": "c"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "root" {
		t.Fatalf("targets %+v, want root alone", got)
	}
	if n := got[0].NotTargets; len(n) != 1 || n[0].Kind != "Application" || n[0].Name != "" || n[0].File != "apps/templates/web.yaml" ||
		!strings.Contains(n[0].Reason, "Application root, which would apply it, does not render") || !strings.Contains(n[0].Reason, "no cluster given") {
		t.Errorf("under root: %+v", n)
	}
}
