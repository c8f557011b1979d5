package check

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inRun gives t a run of one, as a front end does (NewRun), ended with
// the test.
func inRun(tb testing.TB, t Target) Target {
	tb.Helper()
	run, end, err := NewRun(context.Background(), t, RunOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(end)
	t.Run = run
	return t
}

// TestNoRunIsAnError: a check without a run is its caller's mistake,
// named, not a run made behind its back.
func TestNoRunIsAnError(t *testing.T) {
	ctx := context.Background()
	o := Options{Target: Target{FieldManager: "m"}, Paths: []string{t.TempDir()}, FailOn: "none"}
	if _, err := Build(ctx, o); err == nil || !strings.Contains(err.Error(), "check.NewRun") {
		t.Errorf("Build: %v", err)
	}
	if _, _, err := Render(ctx, o.Target, o.Paths, RenderOptions{}); err == nil || !strings.Contains(err.Error(), "check.NewRun") {
		t.Errorf("Render: %v", err)
	}
	if _, err := TakeSnapshot(ctx, SnapshotOptions{Target: o.Target}); err == nil || !strings.Contains(err.Error(), "check.NewRun") {
		t.Errorf("TakeSnapshot: %v", err)
	}
	if _, err := Migrate(ctx, MigrateOptions{Target: o.Target}, nil); err == nil || !strings.Contains(err.Error(), "check.NewRun") {
		t.Errorf("Migrate: %v", err)
	}
}

// TestCheckReadsNoEnvironment: what a check takes from the environment
// the front end read into its run (runstate.Env), so that a check runs
// as its maker says (docs/architecture.md).
func TestCheckReadsNoEnvironment(t *testing.T) {
	reads := []string{"os.Getenv", "os.LookupEnv", "os.Environ", "KeyFromEnv", "EnvLimits(", "ReadEnv("}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, r := range reads {
			if strings.Contains(string(src), r) {
				t.Errorf("%s reads the environment (%s): the front end reads it into the run", path, r)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
