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
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// pinnedRepo is a Flux repository whose apps the production cluster
// takes from the production branch and a release range of tags, and the
// dev cluster from main, cloned shallow from its remote as a pull
// request's checkout is (or whole, as a developer's); the working tree holds the pull request's
// change to the app. It returns the checkout's directory and the
// remote's commits of production and the highest release tag.
func pinnedRepo(t *testing.T, shallow bool) (dir, production, release string) {
	t.Helper()
	git := func(dir string, args ...string) string { t.Helper(); return gitAsDev(t, dir, args...) }
	write := func(dir, file, content string) { t.Helper(); writeIn(t, dir, file, content) }
	app := func(color string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app, namespace: web}\ndata: {color: " + color + "}\n"
	}
	bare := filepath.Join(t.TempDir(), "platform.git")
	src := t.TempDir()
	git(src, "init", "-q")
	source := func(name, ref string) string {
		return "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: " + name + ", namespace: flux-system}\n" +
			"spec:\n  url: https://github.com/example/platform\n  ref: " + ref + "\n"
	}
	kustomization := func(name, src string) string {
		return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: " + name + ", namespace: flux-system}\n" +
			"spec: {path: ./apps, sourceRef: {kind: GitRepository, name: " + src + "}}\n"
	}
	write(src, config.DefaultFile, "repositories: [https://github.com/example/platform]\ndiscover:\n- flux: clusters\n  context: production\n")
	write(src, "clusters/sources.yaml", source("production", "{branch: production}")+"---\n"+source("release", "{semver: '1.x'}")+"---\n"+source("main", "{branch: main}"))
	write(src, "clusters/prod.yaml", kustomization("prod", "production"))
	write(src, "clusters/release.yaml", kustomization("release", "release"))
	write(src, "clusters/dev.yaml", kustomization("dev", "main"))
	write(src, "apps/kustomization.yaml", "resources: [app.yaml]\n")
	write(src, "apps/app.yaml", app("blue"))
	git(src, "add", ".")
	git(src, "commit", "-q", "-m", "blue")
	git(src, "tag", "v1.0.0")
	git(src, "branch", "production")
	write(src, "apps/app.yaml", app("green"))
	git(src, "commit", "-q", "-am", "green")
	git(src, "tag", "-a", "-m", "release", "v1.1.0")
	write(src, "apps/app.yaml", app("red"))
	git(src, "commit", "-q", "-am", "red")
	git(src, "clone", "-q", "--bare", src, bare)

	dir = filepath.Join(t.TempDir(), "checkout")
	clone := []string{"clone", "-q", "file://" + bare, dir}
	if shallow {
		clone = append(clone, "--depth=1")
	}
	git(src, clone...)
	write(dir, "apps/app.yaml", app("purple")) // the pull request's change
	return dir, git(src, "rev-parse", "production"), git(src, "rev-parse", "v1.1.0^{commit}")
}

// TestPinnedRevisions: a target whose GitRepository pins another branch
// or a tag range renders from that revision's tree, fetched into the
// shallow checkout, and names it; one pinned to the checkout's branch
// renders the pull request's head; a change to the app's files selects
// only the latter.
func TestPinnedRevisions(t *testing.T) {
	for _, shallow := range []bool{true, false} {
		t.Run(map[bool]string{true: "shallow", false: "whole"}[shallow], func(t *testing.T) { testPinnedRevisions(t, shallow) })
	}
}

func testPinnedRevisions(t *testing.T, shallow bool) {
	dir, production, release := pinnedRepo(t, shallow)
	t.Chdir(dir)
	ctx := context.Background()
	cfg, err := config.Load(config.DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	all, err := targets.List(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]targets.Target{}
	for _, x := range all {
		byName[x.Name] = x
	}
	for name, want := range map[string]struct{ commit, color, note string }{
		"flux-system/prod":    {production, "blue", "rendered at production@" + production[:12] + ", which GitRepository flux-system/production spec.ref.branch pins"},
		"flux-system/release": {release, "green", "rendered at 1.x@" + release[:12]},
		"flux-system/dev":     {"", "purple", ""},
	} {
		x, ok := byName[name]
		if !ok || !x.Checked() {
			t.Fatalf("%s: found %v, reason %q", name, ok, x.Reason)
		}
		rev := x.Deployer.Revision
		if rev == nil || rev.Pinned() != (want.commit != "") || rev.Pinned() && rev.Commit != want.commit {
			t.Errorf("%s: revision %+v; want commit %q", name, rev, want.commit)
		}
		if got := strings.Join(x.Notes, "\n"); want.note == "" && got != "" || !strings.Contains(got, want.note) {
			t.Errorf("%s: notes %q; want %q", name, got, want.note)
		}
		ct, paths, err := targets.Resolve(ctx, check.Target{}, x)
		if err != nil {
			t.Fatal(err)
		}
		objs, _, err := command.Render(ctx, ct, check.RunOptions{}, paths, check.RenderOptions{ClusterOptional: true})
		if err != nil {
			t.Fatalf("%s: render: %v", name, err)
		}
		if len(objs) != 1 || objs[0].Object.Object["data"].(map[string]any)["color"] != want.color {
			t.Errorf("%s: rendered %v; want the ConfigMap colored %s", name, objs, want.color)
		}
	}

	base := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	sel, err := targets.SelectFrom(ctx, all, targets.SelectOptions{ChangedFrom: base, SnapshotRepo: dir, SnapshotBranch: "ownership-snapshots"})
	if err != nil {
		t.Fatal(err)
	}
	var picked []string
	for _, s := range sel.Targets {
		picked = append(picked, s.Name)
	}
	if strings.Join(picked, ",") != "flux-system/dev" {
		t.Errorf("a change to apps/app.yaml selected %v; want the target pinned to the checkout's branch alone", picked)
	}
}

// gitAsDev runs git in dir as a developer whose default branch is main.
func gitAsDev(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// writeIn writes file (slash-separated, relative to dir), its folders too.
func writeIn(t *testing.T, dir, file, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

// TestPinnedCheck: on the API server, the check of a pinned target
// renders its revision at head and base alike, so a pull request that
// changes only the working tree's files leaves it unchanged, and its
// report names the revision; the target on the checkout's branch sees
// the change.
func TestPinnedCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the API server")
	}
	newGitOpsCluster(t)
	dir, production, _ := pinnedRepo(t, true)
	t.Chdir(dir)
	ctx := context.Background()
	cfg, err := config.Load(config.DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := targets.Select(ctx, cfg, targets.SelectOptions{Names: []string{"flux-system/prod", "flux-system/dev"}})
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	tg := check.Target{FieldManager: "kustomize-controller", Snapshot: runstate.Branch{Repo: dir}}
	res := targets.Build(ctx, check.Options{Target: tg, Base: base, FailOn: model.DefaultFailOn()}, runFor(t, ctx, tg, check.RunOptions{}), sel.Targets)
	for _, r := range res {
		if r.Err != nil || r.Report == nil {
			t.Fatalf("%s: %v", r.Name, r.Err)
		}
		pinned := r.Name == "flux-system/prod"
		if r.Report.Unchanged != pinned {
			t.Errorf("%s: unchanged %v; want %v", r.Name, r.Report.Unchanged, pinned)
		}
		if want := map[bool]string{true: "production@" + production[:12]}[pinned]; r.Report.Revision != want {
			t.Errorf("%s: revision %q; want %q", r.Name, r.Report.Revision, want)
		}
	}
}
