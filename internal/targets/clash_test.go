package targets_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestListNamesEveryClash: listed targets named as discovered ones stop
// the run with every clash named, in name order.
func TestListNamesEveryClash(t *testing.T) {
	dir := t.TempDir()
	cfg := "targets:\n- {name: flux-system/web, paths: [apps], fieldManager: d}\n- {name: flux-system/api, paths: [apps], fieldManager: d}\n" +
		"discover:\n- flux: clusters\n  context: prod\n"
	if err := os.WriteFile(filepath.Join(dir, config.DefaultFile), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	t.Chdir(dir)
	t.Setenv("HOME", t.TempDir())
	t.Cleanup(targets.UseDiscovery(func(context.Context, gitops.Repository, []config.Discover) ([]gitops.Target, error) {
		var out []gitops.Target
		for _, n := range []string{"web", "api"} {
			out = append(out, gitops.Target{Name: "flux-system/" + n, Source: delivery.ControllerFlux, Object: "clusters/" + n + ".yaml", Context: "prod", Reason: "suspended"})
		}
		return out, nil
	}))
	c, err := config.Load(filepath.Join(dir, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	_, err = targets.List(context.Background(), c)
	want := "target flux-system/api: the repository config's targets and the flux object in clusters/api.yaml both name it, and would share a snapshot folder and a comment section: rename one; " +
		"target flux-system/web: the repository config's targets and the flux object in clusters/web.yaml both name it, and would share a snapshot folder and a comment section: rename one"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
