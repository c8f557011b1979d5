package gitexec

import (
	"context"
	"fmt"
	"path"
)

// Changes are how the working tree of a repository differs from a commit:
// the paths changed, added or deleted since (untracked files count as
// added; 'M', 'A', 'D', ... as git's --name-status says), and the files
// the commit tracks.
type Changes struct {
	Changed map[string]byte
	Tracked map[string]bool
}

// Changes are the working tree's changes at top since commit, read once
// for the run (one git diff, one ls-files, one ls-tree).
func (ts *Trees) Changes(ctx context.Context, top, commit string) (*Changes, error) {
	key := top + "\x00" + commit
	return ts.changes.Get(ctx, key, func(ctx context.Context) (*Changes, error) { return readChanges(ctx, top, commit) })
}

func readChanges(ctx context.Context, top, commit string) (*Changes, error) {
	c := &Changes{Changed: map[string]byte{}, Tracked: map[string]bool{}}
	changed, err := ChangedSince(ctx, top, commit)
	if err != nil {
		return nil, fmt.Errorf("changes since %s: %w", commit, err)
	}
	for _, x := range changed {
		c.Changed[x.Path] = x.Status
	}
	untracked, err := Untracked(ctx, top)
	if err != nil {
		return nil, err
	}
	for _, p := range untracked {
		c.Changed[p] = 'A'
	}
	tracked, err := paths(ctx, top, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	for _, p := range tracked {
		c.Tracked[p] = true
	}
	return c, nil
}

// Unchanged tells whether files and the listings of dirs (slash-separated,
// relative to top) are at commit what they are in the working tree at top:
// every file one the commit tracks, unchanged since, and nothing added to
// or removed from a folder listed. What is read of those alone reads the
// same at the commit.
func (ts *Trees) Unchanged(ctx context.Context, top, commit string, files, dirs []string) bool {
	ch, err := ts.Changes(ctx, top, commit)
	if err != nil {
		return false
	}
	for _, f := range files {
		if !ch.Tracked[f] || ch.Changed[f] != 0 {
			return false
		}
	}
	listed := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		listed[d] = true
	}
	for p, status := range ch.Changed {
		if status != 'M' && listed[path.Dir(p)] {
			return false
		}
	}
	return true
}
