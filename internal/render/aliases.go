package render

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// The shared types of every family, named here as well so that callers of
// Render need only this package.
type (
	NotRendered      = source.NotRendered
	NotRenderedError = source.NotRenderedError
	Reads            = source.Reads
	ValueReader      = source.ValueReader
	ChartCluster     = source.ChartCluster
	RepositoryCharts = source.RepositoryCharts
)

// NewReads is an empty record of what renders read (Options.Reads).
func NewReads() *Reads { return source.NewReads() }

// ChartsNotRendered is why a target's charts are not rendered by the
// locator (nil: the repository's own charts), "" when every one is: what
// a listing of targets says without rendering them.
func ChartsNotRendered(ctx context.Context, l delivery.ChartLocator, refs []delivery.ChartRef) (string, error) {
	return source.ChartsNotRendered(ctx, l, refs)
}

// HelmEngineFor is the engine that renders charts as the Helm release h
// names does (Options.HelmEngine; docs/helm.md).
func HelmEngineFor(h delivery.HelmRender) helm.Engine { return helm.EngineFor(h) }
