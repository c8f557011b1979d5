package monorepo

import (
	"os/exec"
	"strings"
	"testing"
)

// Repo is the platform repository in a git working tree, as a pull
// request's job sees it: its base a commit, the change the working tree.
type Repo struct {
	t   testing.TB
	Dir string
}

// NewRepo writes apps apps (Write) into a new git repository, not
// committed yet.
func NewRepo(t testing.TB, apps int, ns, fieldManager string) *Repo {
	t.Helper()
	r := InitRepo(t, t.TempDir())
	if err := Write(r.Dir, apps, ns, fieldManager); err != nil {
		t.Fatal(err)
	}
	return r
}

// InitRepo makes dir, and what is in it, a new git repository, nothing
// committed yet.
func InitRepo(t testing.TB, dir string) *Repo {
	t.Helper()
	r := &Repo{t: t, Dir: dir}
	r.Git("init", "-q")
	return r
}

// Git runs git in the repository as a developer and returns its output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir = r.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes content to rel in the working tree.
func (r *Repo) Write(rel, content string) {
	r.t.Helper()
	if err := WriteFile(r.Dir, rel, content); err != nil {
		r.t.Fatal(err)
	}
}

// Commit commits the working tree and returns the commit id.
func (r *Repo) Commit(msg string) string {
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

// Restore undoes the working tree's changes to committed files.
func (r *Repo) Restore() { r.Git("checkout", "-q", "--", ".") }
