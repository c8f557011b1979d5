package reliability_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestSnapshotFromNewerSchema: a snapshot a newer ownership-check wrote
// stops check with exit 2 and a message naming the file and saying to
// upgrade (comparing against nothing would hide drift), and the older tool's
// snapshot command does not overwrite it.
func TestSnapshotFromNewerSchema(t *testing.T) {
	testcluster.Require(t, cluster)
	ns := freshNamespace(t, "schema")
	objs := configMaps(ns, 2)
	for _, o := range objs {
		apply(t, cluster.Config(), deployer, o)
	}
	repo, kubeconfig, manifests := gitRepo(t), cluster.KubeconfigFile(t), writeManifests(t, objs)
	snapArgs := []string{"snapshot", manifests, "--field-manager", deployer, "--kubeconfig", kubeconfig,
		"--snapshot-repo", repo, "--source-commit", "0123456789abcdef0123456789abcdef01234567"}
	if r := run(t, snapArgs...); r.code != 0 {
		t.Fatalf("snapshot: %d %s", r.code, r.stderr)
	}
	// A newer tool's snapshot on top.
	wt := filepath.Join(t.TempDir(), "wt")
	gitIn(t, repo, "worktree", "add", "-q", wt, "ownership-snapshots")
	index := filepath.Join(wt, "default", "index.json")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	newer := strings.Replace(string(data), `"schemaVersion": 1`, `"schemaVersion": 2`, 1)
	if err := os.WriteFile(index, []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, wt, "commit", "-q", "-am", "newer tool")
	gitIn(t, repo, "worktree", "remove", "--force", wt)
	tip := gitIn(t, repo, "rev-parse", "ownership-snapshots")

	r := run(t, checkArgs(kubeconfig, repo, manifests)...)
	if r.code != 2 || r.stdout != "" {
		t.Fatalf("check: want exit 2 and no report, got %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"default/index.json", "newer", "upgrade"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("check's error does not say %q: %s", want, r.stderr)
		}
	}
	t.Log(strings.TrimSpace(r.stderr))

	r = run(t, snapArgs...)
	after := gitIn(t, repo, "rev-parse", "ownership-snapshots")
	t.Logf("snapshot over a newer one: exit %d: %s", r.code, strings.TrimSpace(r.stderr))
	if r.code != 2 || after != tip {
		t.Errorf("snapshot over a newer schema: want exit 2 and the branch left at %s, got exit %d and %s", tip, r.code, after)
	}
}
