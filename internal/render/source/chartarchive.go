package source

import (
	"bytes"
	"fmt"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
)

// MaxChartArchive bounds a fetched chart's archive, as source-controller
// bounds a chart it downloads (10 MiB); the fetcher refuses a larger one
// before, and a locator that does not is refused here.
const MaxChartArchive = 10 << 20

// LoadChartArchive loads a fetched chart's .tgz as Helm's
// loader.LoadArchive does (its path checks, 5 MiB a file, 100 MiB
// decompressed), within a budget of its own (LoadChartArchiveWithin).
func LoadChartArchive(data []byte) (*chart.Chart, error) {
	return LoadChartArchiveWithin(data, NewChartBudget())
}

// LoadChartArchiveWithin is LoadChartArchive with the bounds Helm leaves
// open: the archive's own size, and the files it holds, its subcharts'
// archives under charts/ (which Helm decompresses each with a budget of
// its own) opened and counted, against b, the one budget the chart shares
// with all its dependencies.
func LoadChartArchiveWithin(data []byte, b *ChartBudget) (*chart.Chart, error) {
	if len(data) > MaxChartArchive {
		return nil, fmt.Errorf("chart archive is %d bytes, more than the limit of %d", len(data), MaxChartArchive)
	}
	files, err := b.archive(data)
	if err != nil {
		return nil, err
	}
	return loader.LoadFiles(files)
}

// archive is loader.LoadArchiveFiles, each file counted against b, and
// each subchart's archive opened and counted the same way first.
func (b *ChartBudget) archive(data []byte) ([]*loader.BufferedFile, error) {
	files, err := loader.LoadArchiveFiles(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := b.TakeFile(f.Name, f.Data); err != nil {
			return nil, err
		}
	}
	return files, nil
}
