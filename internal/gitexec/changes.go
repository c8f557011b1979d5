package gitexec

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/parallel"
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
	e := parallel.Entry(&ts.mu, &ts.changes, key)
	e.once.Do(func() { e.changes, e.err = readChanges(ctx, top, commit) })
	return e.changes, e.err
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
