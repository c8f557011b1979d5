package delivery

import "github.com/ownership-check/ownership-check/internal/model"

// Deployer is a GitOps controller's own object, which says how that
// controller renders and applies a target: a Flux Kustomization, or an Argo
// CD Application (after its ApplicationSet's templating). render reads it
// to render the target's paths exactly as the controller does; a target
// with no Deployer is rendered as `kustomize build` or plain YAML are.
type Deployer struct {
	// Controller is whose render this is: a row of render's source table.
	Controller string
	// Object is the controller's object as the controller reads it.
	Object map[string]any
	// File is where Object is written, relative to the repository's top
	// (an ApplicationSet's file for the Applications it makes).
	File string
	// SourceIgnore is what the object's source leaves out of the artifact
	// the controller reads (a Flux GitRepository's spec.ignore, gitignore
	// lines): the source is another object, so discovery gives it here,
	// and render reads no file the artifact lacks.
	SourceIgnore string
	// StrictSubstitution: the controller fails a postBuild variable with
	// no value and no default (kustomize-controller's feature gate
	// StrictPostBuildSubstitutions), a setting of its cluster that the
	// repository config states.
	StrictSubstitution bool
	// Charts are the charts the object releases by reference (a Flux
	// HelmRelease's spec.chart or spec.chartRef, an Argo CD source's
	// `chart:`, the helm target's chart), parsed once where the object is
	// read; render asks its chart locator for each. A chart that is a
	// source's path (an Argo CD Helm directory) is not among them.
	Charts []ChartRef
	// Revision is the revision its source pins (a Flux GitRepository's
	// spec.ref, an Argo CD source's targetRevision); nil: the checkout's
	// tree, as for a source that pins none. A pinned one renders from its
	// own tree (Revision.Pinned).
	Revision *Revision
	// RenderedValues are the ConfigMaps and Secrets that the render which
	// applies the object makes (a Flux parent Kustomization's, at the
	// revision the object was read at): where its valuesFrom and
	// substituteFrom are read first, before the repository's files as
	// written and the cluster (docs/gitops.md). Shared by every object of
	// that render: never changed.
	RenderedValues []model.ValuesSource
	// StandIns are the fields of Object that hold a placeholder of a
	// Secret value (StandIns) and the keys it stands for: what the
	// parent's substitution, which discovery rendered with placeholders,
	// put there. A render with stand-ins gives each key the same
	// placeholder, and its second render another, so that what the child
	// makes of them is marked like what it reads itself.
	StandIns []model.SecretField
}

// The controllers whose objects make targets.
const (
	ControllerFlux   = "flux"
	ControllerArgoCD = "argocd"
	// ControllerHelm is a chart released by `helm upgrade` (the config's
	// helm target).
	ControllerHelm = "helm"
)

// ValuesWithheld is a value reader's answer for values it found but does
// not give (a SOPS-encrypted Secret is never decrypted in CI): the render
// that needs them is not rendered, with the reason, rather than failing.
type ValuesWithheld struct{ Reason string }

func (e *ValuesWithheld) Error() string { return e.Reason }

// ValuesRepositoryOnly is where a value reader says it looked for an
// object it did not find when it had no cluster to read (the run is
// offline, or no kubeconfig context of the target's cluster is available):
// the repository alone, so the object may well exist in the cluster.
const ValuesRepositoryOnly = "repository only"

// ValuesNotFound is why a values source that is not optional stops a
// render, given where the reader looked for it: a reason must not say the
// cluster lacks what no one asked it for.
func ValuesNotFound(where string) string {
	if where == ValuesRepositoryOnly {
		return "not in the repository, and no cluster was read for it here (no kubeconfig context of its cluster is available, or the run is offline): its controller reads it from the cluster"
	}
	return "not found in the repository or the cluster"
}
