package delivery

import (
	"strings"
	"testing"
)

// TestKept: an object gone from the render is deleted only where its
// deployer prunes it; each row of the table, and what keeps an object.
func TestKept(t *testing.T) {
	obj := func(annotations, labels map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "web", "annotations": annotations, "labels": labels}}
	}
	plain := obj(nil, nil)
	ks := func(prune any) *Deployer {
		spec := map[string]any{}
		if prune != nil {
			spec["prune"] = prune
		}
		return &Deployer{Controller: ControllerFlux, Object: map[string]any{"kind": "Kustomization", "spec": spec}}
	}
	app := func(automated map[string]any) *Deployer {
		spec := map[string]any{}
		if automated != nil {
			spec["syncPolicy"] = map[string]any{"automated": automated}
		}
		return &Deployer{Controller: ControllerArgoCD, Object: map[string]any{"kind": "Application", "spec": spec}}
	}
	helm := &Deployer{Controller: ControllerHelm}
	helmRelease := &Deployer{Controller: ControllerFlux, Object: map[string]any{"kind": "HelmRelease"}}
	for _, tc := range []struct {
		name string
		d    *Deployer
		obj  map[string]any
		want string // "" deletes; else a part of why it stays
	}{
		{"pipeline", nil, plain, ""},
		{"pipeline, annotated keep", nil, obj(map[string]any{HelmResourcePolicy: "keep"}, nil), ""},
		{"Helm", helm, plain, ""},
		{"Helm, keep", helm, obj(map[string]any{HelmResourcePolicy: "keep"}, nil), "helm.sh/resource-policy: keep"},
		{"HelmRelease, keep", helmRelease, obj(map[string]any{HelmResourcePolicy: "keep"}, nil), "helm.sh/resource-policy: keep"},
		{"HelmRelease", helmRelease, plain, ""},
		{"Kustomization, prune", ks(true), plain, ""},
		{"Kustomization, no prune", ks(nil), plain, "spec.prune is not true"},
		{"Kustomization, prune: false", ks(false), plain, "spec.prune is not true"},
		{"Kustomization, annotated", ks(true), obj(map[string]any{FluxPruneAnnotation: "disabled"}, nil), "kustomize.toolkit.fluxcd.io/prune: disabled"},
		{"Kustomization, labelled", ks(true), obj(nil, map[string]any{FluxPruneAnnotation: "disabled"}), "kustomize.toolkit.fluxcd.io/prune: disabled"},
		{"Application, automated prune", app(map[string]any{"prune": true}), plain, ""},
		{"Application, automated without prune", app(map[string]any{}), plain, "spec.syncPolicy.automated.prune is not true"},
		{"Application, manual sync", app(nil), plain, "only a sync with prune deletes it"},
		{"Application, Prune=false", app(map[string]any{"prune": true}), obj(map[string]any{ArgoCDSyncOptions: "ServerSideApply=true, Prune=false"}, nil), "Prune=false"},
		{"no metadata", helm, nil, ""},
	} {
		got := Kept(tc.d, tc.obj)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: kept %q, want %q", tc.name, got, tc.want)
		}
	}
}
