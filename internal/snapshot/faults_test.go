package snapshot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// installHook makes the bare remote refuse every push with a message, as
// branch protection or a server-side policy would, counting the pushes.
func installHook(t *testing.T, bare string) (count func() int) {
	t.Helper()
	counter := filepath.Join(t.TempDir(), "pushes")
	hook := "#!/bin/sh\necho x >> " + counter + "\necho 'GH006: Protected branch update failed for refs/heads/ownership-snapshots.' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bare, "hooks", "pre-receive"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	return func() int {
		b, _ := os.ReadFile(counter)
		return strings.Count(string(b), "x")
	}
}

// TestPushRejectedRepeatedly: a remote that refuses every push fails the
// write at once with its reason (retrying cannot fix a refusal), and the
// previous snapshot stays the branch's tip, readable and whole.
func TestPushRejectedRepeatedly(t *testing.T) {
	bare, clones := newRemote(t, 2)
	s := openStore(t, clones[0])
	prev := newSnapshot("prod", hasher(t), fixtures()...)
	prevCommit := mustWrite(t, s, prev)
	pushes := installHook(t, bare)

	next := newSnapshot("prod", hasher(t), fixtures()[:1]...)
	_, err := s.Write(ctx, next, "second")
	if err == nil {
		t.Fatal("a refused push was reported as written")
	}
	for _, want := range []string{"push snapshot branch ownership-snapshots to origin", "Protected branch update failed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q: %v", want, err)
		}
	}
	if n := pushes(); n != 1 {
		t.Errorf("%d pushes: a refusal is not a race and must not be retried", n)
	}
	if next.Commit != "" {
		t.Errorf("snapshot carries commit %s after a failed write", next.Commit)
	}
	if tip := git(t, bare, "rev-parse", "refs/heads/ownership-snapshots"); tip != prevCommit {
		t.Fatalf("remote moved to %s", tip)
	}
	// The writer's own view and another clone both still read the previous one.
	for _, dir := range clones {
		got, err := openStore(t, dir).Read(ctx, "prod", "")
		if err != nil {
			t.Fatal(err)
		}
		assertEqual(t, prev, got)
	}
	t.Log(err)
}

// TestRemoteUnreachable: a remote that cannot be reached is a clear error
// naming it, for reads and writes, and writes commit nothing anywhere.
func TestRemoteUnreachable(t *testing.T) {
	_, clones := newRemote(t, 1)
	dir := clones[0]
	s := openStore(t, dir)
	prev := newSnapshot("prod", hasher(t), fixtures()...)
	prevCommit := mustWrite(t, s, prev)
	git(t, dir, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "gone.git"))
	refsBefore := git(t, dir, "for-each-ref")

	if _, err := s.Read(ctx, "prod", ""); err == nil || !strings.Contains(err.Error(), "gone.git") {
		t.Errorf("read: want an error naming the remote, got %v", err)
	}
	_, err := s.Write(ctx, newSnapshot("prod", hasher(t), fixtures()[:1]...), "second")
	if err == nil || !strings.Contains(err.Error(), "fetch snapshot branch ownership-snapshots from origin") {
		t.Fatalf("write: want an error naming the fetch, got %v", err)
	}
	if after := git(t, dir, "for-each-ref"); after != refsBefore {
		t.Errorf("a failed write moved refs:\nbefore:\n%s\nafter:\n%s", refsBefore, after)
	}
	if tip := git(t, dir, "rev-parse", "refs/ownership-check/ownership-snapshots"); tip != prevCommit {
		t.Errorf("tracking ref moved to %s", tip)
	}
	t.Log(err)

	// A URL nothing answers at: opening may defer the fetch, reading may not.
	url := "https://127.0.0.1:1/acme/shop.git"
	u, err := Open(ctx, url, "")
	if err == nil {
		_, err = u.Read(ctx, "prod", "")
		u.Close()
	}
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), url) {
		t.Errorf("unreachable URL: want an error naming it (not \"no snapshot\"), got %v", err)
	}
	t.Log(err)
}

// TestCorruptObjectFile: a damaged git object under the snapshot is an
// error naming what could not be read, never a snapshot missing objects.
func TestCorruptObjectFile(t *testing.T) {
	dir := newWorkRepo(t)
	s := openStore(t, dir)
	mustWrite(t, s, newSnapshot("prod", hasher(t), fixtures()...))
	web := "prod/" + ObjectPath(model.IDOf(fixtures()[0]))
	oid := git(t, dir, "rev-parse", "ownership-snapshots:"+web)
	file := filepath.Join(dir, ".git", "objects", oid[:2], oid[2:])
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatalf("the blob is not a loose object: %v", err)
	}
	if err := os.WriteFile(file, []byte("not zlib at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Read(ctx, "prod", "")
	if err == nil {
		t.Fatal("read a snapshot with a corrupt object")
	}
	if !strings.Contains(err.Error(), oid) && !strings.Contains(err.Error(), web) {
		t.Errorf("error names neither the object nor the file: %v", err)
	}
	t.Log(err)
}

// TestTruncatedIndex: a truncated index.json in the branch is a FileError
// naming it; a truncated .git/index (the user's staging area) does not
// matter, because the store never uses it, and is left as it was.
func TestTruncatedIndex(t *testing.T) {
	dir := newWorkRepo(t)
	s := openStore(t, dir)
	prev := newSnapshot("staging", hasher(t), fixtures()...)
	mustWrite(t, s, prev)

	full := git(t, dir, "show", "ownership-snapshots:staging/index.json")
	c := plant(t, dir, "staging/index.json", full[:len(full)/2])
	_, err := s.Read(ctx, "staging", c)
	var fe *FileError
	if err == nil || !strings.Contains(err.Error(), "staging/index.json") {
		t.Fatalf("want an error naming staging/index.json, got %v", err)
	}
	if !errors.As(err, &fe) {
		t.Errorf("want a FileError, got %T", err)
	}
	t.Log(err)

	gitIndex := filepath.Join(dir, ".git", "index")
	data, err := os.ReadFile(gitIndex)
	if err != nil {
		t.Fatal(err)
	}
	truncated := data[:len(data)/2]
	if err := os.WriteFile(gitIndex, truncated, 0o644); err != nil {
		t.Fatal(err)
	}
	next := newSnapshot("staging", hasher(t), fixtures()[:1]...)
	mustWrite(t, s, next)
	got, err := s.Read(ctx, "staging", "")
	if err != nil {
		t.Fatal(err)
	}
	assertEqual(t, next, got)
	if after, _ := os.ReadFile(gitIndex); string(after) != string(truncated) {
		t.Error("the store rewrote the user's .git/index")
	}
}
