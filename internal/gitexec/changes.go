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
// for the run (one git diff, two ls-files).
func (ts *Trees) Changes(ctx context.Context, top, commit string) (*Changes, error) {
	key := top + "\x00" + commit
	return ts.changes.Get(ctx, key, func(ctx context.Context) (*Changes, error) {
		changed, err := ts.Changed(ctx, top, commit)
		if err != nil {
			return nil, err
		}
		c := &Changes{Changed: make(map[string]byte, len(changed)), Tracked: map[string]bool{}}
		for _, x := range changed {
			c.Changed[x.Path] = x.Status
		}
		// What the commit tracks is what the index does, but for what the
		// diff from the commit says was added (not at the commit) or
		// deleted (at the commit, not in the index): the index is one
		// file, where listing the commit's tree reads every folder's.
		indexed, err := paths(ctx, top, "ls-files", "-z", "--full-name", "--cached")
		if err != nil {
			return nil, err
		}
		for _, p := range indexed {
			c.Tracked[p] = true
		}
		for _, x := range changed {
			switch x.Status {
			case 'A':
				delete(c.Tracked, x.Path)
			case 'D':
				c.Tracked[x.Path] = true
			}
		}
		return c, nil
	})
}

// Changed are the paths of the working tree at top changed since commit,
// as git's diff orders them, then the untracked files (as 'A'), read once
// for the run: the selection of a run's targets and their base renders
// ask the same, and each is a walk of the whole working tree.
func (ts *Trees) Changed(ctx context.Context, top, commit string) ([]PathStatus, error) {
	return ts.changed.Get(ctx, top+"\x00"+commit, func(ctx context.Context) ([]PathStatus, error) {
		changed, err := ChangedSince(ctx, top, commit)
		if err != nil {
			return nil, fmt.Errorf("changes since %s: %w", commit, err)
		}
		untracked, err := Untracked(ctx, top)
		if err != nil {
			return nil, err
		}
		for _, p := range untracked {
			changed = append(changed, PathStatus{Status: 'A', Path: p})
		}
		return changed, nil
	})
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
