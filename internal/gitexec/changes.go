package gitexec

import (
	"bytes"
	"context"
	"fmt"
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
