package gitexec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTreesSparseAndChanges: a sparse tree holds the folders asked, their
// own files only (a folder whose name reads as a pattern included), and
// what the working tree changed since a commit tells which files read the
// same there: a modified, an added, a deleted, an untracked and an
// ignored file.
func TestTreesSparseAndChanges(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		if _, err := Run(ctx, Where{Dir: dir, Env: []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}}, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	for _, f := range []string{"a/x.yaml", "a/b/y.yaml", "c/z.yaml", "d[1]/w.yaml", "keep.yaml", "gone.yaml", ".gitignore"} {
		write(f, f+"\n")
	}
	write(".gitignore", "ignored.yaml\n")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	commit, err := Head(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}

	var ts Trees
	defer ts.Close()
	// Listed by the folders, and (a pattern) from the whole tree.
	for _, dirs := range [][]string{{"a", "c"}, {"a", "c", "d[1]"}} {
		sparse, err := ts.Sparse(ctx, dir, commit, dirs)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{"a/x.yaml": true, "c/z.yaml": true, "d[1]/w.yaml": len(dirs) == 3, "a/b/y.yaml": false, "keep.yaml": false}
		for f, want := range want {
			if _, err := os.Stat(filepath.Join(sparse, filepath.FromSlash(f))); (err == nil) != want {
				t.Errorf("sparse tree of %q: %s there = %v, want %v", dirs, f, err == nil, want)
			}
		}
	}

	write("c/z.yaml", "changed\n")
	write("staged.yaml", "new\n")
	git("add", "staged.yaml")
	write("a/untracked.yaml", "new\n")
	write("ignored.yaml", "ignored\n")
	if err := os.Remove(filepath.Join(dir, "gone.yaml")); err != nil {
		t.Fatal(err)
	}
	changed, err := ts.Changed(ctx, dir, commit)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changed {
		got = append(got, string(c.Status)+" "+c.Path)
	}
	if want := []string{"M c/z.yaml", "D gone.yaml", "A staged.yaml", "A a/untracked.yaml"}; !slices.Equal(got, want) {
		t.Errorf("Changed = %q, want %q (the diff's order, then the untracked)", got, want)
	}
	for _, c := range []struct {
		files, dirs []string
		want        bool
	}{
		{[]string{"keep.yaml", "a/b/y.yaml"}, []string{"c"}, true},
		{[]string{"c/z.yaml"}, nil, false},
		{[]string{"gone.yaml"}, nil, false},
		{[]string{"staged.yaml"}, nil, false},
		{[]string{"ignored.yaml"}, nil, false},
		{[]string{"keep.yaml"}, []string{"a"}, false},
		{[]string{"keep.yaml"}, []string{"."}, false},
	} {
		if got := ts.Unchanged(ctx, dir, commit, c.files, c.dirs); got != c.want {
			t.Errorf("Unchanged(%q, %q) = %v, want %v", c.files, c.dirs, got, c.want)
		}
	}
}

// TestCatFiles: files read by path at a commit, one there (its name with
// a space), one not, in the order asked.
func TestCatFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	if err := os.MkdirAll(filepath.Join(dir, "my env"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "my env", "index.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "first"}} {
		if _, err := Run(ctx, Where{Dir: dir, Env: env}, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	head, err := Head(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = CatFiles(ctx, Where{Dir: dir}, []string{head + ":gone/index.json", head + ":my env/index.json", head + ":none"}, func(i int, data []byte, found bool) error {
		got = append(got, fmt.Sprintf("%d %q %v", i, data, found))
		return nil
	})
	if want := []string{`0 "" false`, `1 "{}" true`, `2 "" false`}; err != nil || !slices.Equal(got, want) {
		t.Errorf("CatFiles: %q, %v; want %q", got, err, want)
	}
}
