package targets_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// The fixture GitOps repository and the URL its origin must have for its
// own GitRepository and Applications to be read as this repository.
const (
	gitopsFixture = "../../testdata/gitops"
	gitopsOrigin  = "https://github.com/example/platform.git"
)

// gitopsRepo is the fixture in a git repository of its own, committed,
// with its origin: as a pull request's job checks it out. The test runs
// in it, with no kubeconfig.
type gitopsRepo struct {
	*monorepo.Repo
	t    testing.TB
	base string
	cfg  *config.Config
	// snapshots is the repository of the snapshot branch: its own, as
	// the fixture's origin is not reachable.
	snapshots string
}

func newGitOpsRepo(t testing.TB) *gitopsRepo {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(gitopsFixture)); err != nil {
		t.Fatal(err)
	}
	r := &gitopsRepo{Repo: monorepo.InitRepo(t, dir), t: t}
	r.snapshots = t.TempDir()
	if out, err := exec.Command("git", "init", "-q", r.snapshots).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	r.Git("remote", "add", "origin", gitopsOrigin)
	r.base = r.Commit("platform")
	t.Chdir(r.Dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
	cfg, err := config.Load(filepath.Join(r.Dir, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	r.cfg = cfg
	return r
}

// edit replaces old with new in the working tree's file rel.
func (r *gitopsRepo) edit(rel, old, new string) {
	r.t.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		r.t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		r.t.Fatalf("%s has no %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// list is the fixture's targets, discovered as the commands discover them.
func (r *gitopsRepo) list() []targets.Target {
	r.t.Helper()
	ts, err := targets.List(context.Background(), r.cfg)
	if err != nil {
		r.t.Fatal(err)
	}
	return ts
}

// render is render --target's objects (or its error) of a discovered target: its
// settings resolved as a run resolves them, rendered without a cluster.
func (r *gitopsRepo) render(s targets.Target) *renderedTarget {
	r.t.Helper()
	rt, paths, err := targets.Resolve(context.Background(), check.Target{}, s)
	if err != nil {
		r.t.Fatal(err)
	}
	objs, warnings, err := command.Render(context.Background(), rt, check.RunOptions{}, paths, check.RenderOptions{ClusterOptional: true})
	out := &renderedTarget{byID: map[string]map[string]any{}, err: err}
	for _, o := range objs {
		out.byID[o.ID.String()] = o.Object.Object
	}
	for _, w := range warnings {
		out.warnings = append(out.warnings, w.Error())
	}
	return out
}

type renderedTarget struct {
	byID     map[string]map[string]any
	warnings []string
	// err is what render --target exits with: a target the render cannot
	// reproduce says so here.
	err error
}

// recordInputs writes, for each named target, a snapshot whose inputs are
// what its render reads, at the fixture's commit: what snapshot records
// after a deploy.
func (r *gitopsRepo) recordInputs(names ...string) {
	r.t.Helper()
	ctx := context.Background()
	store, err := snapshot.Open(ctx, r.snapshots, "ownership-snapshots")
	if err != nil {
		r.t.Fatal(err)
	}
	defer store.Close()
	byName := map[string]targets.Target{}
	for _, s := range r.list() {
		byName[s.Name] = s
	}
	for _, name := range names {
		s, ok := byName[name]
		if !ok {
			r.t.Fatalf("no target %s", name)
		}
		rt, paths, err := targets.Resolve(ctx, check.Target{}, s)
		if err != nil {
			r.t.Fatal(err)
		}
		reads := render.NewReads()
		if _, err := render.RenderAll(ctx, paths, render.Options{Config: config.Default(), Namespace: "default", Deployer: rt.Deployer, Values: anyValues{}, Reads: reads}); err != nil {
			r.t.Fatalf("%s: %v", name, err)
		}
		files, dirs, outside := reads.Relative(r.Dir)
		snap := &snapshot.Snapshot{Index: snapshot.Index{
			Environment: name, FieldManager: s.FieldManager, SourceCommit: r.base,
			Secrets: snapshot.Hashing{Algorithm: "sha256", Salt: "test"},
			Inputs:  &snapshot.Inputs{Files: files, Dirs: dirs, Outside: outside},
		}}
		if _, err := store.Write(ctx, snap, "test"); err != nil {
			r.t.Fatal(err)
		}
	}
}

// anyValues answers every substitution source with one value: what a
// render reads does not depend on the values.
type anyValues struct{}

func (anyValues) Values(context.Context, string, string, string, *model.StandIns) (map[string]string, string, bool, error) {
	return map[string]string{"cluster_name": "test"}, "cluster", true, nil
}
