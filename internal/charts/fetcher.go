package charts

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Fetcher is the fetching chart locator of one run: one per run, shared
// by its targets, so that a chart is fetched once however many releases
// use it.
type Fetcher struct {
	opts Options
}

// New is a run's Fetcher.
func New(opts Options) (*Fetcher, error) {
	return &Fetcher{opts: opts}, nil
}

// Locate fetches the chart ref names (or finds it in the cache) and
// gives its archive and pin, or why it is not rendered.
func (f *Fetcher) Locate(ctx context.Context, ref model.ChartRef) (model.LocatedChart, error) {
	if ref.InRepository() {
		return model.LocatedChart{Dir: ref.Path}, nil
	}
	return model.LocatedChart{NotRendered: ref.String() + ": remote charts are not fetched yet"}, nil
}

// Stats are what a run fetched: for the report's footnote and the
// benchmarks.
type Stats struct {
	// Downloads and Bytes count the chart archives and index files
	// fetched over the network; CacheHits those read from the cache.
	Downloads int
	Bytes     int64
	CacheHits int
}

// Stats are the run's so far.
func (f *Fetcher) Stats() Stats { return Stats{} }
