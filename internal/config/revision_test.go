package config

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// pullRequestCheckout makes what a pull request's job sees: origin, a bare
// repository whose main has the trusted config (the base commit) and whose
// pull request ref changes it; the checkout is actions/checkout's default,
// the pull request's commit alone at depth 1.
func pullRequestCheckout(t *testing.T) (checkout, base string) {
	t.Helper()
	root := t.TempDir()
	origin := filepath.Join(root, "origin.git")
	dev := filepath.Join(root, "dev")
	gitIn(t, root, "init", "-q", "--bare", origin)
	gitIn(t, root, "init", "-q", dev)
	writeFile(t, dev, DefaultFile, "ignore:\n- path: .spec.replicas\n  kind: Deployment\n")
	if err := os.MkdirAll(filepath.Join(dev, "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dev, "deploy/app.yaml", "kind: ConfigMap\n")
	gitIn(t, dev, "add", ".")
	gitIn(t, dev, "commit", "-q", "-m", "base")
	base = gitIn(t, dev, "rev-parse", "HEAD")
	gitIn(t, dev, "push", "-q", origin, "HEAD:refs/heads/main")
	writeFile(t, dev, DefaultFile, "ignore:\n- path: .spec\n")
	gitIn(t, dev, "commit", "-q", "-am", "pull request")
	gitIn(t, dev, "push", "-q", origin, "HEAD:refs/pull/1/merge")

	checkout = filepath.Join(root, "checkout")
	gitIn(t, root, "init", "-q", checkout)
	gitIn(t, checkout, "remote", "add", "origin", "file://"+origin)
	gitIn(t, checkout, "fetch", "-q", "--depth=1", "origin", "refs/pull/1/merge")
	gitIn(t, checkout, "checkout", "-q", "FETCH_HEAD")
	return checkout, base
}

func TestReadAtCommitFetchesTheBaseCommit(t *testing.T) {
	checkout, base := pullRequestCheckout(t)
	if _, err := exec.Command("git", "-C", checkout, "cat-file", "-e", base+"^{commit}").CombinedOutput(); err == nil {
		t.Fatal("the depth-1 checkout already has the base commit: the test proves nothing")
	}
	ctx := context.Background()
	data, found, err := ReadAtCommit(ctx, checkout, base, DefaultFile)
	if err != nil || !found {
		t.Fatalf("found %v, err %v", found, err)
	}
	if !strings.Contains(string(data), ".spec.replicas") {
		t.Errorf("read the pull request's config, not the base's: %s", data)
	}
	// From a subdirectory, paths are relative to it, as everywhere else.
	data, found, err = ReadAtCommit(ctx, filepath.Join(checkout, "deploy"), base, "../"+DefaultFile)
	if err != nil || !found || !strings.Contains(string(data), ".spec.replicas") {
		t.Errorf("from a subdirectory: found %v, err %v", found, err)
	}
	if p := RepoPath(ctx, filepath.Join(checkout, "deploy"), "app.yaml"); p != "deploy/app.yaml" {
		t.Errorf("RepoPath = %q", p)
	}
	_, found, err = ReadAtCommit(ctx, checkout, base, "nope.yaml")
	if err != nil || found {
		t.Errorf("a file the base commit lacks: found %v, err %v; want not found", found, err)
	}
	_, _, err = ReadAtCommit(ctx, checkout, base, "deploy")
	if err == nil || !strings.Contains(err.Error(), "not a file") {
		t.Errorf("a directory: %v", err)
	}
}

func TestReadAtCommitErrors(t *testing.T) {
	checkout, _ := pullRequestCheckout(t)
	ctx := context.Background()
	unknown := strings.Repeat("ab", 20)
	_, found, err := ReadAtCommit(ctx, checkout, unknown, DefaultFile)
	if err == nil || found || !strings.Contains(err.Error(), "fetching it failed") {
		t.Errorf("a commit origin does not have: found %v, err %v", found, err)
	}
	if _, _, err := ReadAtCommit(ctx, checkout, "--upload-pack=touch /tmp/x", DefaultFile); err == nil || !strings.Contains(err.Error(), "not a full commit id") {
		t.Errorf("an option for a commit: %v", err)
	}
	if _, _, err := ReadAtCommit(ctx, t.TempDir(), unknown, DefaultFile); err == nil {
		t.Error("outside a git repository: no error")
	}
	if _, _, err := ReadAtCommit(ctx, checkout, unknown, filepath.Join(t.TempDir(), "x.yaml")); err == nil || !strings.Contains(err.Error(), "outside the git repository") {
		t.Errorf("a file outside the repository: %v", err)
	}
}
