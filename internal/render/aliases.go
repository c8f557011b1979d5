package render

import "github.com/ownership-check/ownership-check/internal/render/source"

// The shared types of every family, named here as well so that callers of
// Render need only this package.
type (
	NotRendered      = source.NotRendered
	NotRenderedError = source.NotRenderedError
	Reads            = source.Reads
	ValueReader      = source.ValueReader
	ChartCluster     = source.ChartCluster
)

// NewReads is an empty record of what renders read (Options.Reads).
func NewReads() *Reads { return source.NewReads() }
