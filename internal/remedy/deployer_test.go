package remedy

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

var (
	argoApp = &delivery.Deployer{Controller: delivery.ControllerArgoCD, File: "apps/shop.yaml",
		Object: map[string]any{"metadata": map[string]any{"name": "shop", "namespace": "argocd"}}}
	fluxKs = &delivery.Deployer{Controller: delivery.ControllerFlux, File: "clusters/prod/shop.yaml",
		Object: map[string]any{"metadata": map[string]any{"name": "shop", "namespace": "flux-system"}}}
)

// TestArgoCDRemedy: a field someone else keeps setting on an Argo CD
// target is left to them in the Application, with the sync option that
// makes a sync respect it, never with a rule only the check reads.
func TestArgoCDRemedy(t *testing.T) {
	c := Context{FieldManager: "argocd-controller", Deployer: argoApp}
	f := model.Finding{Category: model.Drift, Path: ".spec.replicas", History: &model.History{Seen: 3, Deploys: 3, Manager: "kubectl"}}
	r := For(web, "deploy/web.yaml", f, c)
	for _, want := range []string{
		"in the Application argocd/shop (apps/shop.yaml)",
		"    spec:\n      ignoreDifferences:\n      - group: apps\n        jsonPointers:\n        - /spec/replicas\n        kind: Deployment\n        name: web\n        namespace: shop\n",
		"      syncPolicy:\n        syncOptions:\n        - RespectIgnoreDifferences=true",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("remedy lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "ignore:\n") || strings.Contains(r, "ownership-check render") {
		t.Errorf("an Argo CD target is told to use the check's ignore rule:\n%s", r)
	}
	// The snippet is the Application's YAML as written.
	var app map[string]any
	if err := yaml.Unmarshal([]byte(dedent(snippet(r))), &app); err != nil {
		t.Fatalf("snippet does not parse: %v\n%s", err, snippet(r))
	}

	img := model.Finding{Category: model.TakingConflict, Path: `.spec.template.spec.containers[name="app"].image`,
		Managers: []model.Manager{{Manager: "kubectl-edit", Operation: "Update"}}, LiveValue: "a", DesiredValue: "b"}
	r = For(web, "deploy/web.yaml", img, c)
	if !strings.Contains(r, `- .spec.template.spec.containers[] | select(.name == "app") | .image`) {
		t.Errorf("a keyed item is not selected by a jq expression:\n%s", r)
	}
}

// TestFluxRemedy: a Flux target's field leaves the manifest, and an
// object that is someone else's once created takes Flux's ssa annotation.
func TestFluxRemedy(t *testing.T) {
	c := Context{FieldManager: "kustomize-controller", Deployer: fluxKs}
	f := model.Finding{Category: model.Drift, Path: ".data.mode", LiveValue: "b", DesiredValue: "a",
		Managers: []model.Manager{{Manager: "kubectl-edit", Operation: "Update"}}}
	r := For(model.ID{Kind: "ConfigMap", Namespace: "shop", Name: "settings"}, "apps/shop/settings.yaml", f, c)
	for _, want := range []string{"Kustomization flux-system/shop (clusters/prod/shop.yaml)", "removing it from the manifest", "kustomize.toolkit.fluxcd.io/ssa: IfNotPresent", "Ignore: Flux never applies it"} {
		if !strings.Contains(r, want) {
			t.Errorf("remedy lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "ignore it in .ownership-check.yaml") {
		t.Errorf("a Flux target is told to use the check's ignore rule:\n%s", r)
	}
}

// snippet is the first paragraph of a remedy indented as something to
// paste.
func snippet(r string) string {
	for _, p := range strings.Split(r, "\n\n") {
		if strings.HasPrefix(p, "    ") {
			return p
		}
	}
	return ""
}

func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "    ")
	}
	return strings.Join(lines, "\n")
}

// TestScaledReplicasInTheDeployersWords: replicas an autoscaler owns are
// left to it the way the target's deployer leaves a field, one row each.
func TestScaledReplicasInTheDeployersWords(t *testing.T) {
	hpa := model.Controller{Name: "HorizontalPodAutoscaler", Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}}
	fight := model.Finding{Category: model.Fight, Path: model.ReplicasPath, Controller: &hpa}
	helmRelease := &delivery.Deployer{Controller: delivery.ControllerFlux, File: "apps/web.yaml",
		Object: map[string]any{"kind": "HelmRelease", "metadata": map[string]any{"name": "web", "namespace": "shop"}}}
	helmTarget := &delivery.Deployer{Controller: delivery.ControllerHelm, Object: map[string]any{}}
	for _, tc := range []struct {
		name     string
		d        *delivery.Deployer
		want     []string
		dontWant []string
	}{
		{"pipeline", nil, []string{"Remove replicas from deploy/web.yaml"}, []string{"driftDetection", "ignoreDifferences"}},
		{"Argo CD", argoApp, []string{"owns the replica count", "ignoreDifferences:", "- /spec/replicas", "RespectIgnoreDifferences=true"}, []string{"driftDetection"}},
		{"Flux Kustomization", fluxKs, []string{"owns the replica count", "by removing it from the manifest", "kustomize.toolkit.fluxcd.io/ssa: IfNotPresent"}, []string{"driftDetection"}},
		{"Flux HelmRelease", helmRelease, []string{"autoscaling.enabled", "HelmRelease shop/web (apps/web.yaml)",
			"    spec:\n      driftDetection:\n        ignore:\n        - paths:\n          - /spec/replicas\n          target:\n            group: apps\n            kind: Deployment\n            name: web\n            namespace: shop"},
			[]string{"kustomize.toolkit.fluxcd.io/ssa", "ignoreDifferences"}},
		{"Helm", helmTarget, []string{"autoscaling.enabled"}, []string{"driftDetection", "ignoreDifferences", "ignore:"}},
	} {
		r := For(web, "deploy/web.yaml", fight, Context{FieldManager: "deployer", Deployer: tc.d})
		for _, want := range tc.want {
			if !strings.Contains(r, want) {
				t.Errorf("%s: remedy lacks %q:\n%s", tc.name, want, r)
			}
		}
		for _, no := range tc.dontWant {
			if strings.Contains(r, no) {
				t.Errorf("%s: remedy has %q:\n%s", tc.name, no, r)
			}
		}
	}
}
