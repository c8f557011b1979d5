package targets_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// BenchmarkTargets90 times a monorepo's 90 targets checked by one process
// (check --target all) against 90 separate check processes, each of one
// target, on the same API server; both with the release binary.
//
//	go test -run '^$' -bench Targets90 -benchtime 3x ./internal/targets
func BenchmarkTargets90(b *testing.B) {
	testcluster.Require(b, cluster)
	bin := filepath.Join(b.TempDir(), "ownership-check")
	root, err := testcluster.ModuleRoot()
	if err != nil {
		b.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/ownership-check")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v: %s", err, out)
	}
	r := monorepo.NewRepo(b, 30, "bench-targets", deployer)
	r.Commit("x")
	dir := r.Dir
	kubeconfig := cluster.KubeconfigFile(b)
	repo := filepath.Join(b.TempDir(), "snapshots")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	run := func(args ...string) {
		cmd := exec.Command(bin, append(args, "--field-manager", deployer, "--kubeconfig", kubeconfig, "--snapshot-repo", repo)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(err.Error(), "exit status 1") {
			b.Fatalf("%v: %v: %s", args, err, out)
		}
	}
	ns := exec.Command(testcluster.Tool(b, "kubectl"), "--kubeconfig", kubeconfig, "create", "namespace", "bench-targets")
	_ = ns.Run()
	var paths []string
	for a := range 30 {
		for _, env := range monorepo.Overlays {
			paths = append(paths, filepath.Join("apps", monorepo.App(a), "overlays", env))
		}
	}
	for _, p := range paths {
		cmd := exec.Command(testcluster.Tool(b, "kubectl"), "--kubeconfig", kubeconfig, "apply", "--server-side", "--field-manager", deployer, "-k", p)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("kubectl apply -k %s: %v: %s", p, err, out)
		}
	}
	run("snapshot", "--target", "all")

	b.Run("one-process", func(b *testing.B) {
		for b.Loop() {
			run("check", "--target", "all", "--output", "json")
		}
	})
	b.Run("separate-processes", func(b *testing.B) {
		for b.Loop() {
			for i, p := range paths {
				run("check", p, "--environment", fmt.Sprintf("%s-%s", monorepo.App(i/3), monorepo.Overlays[i%3]), "--output", "json")
			}
		}
	})
}

// BenchmarkSelect500 times choosing the affected targets among 500
// from their recorded inputs: one git diff, one read of 500 index files.
//
//	go test -short -run '^$' -bench Select500 -benchtime 5x ./internal/targets
func BenchmarkSelect500(b *testing.B) {
	ctx := context.Background()
	const apps = 167 // × 3 overlays: 501 targets
	r := monorepo.NewRepo(b, apps, "bench", deployer)
	base := r.Commit("x")
	dir := r.Dir
	cfg, err := config.Load(filepath.Join(dir, config.DefaultFile))
	if err != nil {
		b.Fatal(err)
	}
	// Each target's record, as snapshot writes it after a deploy.
	store, err := snapshot.Open(ctx, dir, "ownership-snapshots")
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range cfg.Targets {
		app := strings.Split(t.Name, "-")[0]
		snap := &snapshot.Snapshot{Index: snapshot.Index{
			Environment: t.Name, FieldManager: deployer, SourceCommit: base,
			Secrets: snapshot.Hashing{Algorithm: "sha256", Salt: "bench"},
			Inputs: &snapshot.Inputs{
				Files: []string{"apps/" + app + "/base/kustomization.yaml", "apps/" + app + "/base/settings.yaml",
					"components/common/kustomization.yaml", t.Paths[0] + "/kustomization.yaml"},
				Dirs: []string{"apps/" + app + "/base", "components/common", t.Paths[0]},
			},
		}}
		if _, err := store.Write(ctx, snap, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	store.Close()
	if err := os.WriteFile(filepath.Join(dir, "apps", "app07", "base", "settings.yaml"), []byte(monorepo.Settings("app07", "slow")), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Chdir(dir)
	b.ResetTimer()
	for b.Loop() {
		sel, err := targets.Select(ctx, cfg, targets.SelectOptions{ChangedFrom: base, SnapshotRepo: dir, SnapshotBranch: "ownership-snapshots"})
		if err != nil {
			b.Fatal(err)
		}
		if len(sel.Targets) != 3 || sel.Total != 501 {
			b.Fatalf("selected %d of %d, want 3 of 501", len(sel.Targets), sel.Total)
		}
	}
}

// BenchmarkSelectDiscovered600 times listing and selecting 600 discovered
// targets (200 apps × 3 environments, each a Flux Kustomization with its
// object file as an input, the prod ones a substitution source too) after
// a change to one app's base: discovery, one git diff, one read of 600
// index files. "by hand": the targets as discovery makes them, built by
// the test; "discovered": the real discovery reading the 600
// Kustomizations too. The bound is 1 s with discovery.
//
//	go test -short -run '^$' -bench SelectDiscovered600 -benchtime 5x ./internal/targets
func BenchmarkSelectDiscovered600(b *testing.B) {
	for _, real := range []bool{false, true} {
		name := map[bool]string{false: "by hand", true: "discovered"}[real]
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			f := newFleet(b, 200)
			f.record(b)
			if real {
				b.Cleanup(targets.UseDiscovery(gitops.Discover))
			}
			if err := os.WriteFile(filepath.Join(f.Dir, "apps", "app07", "base", "settings.yaml"), []byte(monorepo.Settings("app07", "slow")), 0o644); err != nil {
				b.Fatal(err)
			}
			b.Chdir(f.Dir)
			b.ResetTimer()
			for b.Loop() {
				sel, err := targets.Select(ctx, f.cfg, targets.SelectOptions{ChangedFrom: f.base, SnapshotRepo: f.Dir, SnapshotBranch: "ownership-snapshots"})
				if err != nil {
					b.Fatal(err)
				}
				if len(sel.Targets) != 3 || sel.Total != 601 {
					b.Fatalf("selected %d of %d, want 3 of 601", len(sel.Targets), sel.Total)
				}
			}
		})
	}
}
