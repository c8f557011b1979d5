package delivery

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// What each deployer deletes of an object the render no longer produces
// (docs/deployers-apply.md "What each deployer deletes"): a delete only
// where it prunes. One row per deployer, keyed as pruneKey reads a
// Deployer; each row says, from the deployer's object and the object's
// own metadata (live's, else what the last deploy left), whether the
// deploy deletes it and, when it does not, why it stays.

// The annotations and labels by which an object stays when its deployer
// prunes.
const (
	HelmResourcePolicy       = "helm.sh/resource-policy"
	ArgoCDSyncOptions        = "argocd.argoproj.io/sync-options"
	FluxPruneAnnotation      = "kustomize.toolkit.fluxcd.io/prune"
	fluxPruneDisabled        = "disabled"
	helmKeep                 = "keep"
	argoCDPruneFalse         = "Prune=false"
	deployerKeyFluxHelm      = "flux HelmRelease"
	deployerKeyFluxKustomize = "flux Kustomization"
)

// pruneRule is a deployer's row: "" when it deletes the object obj
// (metadata of the object), else why it stays.
type pruneRule func(d *Deployer, obj map[string]any) string

var pruneTable = map[string]pruneRule{
	// A pipeline deletes what it prunes; the delete warning says "a
	// pruning deploy".
	"":                       func(*Deployer, map[string]any) string { return "" },
	ControllerHelm:           helmKeeps,
	deployerKeyFluxHelm:      helmKeeps,
	deployerKeyFluxKustomize: fluxKeeps,
	ControllerArgoCD:         argoCDKeeps,
}

// Kept says why d's deploy leaves obj in the cluster although the render
// no longer produces it ("" when it deletes it; d nil is a pipeline).
func Kept(d *Deployer, obj map[string]any) string {
	rule, ok := pruneTable[pruneKey(d)]
	if !ok {
		return ""
	}
	return rule(d, obj)
}

func pruneKey(d *Deployer) string {
	if d == nil {
		return ""
	}
	if d.Controller == ControllerFlux {
		if kind, _ := d.Object["kind"].(string); kind == "HelmRelease" {
			return deployerKeyFluxHelm
		}
		return deployerKeyFluxKustomize
	}
	return d.Controller
}

func helmKeeps(_ *Deployer, obj map[string]any) string {
	if annotation(obj, HelmResourcePolicy) == helmKeep {
		return "Helm never deletes an object annotated " + HelmResourcePolicy + ": " + helmKeep
	}
	return ""
}

func fluxKeeps(d *Deployer, obj map[string]any) string {
	if prune, _ := nested(d.Object, "spec", "prune").(bool); !prune {
		return "the Kustomization does not prune (spec.prune is not true)"
	}
	if annotation(obj, FluxPruneAnnotation) == fluxPruneDisabled || label(obj, FluxPruneAnnotation) == fluxPruneDisabled {
		return "kustomize-controller never prunes an object marked " + FluxPruneAnnotation + ": " + fluxPruneDisabled
	}
	return ""
}

func argoCDKeeps(d *Deployer, obj map[string]any) string {
	for _, o := range strings.Split(annotation(obj, ArgoCDSyncOptions), ",") {
		if strings.TrimSpace(o) == argoCDPruneFalse {
			return "Argo CD never prunes an object annotated " + ArgoCDSyncOptions + ": " + argoCDPruneFalse
		}
	}
	if prune, _ := nested(d.Object, "spec", "syncPolicy", "automated", "prune").(bool); !prune {
		return "the Application does not prune automatically (spec.syncPolicy.automated.prune is not true): Argo CD shows it as to be pruned, and only a sync with prune deletes it"
	}
	return ""
}

func annotation(obj map[string]any, key string) string {
	s, _ := nested(obj, "metadata", "annotations", key).(string)
	return s
}

func label(obj map[string]any, key string) string {
	s, _ := nested(obj, "metadata", "labels", key).(string)
	return s
}

func nested(obj map[string]any, keys ...string) any {
	v, _, _ := unstructured.NestedFieldNoCopy(obj, keys...)
	return v
}
