package gitexec

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"
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
	out, err := Run(ctx, Where{Dir: top}, nil, "diff", "--name-status", "--no-renames", "-z", commit, "--")
	if err != nil {
		return nil, fmt.Errorf("changes since %s: %w", commit, err)
	}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		if len(fields[i]) == 0 {
			break
		}
		c.Changed[string(fields[i+1])] = fields[i][0]
	}
	out, err = Run(ctx, Where{Dir: top}, nil, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			c.Changed[string(p)] = 'A'
		}
	}
	out, err = Run(ctx, Where{Dir: top}, nil, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			c.Tracked[string(p)] = true
		}
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

// CommitOf is the commit rev names in the repository at top.
func CommitOf(ctx context.Context, top, rev string) (string, error) {
	out, err := Run(ctx, Where{Dir: top}, nil, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
