package homeops_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/homeops"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// TestDiscoverEveryRelease: the config's discover entry makes a target of
// every HelmRelease, named as Flux names it, managed by helm-controller,
// its chart read from the source the repository names (URL and version
// filled in from the source object).
func TestDiscoverEveryRelease(t *testing.T) {
	p, err := homeops.NewPlan(60, 10)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := homeops.Write(dir, p, homeops.Servers{Registry: "http://127.0.0.1:5000", HelmRepository: "http://127.0.0.1:8080/charts"}); err != nil {
		t.Fatal(err)
	}
	r := monorepo.InitRepo(t, dir)
	r.Git("remote", "add", "origin", "https://github.com/home-ops/home-ops.git")
	r.Commit("home-ops")
	t.Chdir(dir)
	cfg, err := config.Load(filepath.Join(dir, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	list, err := targets.List(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]targets.Target{}
	for _, s := range list {
		byName[s.Name] = s
	}
	for _, rel := range p.Releases {
		s, ok := byName[rel.Target()]
		if !ok {
			t.Errorf("%s: not discovered", rel.Target())
			continue
		}
		c := p.Charts[rel.Chart]
		if s.FieldManager != "helm-controller" || s.Deployer == nil || len(s.Deployer.Charts) != 1 {
			t.Errorf("%s: manager %s, deployer %+v, reason %q", rel.Target(), s.FieldManager, s.Deployer, s.Reason)
			continue
		}
		ref := s.Deployer.Charts[0]
		url := "oci://" + homeops.OCIPrefix + "/" + c.Name
		if c.Form == homeops.HelmRepository {
			url = "http://127.0.0.1:8080/charts"
		}
		if ref.URL != url || ref.Version != c.Range() {
			t.Errorf("%s: chart %+v, want %s %s", rel.Target(), ref, url, c.Range())
		}
	}
	_ = delivery.ChartInOCI
}
