package source

import (
	"bytes"
	"strings"
	"testing"
)

// TestChartBudgetIsShared: the archives of a chart and its dependencies
// count against one budget, each within Helm's own bounds but not
// together; a vendored archive counts with what it holds, and the
// refusal is a BoundError naming the bound.
func TestChartBudgetIsShared(t *testing.T) {
	chartYAML := func(name string) []byte { return []byte("apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n") }
	big := bytes.Repeat([]byte("x"), 4000)
	dep := tgz(t, "db", map[string][]byte{"Chart.yaml": chartYAML("db"), "files/big": big})
	in := &Input{Helm: tarCharts{}}
	b := &ChartBudget{size: 10_000, files: 100, helm: tarCharts{}}
	for i := range 2 {
		if _, err := in.LoadChartArchiveWithin(dep, b); err != nil {
			t.Fatalf("dependency %d: %v", i, err)
		}
	}
	_, err := in.LoadChartArchiveWithin(dep, b)
	bound, ok := AsBound(err)
	if !ok || !strings.Contains(bound.Bound, "the chart and its dependencies are larger than 100 MiB decompressed, the bound they share") {
		t.Fatalf("third dependency: %v, want the shared bound", err)
	}

	vendored := &ChartBudget{size: 5000, files: 100, helm: tarCharts{}}
	if err := vendored.TakeFile("charts/db-1.0.0.tgz", dep); err != nil {
		t.Fatalf("one vendored archive: %v", err)
	}
	if err := vendored.TakeFile("charts/db-1.0.0.tgz", dep); err == nil || !strings.Contains(err.Error(), "charts/db-1.0.0.tgz: the chart and its dependencies are larger") {
		t.Errorf("a second vendored archive: %v, want the bound named with the archive", err)
	}
	// An archive that Helm does not read as a subchart is a file.
	other := &ChartBudget{size: 5000, files: 100, helm: tarCharts{}}
	for range 2 {
		if err := other.TakeFile("files/db.tgz", dep); err != nil {
			t.Errorf("a .tgz outside charts/: %v", err)
		}
	}

	few := &ChartBudget{size: 1 << 20, files: 2}
	for i := range 3 {
		err := few.Take(0)
		if (i == 2) != (err != nil) {
			t.Errorf("folder %d: %v", i, err)
		}
		if err != nil && !strings.Contains(err.Error(), "more than 10000 files and folders") {
			t.Errorf("folder %d: %v, want the bound named", i, err)
		}
	}
}

// TestRenderedSize counts keys and strings by their bytes, other values
// as 8.
func TestRenderedSize(t *testing.T) {
	obj := map[string]any{"kind": "ConfigMap", "data": map[string]any{"k": "vvv"}, "n": int64(3), "l": []any{"ab", true}}
	// kind+ConfigMap, data+k+vvv, n+8, l+ab+8
	if got, want := RenderedSize(obj), int64(4+9+4+1+3+1+8+1+2+8); got != want {
		t.Errorf("%d, want %d", got, want)
	}
	if n := OverRendered(MaxRenderedBytes + 1).Bound; !strings.Contains(n, "more than the bound of 64 MiB") {
		t.Errorf("%s: the bound is not named", n)
	}
}
