package check_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestBuildLeavesNothingRunning: when the head's render fails, Build
// returns only once what it started beside it (here the base's render
// from git) has stopped: no goroutine left running, no base tree left in
// the temporary directory. Offline against the demo's snapshot bundle, so
// no API server is needed.
func TestBuildLeavesNothingRunning(t *testing.T) {
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(root, "testdata", "demo", demoBundle)
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(repo, "app"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "app", "settings.yaml"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	write("apiVersion: v1\nkind: ConfigMap\nmetadata: [\n")

	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	opts := check.Options{
		Target: check.Target{FieldManager: deployer, Environment: demoEnvironment, Cluster: check.Cluster{Namespace: "shop"}, Snapshot: runstate.Branch{Repo: bundle}},
		Paths:  []string{filepath.Join(repo, "app")}, Offline: true, Base: base,
		FailOn: model.DefaultFailOn(),
	}
	for range 5 {
		before := runtime.NumGoroutine()
		_, err := command.Check(context.Background(), opts, check.RunOptions{})
		if err == nil || !strings.Contains(err.Error(), "settings.yaml") || strings.Contains(err.Error(), "base ") {
			t.Fatalf("Build: %v, want the head's render to fail", err)
		}
		if busy := runningIn("/internal/check.", "/internal/render.", "/internal/gitexec.", "/internal/snapshot."); len(busy) > 0 {
			t.Fatalf("Build returned while its goroutines still run:\n%s", strings.Join(busy, "\n\n"))
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Fatalf("Build returned with %s in the temporary directory: the base's render outlived it", left[0].Name())
		}
		// A goroutine that has signalled its end may take a moment to
		// be gone; one still working never is.
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Fatalf("%d goroutines after Build, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// runningIn are the stacks of the goroutines other than the caller's that
// are inside a function of one of the packages.
func runningIn(pkgs ...string) []string {
	buf := make([]byte, 1<<20)
	stacks := strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")
	var out []string
	for _, s := range stacks[1:] { // the first is the caller's
		for _, p := range pkgs {
			if strings.Contains(s, p) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}
