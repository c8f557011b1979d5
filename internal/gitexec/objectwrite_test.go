package gitexec

import (
	"context"
	"slices"
	"testing"
)

// TestStoreCommands: a bare repository's blobs, trees, commits and refs,
// written and read through GIT_DIR alone, as the snapshot store writes its
// branch.
func TestStoreCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	w := Where{GitDir: dir, Env: []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}}
	if err := InitBare(ctx, w, dir); err != nil {
		t.Fatal(err)
	}
	if err := CheckRefFormat(ctx, "refs/heads/ok"); err != nil {
		t.Errorf("CheckRefFormat(ok): %v", err)
	}
	if err := CheckRefFormat(ctx, "refs/heads/no..dots"); err == nil {
		t.Error("CheckRefFormat took a malformed ref")
	}
	oids, err := WriteBlobs(ctx, w, [][]byte{[]byte("a\n"), []byte("b\n")})
	if err != nil || len(oids) != 2 {
		t.Fatalf("WriteBlobs: %v, %v", oids, err)
	}
	root, err := BuildTree(ctx, w, []IndexEntry{{OID: oids[0], Path: "x/a"}, {OID: oids[1], Path: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ListTree(ctx, w, root, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Path+"="+e.OID)
	}
	if want := []string{"b=" + oids[1], "x/a=" + oids[0]}; !slices.Equal(got, want) {
		t.Errorf("ListTree: %v, want %v", got, want)
	}
	top, err := ListTree(ctx, w, root, false)
	if err != nil {
		t.Fatal(err)
	}
	same, err := MakeTree(ctx, w, top)
	if err != nil || same != root {
		t.Errorf("MakeTree of the tree's own entries: %q, %v; want %s", same, err, root)
	}
	if c, err := ResolveCommit(ctx, w, "refs/heads/none"); c != "" || err != nil {
		t.Errorf("ResolveCommit of no branch: %q, %v", c, err)
	}
	first, err := CommitTree(ctx, w, root, "", "first")
	if err != nil {
		t.Fatal(err)
	}
	second, err := CommitTree(ctx, w, root, first, "second")
	if err != nil {
		t.Fatal(err)
	}
	const ref = "refs/heads/store"
	if err := MoveRef(ctx, w, ref, first, "", "m"); err != nil {
		t.Fatal(err)
	}
	if err := MoveRef(ctx, w, ref, second, second, "m"); err == nil {
		t.Error("MoveRef moved a ref that was not at old")
	}
	if err := SetRef(ctx, w, ref, second); err != nil {
		t.Fatal(err)
	}
	if c, err := ResolveCommit(ctx, w, ref); c != second || err != nil {
		t.Errorf("ResolveCommit after SetRef: %q, %v; want %s", c, err, second)
	}
	if err := DeleteRef(ctx, w, ref); err != nil {
		t.Fatal(err)
	}
	if c, _ := ResolveCommit(ctx, w, ref); c != "" {
		t.Errorf("ResolveCommit after DeleteRef: %q", c)
	}
	if IsShallow(ctx, w) {
		t.Error("IsShallow of a new repository")
	}
	if err := AddRemote(ctx, w, "origin", "https://example.com/r.git"); err != nil {
		t.Fatal(err)
	}
	if rs, err := Remotes(ctx, w); err != nil || !slices.Equal(rs, []string{"origin"}) {
		t.Errorf("Remotes: %v, %v", rs, err)
	}
}
