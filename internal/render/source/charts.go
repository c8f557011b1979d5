package source

import (
	"context"
	"fmt"
	"path"

	"helm.sh/helm/v3/pkg/chart"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// RepositoryCharts is the default locator: the repository's own charts,
// and nothing fetched.
type RepositoryCharts struct{}

func (RepositoryCharts) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	if ref.InRepository() {
		return delivery.LocatedChart{Dir: ref.Path}, nil
	}
	return delivery.LocatedChart{NotRendered: ref.String() + ": remote charts are not rendered (no network)"}, nil
}

// FetchSchema fetches nothing: a schema named by URL needs the chart
// fetcher.
func (RepositoryCharts) FetchSchema(_ context.Context, url string) (delivery.FetchedSchema, error) {
	return delivery.FetchedSchema{NotRendered: url + ": it needs charts to be fetched, and remote charts are not (no network)"}, nil
}

// ChartsOrDefault is the locator a render uses: the one given, else the
// repository's own charts.
func ChartsOrDefault(l delivery.ChartLocator) delivery.ChartLocator {
	if l == nil {
		return RepositoryCharts{}
	}
	return l
}

// ChartsNotRendered is why the charts are not rendered: the first reason
// the locator gives, "" when it locates every one.
func ChartsNotRendered(ctx context.Context, l delivery.ChartLocator, refs []delivery.ChartRef) (string, error) {
	for _, ref := range refs {
		loc, err := ChartsOrDefault(l).Locate(ctx, ref)
		if err != nil || loc.NotRendered != "" {
			return loc.NotRendered, err
		}
	}
	return "", nil
}

// Chart is a chart located for a render: a directory of the repository,
// read file by file through the guarded file system when it renders, or
// a chart a locator fetched, already loaded from its archive.
type Chart struct {
	// Dir is the chart's directory, resolved (as Path.Real); "" for a
	// fetched chart.
	Dir string
	// Loaded is a fetched chart, loaded from its archive with its bounds
	// (LoadChartArchive); each LocateChart loads it anew, because a
	// render changes the chart it renders (values, dependencies).
	Loaded *chart.Chart
	// Pin names a fetched chart: its digest and where it came from.
	Pin delivery.ChartPin
	// Budget is what is left of the bounds the chart shares with its
	// dependencies once it is loaded; nil: a whole one.
	Budget *ChartBudget
}

// Fetched says whether the chart came from outside the repository.
func (c Chart) Fetched() bool { return c.Loaded != nil }

// File is a file of a fetched chart's archive by its path in the chart
// ("values-prod.yaml"), as written there, and whether it has it.
func (c Chart) File(name string) ([]byte, bool) {
	if c.Loaded == nil {
		return nil, false
	}
	name = path.Clean(name)
	for _, f := range c.Loaded.Raw {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// FetchSchema is the schema at url (http or https), fetched through the
// chart locator, or why it is not read.
func (in *Input) FetchSchema(ctx context.Context, url string) (delivery.FetchedSchema, error) {
	return ChartsOrDefault(in.Charts).FetchSchema(ctx, url)
}

// LocateChart is where the render reads the chart ref names: its
// directory, resolved, or the chart fetched, or why it is not rendered.
func (in *Input) LocateChart(ctx context.Context, ref delivery.ChartRef) (c Chart, notRendered string, err error) {
	return in.LocateChartWithin(ctx, ref, NewChartBudget())
}

// LocateChartWithin is LocateChart for a chart that counts against b: a
// dependency, against its parent's budget.
func (in *Input) LocateChartWithin(ctx context.Context, ref delivery.ChartRef, b *ChartBudget) (c Chart, notRendered string, err error) {
	loc, err := ChartsOrDefault(in.Charts).Locate(ctx, ref)
	if err != nil || loc.NotRendered != "" {
		return Chart{}, loc.NotRendered, err
	}
	if loc.Archive != nil {
		// What was fetched is no file of the repository: a chart that
		// is not one, or passes the bounds, leaves its target not
		// checked, as a chart too large to fetch does.
		loaded, err := LoadChartArchiveWithin(loc.Archive, b)
		if err != nil {
			return Chart{}, fmt.Sprintf("%s (%s): %v", ref, loc.Pin, err), nil
		}
		return Chart{Loaded: loaded, Pin: loc.Pin, Budget: b}, "", nil
	}
	dir, err := in.Fs.Resolve(in.RepositoryPath(loc.Dir))
	if err != nil {
		return Chart{}, "", fmt.Errorf("%s: %w", ref, err)
	}
	return Chart{Dir: dir, Budget: b}, "", nil
}

// DeployerChart is the chart the Deployer releases, located (its first
// of Deployer.Charts), or why it is not rendered; the path given is the
// chart when the Deployer names none (one made by hand).
func (in *Input) DeployerChart(ctx context.Context, p Path) (Chart, string, error) {
	if in.Deployer == nil || len(in.Deployer.Charts) == 0 {
		return Chart{Dir: p.Real}, "", nil
	}
	return in.LocateChart(ctx, in.Deployer.Charts[0])
}
