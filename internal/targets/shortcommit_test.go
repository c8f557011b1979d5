package targets_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestArgoShortCommit: an Argo CD targetRevision of a commit cut short
// (7 to 39 hex digits no branch or tag has) is that commit, as the
// repo-server checks it out: rendered from its tree in a whole checkout;
// not checked in a shallow one, which says how to give it the history.
func TestArgoShortCommit(t *testing.T) {
	git := func(dir string, args ...string) string { t.Helper(); return gitAsDev(t, dir, args...) }
	write := func(dir, file, content string) { t.Helper(); writeIn(t, dir, file, content) }
	app := func(color string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app, namespace: web}\ndata: {color: " + color + "}\n"
	}
	src := t.TempDir()
	git(src, "init", "-q")
	write(src, config.DefaultFile, "repositories: [https://github.com/example/platform]\ndiscover:\n- argocd: argocd\n  clusters:\n    https://kubernetes.default.svc: mgmt\n")
	write(src, "apps/app.yaml", app("blue"))
	git(src, "add", ".")
	git(src, "commit", "-q", "-m", "blue")
	blue := git(src, "rev-parse", "HEAD")
	write(src, "apps/app.yaml", app("green"))
	// Quoted, as a user must: a short SHA can be all digits (or 1e5…), which
	// YAML reads as a number.
	write(src, "argocd/web.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: web, namespace: argocd}\n"+
		"spec:\n  project: default\n  source: {repoURL: https://github.com/example/platform, path: apps, targetRevision: '"+blue[:9]+"'}\n"+
		"  destination: {server: https://kubernetes.default.svc, namespace: web}\n")
	git(src, "add", ".")
	git(src, "commit", "-q", "-m", "green, and web pinned to blue")
	bare := filepath.Join(t.TempDir(), "platform.git")
	git(src, "clone", "-q", "--bare", src, bare)

	for _, shallow := range []bool{false, true} {
		t.Run(map[bool]string{true: "shallow", false: "whole"}[shallow], func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "checkout")
			clone := []string{"clone", "-q", "file://" + bare, dir}
			if shallow {
				clone = append(clone, "--depth=1")
			}
			git(src, clone...)
			t.Chdir(dir)
			ctx := context.Background()
			cfg, err := config.Load(config.DefaultFile)
			if err != nil {
				t.Fatal(err)
			}
			all, err := targets.List(ctx, cfg)
			if err != nil || len(all) != 1 {
				t.Fatalf("targets %+v, %v; want the Application's", all, err)
			}
			x := all[0]
			if shallow {
				if x.Checked() || !strings.Contains(x.Reason, blue[:9]) || !strings.Contains(x.Reason, "fetch-depth: 0") {
					t.Errorf("shallow: reason %q; want not checked, naming the revision and the whole history", x.Reason)
				}
				return
			}
			if !x.Checked() || x.Deployer.Revision == nil || x.Deployer.Revision.Commit != blue {
				t.Fatalf("whole: reason %q, revision %+v; want the commit %s", x.Reason, x.Deployer.Revision, blue)
			}
			ct, paths, err := targets.Resolve(ctx, check.Target{}, x)
			if err != nil {
				t.Fatal(err)
			}
			objs, _, err := command.Render(ctx, ct, check.RunOptions{}, paths, check.RenderOptions{ClusterOptional: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != 1 || objs[0].Object.Object["data"].(map[string]any)["color"] != "blue" {
				t.Errorf("rendered %v; want the ConfigMap of the pinned commit, blue", objs)
			}
		})
	}
}
