package history

import (
	"context"
	"fmt"
	"path"
	"runtime"

	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// Keep is how many deploys an environment's history keeps.
const Keep = 50

// keep is Keep; the tests lower it to spare themselves 50 commits.
var keep = Keep

// Folder is where an environment's history lives on the snapshot branch.
func Folder(env string) string { return "_history/" + env }

// Log is an environment's recorded deploys, oldest first.
type Log struct {
	Environment string
	// Branch and Commit are where the log was read; Commit is "" when the
	// branch does not exist yet.
	Branch, Commit string
	Deploys        []*Deploy
	// Unreadable are the files that could not be read (corrupt, or
	// written by a newer ownership-check), each error naming its file.
	// They are left out of Deploys.
	Unreadable []error
}

// Read reads the last `last` deploys of env's history (all when last <= 0)
// at a commit of the branch ("" = the tip). No history yet is an empty log;
// a file that cannot be read is listed in Unreadable, the rest still read.
func Read(ctx context.Context, s *snapshot.Store, env, commit string, last int) (*Log, error) {
	if err := snapshot.ValidateEnvironment(env); err != nil {
		return nil, err
	}
	files, c, err := s.ReadLog(ctx, Folder(env), commit, last)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", env, err)
	}
	l := &Log{Environment: env, Branch: s.Branch(), Commit: c}
	deploys := make([]*Deploy, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), runtime.GOMAXPROCS(0), func(i int) {
		deploys[i], errs[i] = decode(env, files[i].Data)
		files[i].Data = nil
	})
	for i, d := range deploys {
		file := path.Join(Folder(env), files[i].Name)
		if errs[i] != nil {
			l.Unreadable = append(l.Unreadable, fmt.Errorf("%s (snapshot branch %s at %.12s): %w", file, l.Branch, c, errs[i]))
			continue
		}
		d.File = file
		l.Deploys = append(l.Deploys, d)
	}
	return l, nil
}

// Record appends a deploy to its environment's history and drops the
// oldest beyond Keep, as one commit on the snapshot branch (pushed and
// retried on a concurrent push like a snapshot). It returns the commit.
func Record(ctx context.Context, s *snapshot.Store, d *Deploy) (string, error) {
	if err := snapshot.ValidateEnvironment(d.Environment); err != nil {
		return "", err
	}
	if d.RecordedAt.IsZero() {
		return "", fmt.Errorf("history of %s: a deploy without its time", d.Environment)
	}
	b, err := encode(d)
	if err != nil {
		return "", fmt.Errorf("history of %s: %w", d.Environment, err)
	}
	name, err := fileName(d)
	if err != nil {
		return "", err
	}
	source := d.SourceCommit
	if source == "" {
		source = "an unknown commit"
	}
	commit, err := s.AppendLog(ctx, Folder(d.Environment), name, b, keep, fmt.Sprintf("history %s: deploy of %s", d.Environment, source))
	if err != nil {
		return "", fmt.Errorf("history: %w", err)
	}
	d.File = path.Join(Folder(d.Environment), name)
	return commit, nil
}
