package gitexec

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestResolveRevisions: branches, tags (light and annotated), semver
// ranges, ref names and commits resolve against a real remote as
// source-controller and Argo CD's repo-server resolve them, from a
// shallow clone that has none of them, which then fetches the commit.
func TestResolveRevisions(t *testing.T) {
	ctx := context.Background()
	env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	gitIn := func(dir string, args ...string) string {
		t.Helper()
		out, err := Run(ctx, Where{Dir: dir, Env: env}, nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	src := t.TempDir()
	commit := func(file, content string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(src, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(src, "add", ".")
		gitIn(src, "commit", "-q", "-m", file+" "+content)
		return gitIn(src, "rev-parse", "HEAD")
	}
	gitIn(src, "init", "-q", "-b", "main")
	c1 := commit("app.yaml", "v1")
	gitIn(src, "tag", "v1.0.0")
	c2 := commit("app.yaml", "v1.1")
	gitIn(src, "tag", "-a", "-m", "release", "v1.1.0")
	gitIn(src, "tag", "not-a-version")
	c3 := commit("app.yaml", "v2")
	gitIn(src, "tag", "v2.0.0")
	gitIn(src, "branch", "production", c2)
	c4 := commit("app.yaml", "head")

	clone := filepath.Join(t.TempDir(), "clone")
	gitIn("", "clone", "-q", "--depth=1", "--no-tags", "--single-branch", "file://"+src, clone)
	if !IsShallow(ctx, Where{Dir: clone}) {
		t.Fatal("the clone is not shallow")
	}
	remote, err := RemoteRefs(ctx, clone, "origin")
	if err != nil {
		t.Fatal(err)
	}
	if remote.Default != "main" || remote.Remote != "origin" {
		t.Errorf("remote refs: default %q from %q; want main from origin", remote.Default, remote.Remote)
	}
	for _, c := range []struct{ kind, ref, want string }{
		{"branch", "production", c2},
		{"branch", "main", c4},
		{"tag", "v1.0.0", c1},
		{"tag", "v1.1.0", c2}, // annotated: the commit, not the tag object
		{"semver", ">=1.0.0 <2.0.0", c2},
		{"semver", "1.x", c2},
		{"semver", "*", c3},
		{"name", "refs/heads/production", c2},
		{"name", "refs/tags/v2.0.0", c3},
		{"ref", "production", c2},
		{"ref", "v1.0.0", c1},
		{"commit", c1, c1},
		{"ref", c2[:7], c2}, // a commit cut short, as Argo CD takes one
		{"ref", strings.ToUpper(c3[:12]), c3},
	} {
		got, err := remote.Resolve(c.kind, c.ref)
		if err != nil || got != c.want {
			t.Errorf("Resolve(%s %s) = %q, %v; want %s", c.kind, c.ref, got, err, c.want)
		}
	}
	for _, c := range []struct{ kind, ref, want string }{
		{"branch", "staging", "branch staging: not in the remote origin"},
		{"semver", ">=3.0.0", "semver >=3.0.0: no tag of the remote origin is in the range"},
		{"semver", "not a range", "semver not a range: not a version range"},
		{"ref", "0123abc", "0123abc: no branch or tag of the remote origin has that name, nor does the commit of one begin with it"},
	} {
		if _, err := remote.Resolve(c.kind, c.ref); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resolve(%s %s): %v; want %q", c.kind, c.ref, err, c.want)
		}
	}
	if got := remote.BranchesAt(c4); !slices.Equal(got, []string{"main"}) {
		t.Errorf("BranchesAt(main's tip) = %v", got)
	}

	// The shallow clone has the head alone: production's commit is
	// fetched, and its parents stay named though absent.
	if HasCommit(ctx, clone, c2) {
		t.Fatal("the shallow clone has production's commit already")
	}
	if err := EnsureCommit(ctx, clone, "origin", c2); err != nil || !HasCommit(ctx, clone, c2) {
		t.Fatalf("EnsureCommit(production): %v", err)
	}
	heads, err := HeadAndParents(ctx, clone)
	if err != nil || !slices.Equal(heads, []string{c4, c3}) {
		t.Errorf("HeadAndParents = %v, %v; want [%s %s]", heads, err, c4, c3)
	}
	if b := CurrentBranch(ctx, clone); b != "main" {
		t.Errorf("CurrentBranch = %q", b)
	}

	// The repository's own refs answer without the network, its default
	// branch unknown.
	local, err := LocalRefs(ctx, src, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := local.Resolve("semver", "~1.0"); err != nil || got != c1 {
		t.Errorf("local semver ~1.0 = %q, %v; want %s", got, err, c1)
	}
	if got, err := local.Resolve("tag", "v1.1.0"); err != nil || got != c2 {
		t.Errorf("local annotated tag = %q, %v; want %s", got, err, c2)
	}
	// A commit cut short that no ref names is looked up among the
	// repository's commits, which a shallow clone does not have.
	if got, err := CommitBeginning(ctx, src, c1[:9]); err != nil || got != c1 {
		t.Errorf("CommitBeginning(%s) = %q, %v; want %s", c1[:9], got, err, c1)
	}
	if got, err := CommitBeginning(ctx, clone, c1[:9]); err == nil {
		t.Errorf("CommitBeginning in the shallow clone = %q; want none", got)
	}
	if err := EnsureCommit(ctx, src, "", "0123456789012345678901234567890123456789"); err == nil {
		t.Error("EnsureCommit of a commit nobody has")
	}
}
