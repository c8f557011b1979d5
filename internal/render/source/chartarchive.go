package source

import (
	"bytes"
	"fmt"
	"path"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
)

// MaxChartArchive bounds a fetched chart's archive, as source-controller
// bounds a chart it downloads (10 MiB); the fetcher refuses a larger one
// before, and a locator that does not is refused here.
const MaxChartArchive = 10 << 20

// maxChartFiles bounds the files of a fetched chart, its subcharts'
// archives included: Helm's loader bounds their size (5 MiB a file, 100
// MiB an archive decompressed) but not their number.
const maxChartFiles = 10_000

// LoadChartArchive loads a fetched chart's .tgz as Helm's
// loader.LoadArchive does (its path checks, 5 MiB a file, 100 MiB
// decompressed), with the bounds Helm leaves open: the archive's own size,
// the number of files, and the subcharts' archives under charts/, which
// Helm decompresses each with a budget of its own, counted against the
// one budget of the chart.
func LoadChartArchive(data []byte) (*chart.Chart, error) {
	if len(data) > MaxChartArchive {
		return nil, fmt.Errorf("chart archive is %d bytes, more than the limit of %d", len(data), MaxChartArchive)
	}
	b := &archiveBudget{size: loader.MaxDecompressedChartSize, files: maxChartFiles}
	files, err := b.read(data)
	if err != nil {
		return nil, err
	}
	return loader.LoadFiles(files)
}

// archiveBudget is what is left of a chart's bounds while its archives
// are read.
type archiveBudget struct {
	size  int64
	files int
}

// read is loader.LoadArchiveFiles, each file counted, and each subchart's
// archive read the same way first.
func (b *archiveBudget) read(data []byte) ([]*loader.BufferedFile, error) {
	files, err := loader.LoadArchiveFiles(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b.files--
		b.size -= int64(len(f.Data))
		switch {
		case b.files < 0:
			return nil, fmt.Errorf("chart has more than %d files, its subcharts' included", maxChartFiles)
		case b.size < 0:
			return nil, fmt.Errorf("chart is larger than %d bytes decompressed, its subcharts' included", loader.MaxDecompressedChartSize)
		}
		if isSubchartArchive(f.Name) {
			if _, err := b.read(f.Data); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
		}
	}
	return files, nil
}

// isSubchartArchive: Helm's loader reads a .tgz under a charts/ folder as
// a subchart.
func isSubchartArchive(name string) bool {
	return path.Ext(name) == ".tgz" && path.Base(path.Dir(name)) == "charts"
}
