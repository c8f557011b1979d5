package source

import (
	"fmt"
	"path"
	"sync"
)

// MaxChartDecompressed bounds a chart and all its dependencies together,
// decompressed: Helm's loader bounds each archive to 100 MiB on its own,
// so forty small dependencies could unpack to gigabytes; one budget for
// the release keeps them all within what one archive may be.
const MaxChartDecompressed = 100 << 20

// MaxChartFiles bounds the files and folders of a chart and all its
// dependencies together: Helm's loader bounds their size, never their
// number, and a chart's folder linked to from several places inside it is
// walked once for each.
const MaxChartFiles = 10_000

// ChartBudget is what is left of the bounds a chart shares with all its
// dependencies (docs/security.md): every file and folder of its directory
// or its archive, every vendored archive's content and every dependency
// located for it are counted against the one budget. Over it, the release
// is not rendered (a *BoundError).
type ChartBudget struct {
	mu    sync.Mutex
	size  int64
	files int
	// helm opens the vendored archives counted.
	helm ArchiveLoader
}

// NewChartBudget is a whole budget, for one chart and its dependencies,
// whose vendored archives helm opens (Input.Helm).
func NewChartBudget(helm ArchiveLoader) *ChartBudget {
	return &ChartBudget{size: MaxChartDecompressed, files: MaxChartFiles, helm: helm}
}

// Take counts one file of n bytes, or a folder (n 0).
func (b *ChartBudget) Take(n int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.files--
	b.size -= n
	switch {
	case b.files < 0:
		return &BoundError{Bound: fmt.Sprintf("the chart and its dependencies hold more than %d files and folders, the bound they share", MaxChartFiles)}
	case b.size < 0:
		return &BoundError{Bound: fmt.Sprintf("the chart and its dependencies are larger than %d MiB decompressed, the bound they share", MaxChartDecompressed>>20)}
	}
	return nil
}

// TakeFile counts a chart's file by its path in the chart, and what it
// holds when Helm's loader reads it as a subchart's archive (a .tgz
// under a charts/ folder), nested ones included.
func (b *ChartBudget) TakeFile(name string, data []byte) error {
	if err := b.Take(int64(len(data))); err != nil {
		return err
	}
	if !isSubchartArchive(name) {
		return nil
	}
	if b.helm == nil {
		return fmt.Errorf("%s: %w", name, errNoEngine)
	}
	if err := b.helm.ArchiveFiles(data, b.TakeFile); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// isSubchartArchive: Helm's loader reads a .tgz under a charts/ folder as
// a subchart.
func isSubchartArchive(name string) bool {
	return path.Ext(name) == ".tgz" && path.Base(path.Dir(name)) == "charts"
}
