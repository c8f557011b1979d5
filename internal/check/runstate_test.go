package check

import (
	"context"
	"strings"
	"testing"
)

// inRun gives t a run of one, as a front end does (NewRun), ended with
// the test.
func inRun(tb testing.TB, t Target) Target {
	tb.Helper()
	run, end, err := NewRun(context.Background(), t, "")
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
	if _, _, err := Render(ctx, o.Target, o.Paths); err == nil || !strings.Contains(err.Error(), "check.NewRun") {
		t.Errorf("Render: %v", err)
	}
	if _, err := TakeSnapshot(ctx, SnapshotOptions{Target: o.Target}); err == nil || !strings.Contains(err.Error(), "check.NewRun") {
		t.Errorf("TakeSnapshot: %v", err)
	}
	if _, err := Migrate(ctx, MigrateOptions{Target: o.Target}, nil); err == nil || !strings.Contains(err.Error(), "check.NewRun") {
		t.Errorf("Migrate: %v", err)
	}
}
