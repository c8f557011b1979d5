package command

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
)

// TestOpenChartsReadsTheTrustedConfig: with the base commit's config, the
// run's fetcher is opened without reading the pull request's copy (here
// one that does not even parse); without it, from the file; once for the
// run, and ended by done.
func TestOpenChartsReadsTheTrustedConfig(t *testing.T) {
	broken := filepath.Join(t.TempDir(), config.DefaultFile)
	if err := os.WriteFile(broken, []byte("charts: [not, a, mapping]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tg := check.Target{RepoConfig: check.RepoConfig{Config: broken, BaseConfig: config.Default()}}
	ro := check.RunOptions{Charts: charts.Options{CacheDir: t.TempDir()}}
	_, done, err := openCharts(tg, &ro)
	if err != nil {
		t.Fatalf("with the base's config: %v", err)
	}
	opened := ro.ChartLocator
	if opened == nil {
		t.Fatal("no fetcher opened")
	}
	_, again, err := openCharts(tg, &ro)
	if err != nil || ro.ChartLocator != opened {
		t.Errorf("a second open replaced the run's fetcher (%v)", err)
	}
	again()
	if ro.ChartLocator != opened {
		t.Error("the second open's end closed the run's fetcher")
	}
	done()
	if ro.ChartLocator != nil {
		t.Error("the fetcher outlives its run")
	}
	tg.BaseConfig = nil
	if _, _, err := openCharts(tg, &ro); err == nil {
		t.Error("without a base config, the broken file opened a fetcher")
	}
}
