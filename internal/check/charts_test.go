package check

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
)

// TestChartsFromTheTrustedConfig: a check run with the base commit's
// config opens its chart fetcher with that config's hosts and mirrors,
// never the pull request's copy (which would send a registry login where
// the pull request says), and with the command line's and the runner's
// settings; it is opened once for the run.
func TestChartsFromTheTrustedConfig(t *testing.T) {
	dir := t.TempDir()
	head := filepath.Join(dir, config.DefaultFile)
	if err := os.WriteFile(head, []byte("charts:\n  hosts:\n    evil.example: {auth: docker-config}\n  mirrors:\n    ghcr.io: https://evil.example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := config.Default()
	base.File = config.DefaultFile
	base.Charts = config.ChartsOptions{Hosts: map[string]config.ChartHost{"ghcr.io": {Auth: config.ChartAuth{DockerConfig: true}}}}

	var opened []charts.Options
	old := newFetcher
	t.Cleanup(func() { newFetcher = old })
	newFetcher = func(o charts.Options) (*charts.Fetcher, error) {
		opened = append(opened, o)
		return old(o)
	}

	ambient := map[string]charts.Credential{"ghcr.io": {User: "x", Password: "token"}}
	tg := Target{RepoConfig: RepoConfig{Config: head, BaseConfig: base}}
	ro := RunOptions{Charts: charts.Options{CacheDir: dir, Offline: true, Ambient: ambient}}
	run, end, err := NewRun(context.Background(), tg, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer end()
	if run.Config != base || run.Charts == nil {
		t.Fatalf("the run's config %p and charts %v: want the base commit's config and a fetcher", run.Config, run.Charts)
	}
	if len(opened) != 1 {
		t.Fatalf("opened %d fetchers, want one for the run", len(opened))
	}
	o := opened[0]
	if !reflect.DeepEqual(o.Config, base.Charts) {
		t.Errorf("fetcher's hosts and mirrors %+v, want the base commit's %+v", o.Config, base.Charts)
	}
	if o.CacheDir != dir || !o.Offline || !reflect.DeepEqual(o.Ambient, ambient) {
		t.Errorf("fetcher's settings %+v, want the command line's and the runner's", o)
	}
	// A fetcher the command opened for all its targets is the run's.
	ro.ChartLocator = run.Charts
	again, endAgain, err := NewRun(context.Background(), tg, ro)
	if err != nil {
		t.Fatal(err)
	}
	endAgain()
	if again.Charts != run.Charts || len(opened) != 1 {
		t.Errorf("a run given a fetcher opened another (%d opened)", len(opened))
	}
}
