package render

import (
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// sourceRow is one form of path: which paths it claims, and its source.
type sourceRow struct {
	name string
	// claims says whether the row renders p; d is the controller's
	// object the render is for (Options.Deployer), nil for none.
	claims func(p Path, d *model.Deployer) bool
	// source is made once per Render, before anything is read: a source
	// may widen what the file system lets it read (kustomize's remote
	// clones).
	source func(in *Input) Source
}

// sourceTable chooses each path's source: the first row that claims it.
// A controller's row claims the paths of a render for its objects
// (Options.Deployer); kustomize and plain YAML claim the rest, YAML every
// path, so it comes last. A render for a controller no row claims is an
// error, never a render of another kind.
var sourceTable = []sourceRow{
	{name: "flux", claims: fluxClaims, source: func(in *Input) Source { return newFluxSource(in) }},
	{name: "argocd", claims: func(_ Path, d *model.Deployer) bool { return d != nil && d.Controller == model.ControllerArgoCD }, source: func(in *Input) Source { return &argoSource{in: in} }},
	{name: "helm", claims: helmClaims, source: func(in *Input) Source { return &helmSource{in: in} }},
	{name: "kustomize", claims: func(p Path, d *model.Deployer) bool { return d == nil && isKustomization(p) }, source: func(in *Input) Source {
		k := newKustomizer(in.fs, in.cfg.Kustomize)
		k.charts = &chartInflater{in: in}
		return k
	}},
	{name: "YAML", claims: func(_ Path, d *model.Deployer) bool { return d == nil }, source: func(in *Input) Source { return &yamlSource{in: in} }},
}

// isKustomization: a kustomization's directory or its file.
func isKustomization(p Path) bool {
	if p.Dir {
		return p.Kustomization != ""
	}
	return isKustomizationName(filepath.Base(p.Abs))
}
