package targets_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

func names(sel targets.Selection) []string {
	var out []string
	for _, s := range sel.Targets {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

// TestTargetsDiscoveredList: the repository's targets are the config's and
// the discovered, one list by name; a discovered name the config lists too
// is an error naming both.
func TestTargetsDiscoveredList(t *testing.T) {
	f := newFleet(t, 2)
	t.Chdir(f.Dir)
	cfg := *f.cfg
	cfg.Targets = []config.Target{{Name: "legacy", Paths: []string{"apps/app00/overlays/dev"}}}
	ts, err := targets.List(context.Background(), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 8 || ts[6].Name != externalTarget || ts[7].Name != "legacy" || ts[7].Source != targets.SourceConfig {
		t.Fatalf("targets: %+v", ts)
	}
	if ts[6].Checked() || ts[0].Deployer == nil || ts[0].Source != "flux" || ts[0].Object != "clusters/dev/app00.yaml" || ts[0].ValueDirs[0] != "clusters" {
		t.Errorf("discovered: %+v %+v", ts[6], ts[0])
	}
	cfg.Targets = []config.Target{{Name: "flux-system/app01-prod", Paths: []string{"x"}}}
	_, err = targets.List(context.Background(), &cfg)
	if err == nil || !strings.Contains(err.Error(), "the repository config's targets") || !strings.Contains(err.Error(), "clusters/prod/app01.yaml") {
		t.Errorf("a name clash: %v", err)
	}
	cfg.Targets = []config.Target{{Name: "flux-system", Paths: []string{"x"}}}
	_, err = targets.List(context.Background(), &cfg)
	if err == nil || !strings.Contains(err.Error(), "target flux-system (the repository config's targets)") {
		t.Errorf("a target named as a namespace of others: %v", err)
	}
	// A cluster/namespace/name target's folder is inside cluster/namespace
	// too.
	f.found = append(f.found, gitops.Target{Name: "prod-cluster/flux-system/app00-prod", Source: "flux", Object: "clusters/prod/app00.yaml", Paths: []string{"apps/app00/overlays/prod"}})
	cfg.Targets = []config.Target{{Name: "prod-cluster/flux-system", Paths: []string{"x"}}}
	_, err = targets.List(context.Background(), &cfg)
	if err == nil || !strings.Contains(err.Error(), "target prod-cluster/flux-system (the repository config's targets)") {
		t.Errorf("a target named as a cluster's namespace of others: %v", err)
	}
}

// TestTargetsDiscoveredSelect: --target takes discovered names; with
// --changed-from, a change to an app's base selects exactly the targets
// that render it, a change to a Kustomization's file exactly that target,
// a change to a substitution source the targets that read it, and a
// target that is not checked is selected with its reason when its own
// file changes, never dropped.
func TestTargetsDiscoveredSelect(t *testing.T) {
	f := newFleet(t, 3)
	f.record(t)
	t.Chdir(f.Dir)
	ctx := context.Background()
	sel, err := targets.Select(ctx, f.cfg, targets.SelectOptions{Names: []string{"flux-system/app01-prod", externalTarget}})
	if err != nil || len(sel.Targets) != 2 || sel.Total != 10 {
		t.Fatalf("named: %+v %v", sel, err)
	}
	if s := sel.Targets[0]; s.Name != "flux-system/app01-prod" || s.Deployer == nil || s.FieldManager != "kustomize-controller" || s.Context != "prod-cluster" {
		t.Errorf("named target: %+v", s)
	}
	if want := "1 of 10 targets checked, 8 not affected by this change, 1 not checked (each says why)"; sel.Line() != want {
		t.Errorf("line %q, want %q", sel.Line(), want)
	}
	changed := func(file, content string) []string {
		t.Helper()
		defer f.Restore()
		f.Write(file, content)
		sel, err := targets.Select(ctx, f.cfg, targets.SelectOptions{ChangedFrom: f.base, SnapshotRepo: f.Dir, SnapshotBranch: "ownership-snapshots"})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sel.Targets {
			if !s.Checked() && s.Reason == "" {
				t.Errorf("%s: not checked without a reason", s.Name)
			}
		}
		return names(sel)
	}
	for _, c := range []struct {
		file, content string
		want          []string
	}{
		{"apps/app01/base/settings.yaml", monorepo.Settings("app01", "slow"), []string{"flux-system/app01-dev", "flux-system/app01-prod", "flux-system/app01-staging"}},
		{"clusters/dev/app02.yaml", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: app02-dev, namespace: flux-system}\nspec: {path: ./apps/app02/overlays/dev, prune: true}\n", []string{"flux-system/app02-dev"}},
		{"clusters/prod/vars.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: vars, namespace: flux-system}\ndata: {region: us}\n", []string{"flux-system/app00-prod", "flux-system/app01-prod", "flux-system/app02-prod"}},
		{"clusters/prod/external.yaml", "# moved\n", []string{externalTarget}},
		{"README.md", "# fleet\n", nil},
	} {
		if got := changed(c.file, c.content); strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("changing %s selects %v, want %v", c.file, got, c.want)
		}
	}
}

// TestTargetsNotCheckedBuild: a target that is not checked is not run: its
// result carries its reason alone, neither a report nor an error, and
// snapshot records nothing for it.
func TestTargetsNotCheckedBuild(t *testing.T) {
	f := newFleet(t, 1)
	t.Chdir(f.Dir)
	ctx := context.Background()
	sel, err := targets.Select(ctx, f.cfg, targets.SelectOptions{Names: []string{externalTarget}})
	if err != nil {
		t.Fatal(err)
	}
	res := targets.Build(ctx, check.Options{Target: check.Target{FieldManager: deployer}, Offline: true}, runFor(t, ctx, check.Target{FieldManager: deployer}, check.RunOptions{}), sel.Targets)
	if len(res) != 1 || res[0].Report != nil || res[0].Err != nil || !strings.Contains(res[0].Reason, "another repository") {
		t.Errorf("result %+v", res)
	}
	recs, errs := targets.Snapshot(ctx, check.SnapshotOptions{Target: check.Target{FieldManager: deployer}}, runFor(t, ctx, check.Target{FieldManager: deployer}, check.RunOptions{}), sel.Targets)
	if recs[0] != nil || errs[0] != nil {
		t.Errorf("snapshot of a target not checked: %v %v", recs[0], errs[0])
	}
}

// A discovered target is named by its cluster's context too, so that a
// sync event that knows its cluster names it whether or not discovery had
// to qualify the name.
func TestSelectDiscoveredByContextAndName(t *testing.T) {
	f := newFleet(t, 1)
	t.Chdir(f.Dir)
	sel, err := targets.Select(context.Background(), f.cfg, targets.SelectOptions{Names: []string{"prod-cluster/flux-system/app00-dev"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Targets) != 1 || sel.Targets[0].Name != "flux-system/app00-dev" {
		t.Fatalf("selected %+v, want flux-system/app00-dev", sel.Targets)
	}
	if _, err := targets.Select(context.Background(), f.cfg, targets.SelectOptions{Names: []string{"other-cluster/flux-system/app00-dev"}}); err == nil {
		t.Fatal("another cluster's context named the target")
	}
}
