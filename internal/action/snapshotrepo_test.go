package action

import "testing"

// TestActionSnapshotRepo: the snapshot-repo input reaches every mode.
func TestActionSnapshotRepo(t *testing.T) {
	e := newActionEnv(t, "push.json", cleanActionReport(), nil)
	t.Setenv("INPUT_SNAPSHOT-REPO", "https://github.example/platform/snapshots.git")
	if code, _ := e.run(); code != ExitOK {
		t.Fatalf("check: exit %d", code)
	}
	if got := e.opts[0].Snapshot.Repo; got != "https://github.example/platform/snapshots.git" {
		t.Errorf("check: snapshot repo %q", got)
	}
	t.Setenv("INPUT_MODE", "migrate")
	seen := stubMigrate(t, "", nil)
	if code, _ := e.run(); code != ExitOK {
		t.Fatalf("migrate: exit %d", code)
	}
	if got := (*seen)[0].Snapshot.Repo; got != "https://github.example/platform/snapshots.git" {
		t.Errorf("migrate: snapshot repo %q", got)
	}
}
