package render

import (
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/argocd"
	"github.com/ownership-check/ownership-check/internal/render/flux"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// sourceRow is one form of path: which paths it claims, and its source.
type sourceRow struct {
	name string
	// claims says whether the row renders p; d is the controller's
	// object the render is for (Options.Deployer), nil for none.
	claims func(p source.Path, d *delivery.Deployer) bool
	// source is made once per Render, before anything is read: a source
	// may widen what the file system lets it read (kustomize's remote
	// clones).
	source func(in *source.Input) source.Source
}

// sourceTable chooses each path's source: the first row that claims it.
// A controller's row claims the paths of a render for its objects
// (Options.Deployer); kustomize and plain YAML claim the rest, YAML every
// path, so it comes last. A render for a controller no row claims is an
// error, never a render of another kind.
var sourceTable = []sourceRow{
	{name: "flux", claims: flux.Claims, source: func(in *source.Input) source.Source { return flux.NewSource(in) }},
	{name: "argocd", claims: func(_ source.Path, d *delivery.Deployer) bool {
		return d != nil && d.Controller == delivery.ControllerArgoCD
	}, source: func(in *source.Input) source.Source { return &argocd.Source{In: in} }},
	{name: "helm", claims: helm.Claims, source: func(in *source.Input) source.Source { return &helm.Source{In: in} }},
	{name: "kustomize", claims: func(p source.Path, d *delivery.Deployer) bool { return d == nil && isKustomization(p) }, source: func(in *source.Input) source.Source {
		k := kustomize.NewBuilder(in.Fs, in.Cfg.Kustomize)
		k.Charts = &kustomize.ChartInflater{In: in}
		return k
	}},
	{name: "YAML", claims: func(_ source.Path, d *delivery.Deployer) bool { return d == nil }, source: func(in *source.Input) source.Source { return &yamlSource{in: in} }},
}

// isKustomization: a kustomization's directory or its file.
func isKustomization(p source.Path) bool {
	if p.Dir {
		return p.Kustomization != ""
	}
	return source.IsKustomizationName(filepath.Base(p.Abs))
}
