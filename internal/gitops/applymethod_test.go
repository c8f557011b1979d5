package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// applyRepo has an Application for each sync method, a Kustomization,
// and a HelmRelease for each spec.upgrade.serverSideApply.
func applyRepo(t *testing.T) Repository {
	app := func(name, opts string) string {
		return "---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n" +
			"  source: {repoURL: https://github.com/example/platform, path: apps/web}\n  destination: {name: hub}\n" + opts
	}
	hr := func(name, spec string) string {
		return "---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + name + ", namespace: web}\nspec:\n" +
			"  chart:\n    spec:\n      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n" + spec
	}
	return writeRepo(t, map[string]string{
		"argocd/apps.yaml": app("default", "") +
			app("ssa", "  syncPolicy: {syncOptions: [ServerSideApply=true]}\n") +
			app("replace", "  syncPolicy: {syncOptions: [ServerSideApply=true, Replace=true]}\n"),
		"clusters/c/apps.yaml": "---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: apps, namespace: flux-system}\n" +
			"spec: {path: ./apps/web, sourceRef: {kind: GitRepository, name: flux-system}}\n" +
			hr("auto", "") +
			hr("enabled", "  upgrade: {serverSideApply: enabled}\n") +
			hr("disabled", "  upgrade: {serverSideApply: disabled}\n") +
			hr("csa-install", "  install: {serverSideApply: false}\n"),
		"apps/web/cm.yaml":      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n",
		"charts/web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 1.0.0\n",
	})
}

// TestDiscoverApplyMethods: each target's method is what its controller
// does with its object's settings, and says why.
func TestDiscoverApplyMethods(t *testing.T) {
	got, err := Discover(context.Background(), applyRepo(t), []config.Discover{
		{ArgoCD: "argocd", Clusters: map[string]string{"hub": "hub"}},
		{Flux: "clusters/c", Context: "c"},
	})
	if err != nil {
		t.Fatal(err)
	}
	type method struct {
		m   delivery.ApplyMethod
		why string
	}
	want := map[string]method{
		"default":                     {delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}, "Argo CD's default sync"},
		"ssa":                         {delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true}, "ServerSideApply=true"},
		"replace":                     {delivery.ApplyMethod{Method: delivery.ApplyReplace}, "Replace=true"},
		"flux-system/apps":            {delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true}, "kustomize-controller"},
		"HelmRelease/auto.web":        {delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true, Resolve: delivery.ResolveHelmController}, "auto (its default)"},
		"HelmRelease/enabled.web":     {delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true}, "serverSideApply: enabled"},
		"HelmRelease/disabled.web":    {delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest}, "serverSideApply: disabled"},
		"HelmRelease/csa-install.web": {delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true, Resolve: delivery.ResolveHelmController}, "auto"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d targets, want %d", len(got), len(want))
	}
	for _, g := range got {
		w, ok := want[g.Name]
		why := g.Apply.Why
		g.Apply.Why = ""
		if !ok || g.Apply != w.m || !strings.Contains(why, w.why) {
			t.Errorf("%s: apply %+v (%s), want %+v (%s)", g.Name, g.Apply, why, w.m, w.why)
		}
		hasNote := strings.Contains(strings.Join(g.Notes, "\n"), "spec.install.serverSideApply: false")
		if hasNote != (g.Name == "HelmRelease/csa-install.web") {
			t.Errorf("%s: notes %q", g.Name, g.Notes)
		}
	}
}

// TestDiscoverApplyEntryWins: a discover entry's apply: is every target's
// method there, whatever its object says; a HelmRelease's client-side
// merge starts from its previous release manifest.
func TestDiscoverApplyEntryWins(t *testing.T) {
	csa := &config.ApplyConfig{Method: delivery.ApplyClientSide}
	got, err := Discover(context.Background(), applyRepo(t), []config.Discover{
		{ArgoCD: "argocd", Clusters: map[string]string{"hub": "hub"}, Apply: &config.ApplyConfig{Method: delivery.ApplyServerSide}},
		{Flux: "clusters/c", Context: "c", Apply: csa},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		want := delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true}
		if g.Source == delivery.ControllerFlux {
			want = delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}
			if strings.HasPrefix(g.Name, "HelmRelease/") {
				want.Original, want.PerRelease = delivery.OriginalPreviousManifest, true
			}
		}
		why := g.Apply.Why
		g.Apply.Why = ""
		if g.Apply != want || !strings.Contains(why, "the apply: of discover entry") {
			t.Errorf("%s: apply %+v (%s), want %+v set by the entry", g.Name, g.Apply, why, want)
		}
	}
}

// TestDiscoverApplyBadValue: a serverSideApply helm-controller does not
// take is an error naming the HelmRelease's file.
func TestDiscoverApplyBadValue(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"clusters/c/hr.yaml": "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: web, namespace: web}\n" +
			"spec:\n  chart: {spec: {chart: ./charts/web, sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}}}\n  upgrade: {serverSideApply: yes-please}\n",
	})
	_, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err == nil || !strings.Contains(err.Error(), "clusters/c/hr.yaml") || !strings.Contains(err.Error(), "enabled, disabled or auto") {
		t.Errorf("error %v, want one naming the file and the values", err)
	}
}
