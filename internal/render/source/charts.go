package source

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/model"
)

// ChartLocator is model.ChartLocator: the one place that decides what a
// chart outside the repository means (Options.Charts).
type ChartLocator = model.ChartLocator

// Located is a locator's answer (model.LocatedChart).
type Located = model.LocatedChart

// RepositoryCharts is the default locator: the repository's own charts,
// and nothing fetched.
type RepositoryCharts struct{}

func (RepositoryCharts) Locate(_ context.Context, ref model.ChartRef) (Located, error) {
	if ref.InRepository() {
		return Located{Dir: ref.Path}, nil
	}
	return Located{NotRendered: ref.String() + ": remote charts are not rendered (no network)"}, nil
}

// ChartsOrDefault is the locator a render uses: the one given, else the
// repository's own charts.
func ChartsOrDefault(l ChartLocator) ChartLocator {
	if l == nil {
		return RepositoryCharts{}
	}
	return l
}

// ChartsNotRendered is why the charts are not rendered: the first reason
// the locator gives, "" when it locates every one.
func ChartsNotRendered(ctx context.Context, l ChartLocator, refs []model.ChartRef) (string, error) {
	for _, ref := range refs {
		loc, err := ChartsOrDefault(l).Locate(ctx, ref)
		if err != nil || loc.NotRendered != "" {
			return loc.NotRendered, err
		}
	}
	return "", nil
}

// LocateChart is where the render reads the chart ref names: its
// directory, resolved, or why it is not rendered.
func (in *Input) LocateChart(ctx context.Context, ref model.ChartRef) (dir, notRendered string, err error) {
	loc, err := ChartsOrDefault(in.Charts).Locate(ctx, ref)
	if err != nil || loc.NotRendered != "" {
		return "", loc.NotRendered, err
	}
	if dir, err = in.Fs.Resolve(in.RepositoryPath(loc.Dir)); err != nil {
		return "", "", fmt.Errorf("%s: %w", ref, err)
	}
	return dir, "", nil
}

// DeployerChart is the chart the Deployer releases, located (its first
// of Deployer.Charts), or why it is not rendered; the path given is the
// chart when the Deployer names none (one made by hand).
func (in *Input) DeployerChart(ctx context.Context, p Path) (dir, notRendered string, err error) {
	if in.Deployer == nil || len(in.Deployer.Charts) == 0 {
		return p.Real, "", nil
	}
	return in.LocateChart(ctx, in.Deployer.Charts[0])
}
