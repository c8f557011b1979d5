package source

import (
	"errors"
	"fmt"
)

// MaxChartArchive bounds a fetched chart's archive, as source-controller
// bounds a chart it downloads (10 MiB); the fetcher refuses a larger one
// before, and a locator that does not is refused here.
const MaxChartArchive = 10 << 20

// LoadChartArchive loads a fetched chart's .tgz with the render's Helm
// engine (for Helm 3, as its loader.LoadArchive does: its path checks,
// 5 MiB a file, 100 MiB decompressed), within a budget of its own
// (LoadChartArchiveWithin).
func (in *Input) LoadChartArchive(data []byte) (LoadedChart, error) {
	return in.LoadChartArchiveWithin(data, NewChartBudget(in.Helm))
}

// LoadChartArchiveWithin is LoadChartArchive with the bounds Helm leaves
// open: the archive's own size, and the files it holds, its subcharts'
// archives under charts/ (which Helm decompresses each with a budget of
// its own) opened and counted, against b, the one budget the chart shares
// with all its dependencies.
func (in *Input) LoadChartArchiveWithin(data []byte, b *ChartBudget) (LoadedChart, error) {
	if len(data) > MaxChartArchive {
		return nil, fmt.Errorf("chart archive is %d bytes, more than the limit of %d", len(data), MaxChartArchive)
	}
	if in.Helm == nil {
		return nil, errNoEngine
	}
	return in.Helm.LoadArchive(data, b.TakeFile)
}

// errNoEngine is an Input made without its Helm engine (render sets it).
var errNoEngine = errors.New("no Helm engine to load the chart with")
