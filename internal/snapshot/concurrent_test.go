package snapshot

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentEnvironments is a matrix of 8 deploy jobs, each in its own
// clone, snapshotting its environment into one remote at the same time.
func TestConcurrentEnvironments(t *testing.T) {
	const n = 8
	bare, clones := newRemote(t, n)
	runConcurrently(t, n, func(i int) *Store { return openStore(t, clones[i]) })
	assertAllEnvironments(t, bare, n)
}

// TestConcurrentInOneClone runs the 8 writers from the same clone, which
// also races on the clone's own refs.
func TestConcurrentInOneClone(t *testing.T) {
	const n = 8
	bare, clones := newRemote(t, 1)
	runConcurrently(t, n, func(int) *Store { return openStore(t, clones[0]) })
	assertAllEnvironments(t, bare, n)
}

// TestConcurrentLocalOnly covers a repository without a remote, where the
// branch ref itself is the compare-and-swap.
func TestConcurrentLocalOnly(t *testing.T) {
	const n = 8
	dir := newWorkRepo(t)
	runConcurrently(t, n, func(int) *Store { return openStore(t, dir) })
	assertAllEnvironments(t, dir, n)
}

func runConcurrently(t *testing.T, n int, open func(i int) *Store) {
	t.Helper()
	stores := make([]*Store, n)
	snaps := make([]*Snapshot, n)
	for i := range stores {
		stores[i] = open(i)
		snaps[i] = newSnapshot(fmt.Sprintf("env-%d", i), hasher(t), fixtures()...)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = stores[i].Write(ctx, snaps[i], fmt.Sprintf("snapshot env-%d", i))
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	for i, s := range stores {
		got, err := s.Read(ctx, snaps[i].Index.Environment, snaps[i].Commit)
		if err != nil {
			t.Fatal(err)
		}
		assertEqual(t, snaps[i], got)
	}
}

func assertAllEnvironments(t *testing.T, repo string, n int) {
	t.Helper()
	tip := "refs/heads/ownership-snapshots"
	dirs := strings.Fields(git(t, repo, "ls-tree", "--name-only", tip))
	if len(dirs) != n {
		t.Errorf("want %d environment folders, got %v", n, dirs)
	}
	for i := 0; i < n; i++ {
		if files := git(t, repo, "ls-tree", "-r", "--name-only", tip, fmt.Sprintf("env-%d/", i)); strings.Count(files, "\n")+1 != 6 {
			t.Errorf("env-%d: want index and 5 objects, got\n%s", i, files)
		}
	}
	// Linear: every commit has at most one parent, and there are n.
	lines := strings.Split(git(t, repo, "rev-list", "--parents", tip), "\n")
	if len(lines) != n {
		t.Errorf("want %d commits, got %d", n, len(lines))
	}
	for _, l := range lines {
		if len(strings.Fields(l)) > 2 {
			t.Errorf("merge commit in the snapshot branch: %s", l)
		}
	}
}
