package snapshot

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestShallowCheckoutFetchesTheTipAlone: a CI checkout at depth 1 fetches
// the snapshot branch at depth 1 too, however long its history, writes
// on top of it, and still reads an older commit when asked for one; a
// full clone is never made shallow.
func TestShallowCheckoutFetchesTheTipAlone(t *testing.T) {
	bare, clones := newRemote(t, 1)
	writer := openStore(t, clones[0])
	var commits []string
	for i := range 5 {
		snap := newSnapshot("prod", hasher(t), fixtures()[:1+i%2]...)
		commits = append(commits, mustWrite(t, writer, snap))
	}
	if got := git(t, clones[0], "rev-parse", "--is-shallow-repository"); got != "false" {
		t.Fatalf("the full clone became shallow: %s", got)
	}
	shallow := filepath.Join(t.TempDir(), "ci")
	git(t, clones[0], "clone", "-q", "--depth=1", "file://"+bare, shallow)
	s := openStore(t, shallow)
	got, err := s.Read(ctx, "prod", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Commit != commits[4] {
		t.Fatalf("read %s, want the tip %s", got.Commit, commits[4])
	}
	if n := git(t, shallow, "rev-list", "--count", s.trackingRef()); n != "1" {
		t.Errorf("fetched %s commits of the branch, want 1", n)
	}
	c := mustWrite(t, s, newSnapshot("dev", hasher(t), fixtures()[:1]...))
	if parent := git(t, bare, "rev-parse", c+"^"); parent != commits[4] {
		t.Errorf("a commit from the shallow checkout has parent %s, want %s", parent, commits[4])
	}
	if _, err := s.Read(ctx, "prod", commits[1]); err != nil {
		t.Errorf("an older commit from the shallow checkout: %v", err)
	}
	if !strings.Contains(git(t, shallow, "rev-parse", "--is-shallow-repository"), "true") {
		t.Errorf("the checkout is no longer shallow")
	}
}
