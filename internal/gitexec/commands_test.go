package gitexec

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCommands: the named commands answer what their callers read, on a
// real repository.
func TestCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := Run(ctx, Where{Dir: dir, Env: []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}}, nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	if _, err := Head(ctx, dir); err == nil {
		t.Error("Head of a repository without commits")
	}
	write("a.yaml", "a: 1\n")
	write("b.yaml", "b: 1\n")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	git("remote", "add", "origin", "https://example.com/repo.git")

	head, err := Head(ctx, dir)
	if err != nil || len(head) != 40 {
		t.Fatalf("Head: %q, %v", head, err)
	}
	if c, err := CommitOf(ctx, dir, "HEAD"); c != head || err != nil {
		t.Errorf("CommitOf(HEAD): %q, %v; want %s", c, err, head)
	}
	if _, err := CommitOf(ctx, dir, "no-such-branch"); err == nil {
		t.Error("CommitOf a name that is none")
	}
	if !HasCommit(ctx, dir, head) || HasCommit(ctx, dir, "0123456789012345678901234567890123456789") {
		t.Error("HasCommit")
	}
	if u, err := RemoteURL(ctx, dir, "origin"); u != "https://example.com/repo.git" || err != nil {
		t.Errorf("RemoteURL: %q, %v", u, err)
	}
	if typ, err := ObjectType(ctx, dir, head+":a.yaml"); typ != "blob" || err != nil {
		t.Errorf("ObjectType: %q, %v", typ, err)
	}
	if size, err := ObjectSize(ctx, dir, head+":a.yaml"); size != "5" || err != nil {
		t.Errorf("ObjectSize: %q, %v", size, err)
	}
	if b, err := Blob(ctx, dir, head+":a.yaml"); string(b) != "a: 1\n" || err != nil {
		t.Errorf("Blob: %q, %v", b, err)
	}

	write("a.yaml", "a: 2\n")
	os.Remove(filepath.Join(dir, "b.yaml"))
	write("c.yaml", "c: 1\n")
	changed, err := ChangedSince(ctx, dir, head)
	want := []PathStatus{{'M', "a.yaml"}, {'D', "b.yaml"}}
	if err != nil || !slices.Equal(changed, want) {
		t.Errorf("ChangedSince: %q, %v; want %q", changed, err, want)
	}
	if u, err := Untracked(ctx, dir); !slices.Equal(u, []string{"c.yaml"}) || err != nil {
		t.Errorf("Untracked: %q, %v", u, err)
	}
}
