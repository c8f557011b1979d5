package render

import (
	"context"
	"errors"
)

// HelmRelease is one release of a chart as its deployer renders it: the
// config's helm target, a Flux HelmRelease, an Argo CD Helm source or
// kustomize's helmCharts. Each deployer's source resolves its own form
// (its values layered as that deployer layers them) into a HelmRelease;
// renderChart makes the objects the deployer would apply, with Helm's own
// chart loader and template engine, so that every form renders alike.
type HelmRelease struct {
	// Chart is the chart's directory, resolved (as Path.Real).
	Chart string
	// Name and Namespace are the release's: a namespaced object the chart
	// leaves without a namespace lands in Namespace.
	Name, Namespace string
	// Values are what the deployer passes, already layered; the chart's
	// own values.yaml is not among them (the engine coalesces it).
	Values map[string]any
	// ChartValues, when not nil, replace the chart's own values.yaml as
	// its defaults (Flux's spec.chart.spec.valuesFiles: source-controller
	// packages the chart with their merge as its values.yaml).
	ChartValues map[string]any
	// SkipCRDs leaves the chart's crds/ out (Argo CD's helm.skipCrds).
	SkipCRDs bool
	// Cluster says how .Capabilities and lookup answer for this deployer.
	Cluster HelmCluster
	// Source is the file that asks for the release, as users see it:
	// each object's Source, and the first word of errors.
	Source string
	// Labels and Annotations are what the deployer adds to every object
	// beyond Helm's own (Flux's helm-controller labels, for one).
	Labels, Annotations map[string]string
}

// HelmCluster is how a deployer's render sees the cluster.
type HelmCluster int

const (
	// HelmClusterLive: `helm upgrade` and Flux; .Capabilities from the
	// cluster's discovery, lookup reads the live objects.
	HelmClusterLive HelmCluster = iota
	// HelmClusterArgoCD: Argo CD's repo server; Helm's built-in API
	// versions plus the cluster's, lookup finds nothing.
	HelmClusterArgoCD
	// HelmClusterNone: `helm template` (kustomize's helmCharts); Helm's
	// defaults, no cluster.
	HelmClusterNone
)

// renderChart renders r as Helm's upgrade does: test hooks left out,
// other hooks listed as run and not applied, crds/ installed only when
// absent, Helm's release label and annotations added.
func (in *Input) renderChart(ctx context.Context, r HelmRelease) (Output, error) {
	return Output{}, errors.New("charts are not rendered yet")
}
