package runstate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// Branch is a snapshot branch: the git repository (path or URL) holding
// it, "" the working directory's, and its name.
type Branch struct {
	Repo string
	Name string
}

// open opens the branch's store, its error worded for whoever set the
// repository.
func (b Branch) open(ctx context.Context) (*snapshot.Store, error) {
	store, err := snapshot.Open(ctx, b.Repo, b.Name)
	if err != nil {
		return nil, b.openError(err)
	}
	return store, nil
}

func (b Branch) openError(err error) error {
	return fmt.Errorf("snapshot store: %w (set --snapshot-repo to the repository holding branch %s)", err, b.Name)
}

// Recorded is what a snapshot committed, and where.
type Recorded struct {
	Snapshot *snapshot.Snapshot
	// Branch holds the commit; Remote is where it was pushed, "" when the
	// repository has no remote.
	Branch string
	Remote string
	// Warnings are what the snapshot replaced or could not record without
	// failing (see snapshot.Store.Take).
	Warnings []error
}

// branch is a snapshot branch as the run found it.
type branch struct {
	store   *snapshot.Store
	listed  *snapshot.Listed
	openErr error
	listErr error
	// batch gathers the run's snapshots into one commit.
	batch parallel.Keyed[struct{}, *snapshot.Batch]
}

// branch is b, opened, fetched and listed once for the run, under the
// run's context: the listing reads on through one git process, which one
// check's end must not stop for the others.
func (s *Run) branch(ctx context.Context, b Branch) (*branch, error) {
	return s.branches.Get(ctx, b, func(context.Context) (*branch, error) {
		br := &branch{}
		if br.store, br.openErr = snapshot.Open(s.ctx, b.Repo, b.Name); br.openErr == nil {
			if folders := s.readFolders(); folders != nil {
				br.listed, br.listErr = br.store.ListFolders(s.ctx, folders)
			} else {
				br.listed, br.listErr = br.store.List(s.ctx)
			}
		}
		return br, nil
	})
}

// Snapshot is env's snapshot on b and its last history.Window recorded
// deploys, at one commit of the branch, which the run fetches and lists
// once. No snapshot is a nil snapshot, no history an empty log; an
// unreadable snapshot is an error (comparing against nothing would hide
// drift), unreadable history files are listed in the log.
func (s *Run) Snapshot(ctx context.Context, b Branch, env string) (*snapshot.Snapshot, *history.Log, error) {
	br, err := s.branch(ctx, b)
	switch {
	case err != nil:
		return nil, nil, err
	case br.openErr != nil:
		return nil, nil, b.openError(br.openErr)
	case br.listErr != nil:
		return nil, nil, fmt.Errorf("snapshot: %w", br.listErr)
	}
	tip := br.listed.Commit()
	if tip == "" {
		return nil, &history.Log{Environment: env, Branch: br.store.Branch()}, nil
	}
	snap, err := br.listed.Read(ctx, env)
	if errors.Is(err, snapshot.ErrNotFound) {
		snap, err = nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot: %w", err)
	}
	files, err := br.listed.ReadLog(ctx, history.Folder(env), history.Window)
	if err != nil {
		return nil, nil, fmt.Errorf("history of %s: %w", env, err)
	}
	return snap, history.NewLog(env, br.store.Branch(), tip, logFiles(files)), nil
}

// Take takes a snapshot into the run's batch of b, which whoever made the
// run commits at its end (Commit). It keeps of the snapshot recorded the
// index and the objects' ids, not the objects: a run of thousands of
// targets must not hold every target's objects until the end.
func (s *Run) Take(ctx context.Context, b Branch, client *kube.Client, objs []model.Object, o snapshot.TakeOptions) (*Recorded, error) {
	br, err := s.branch(ctx, b)
	switch {
	case err != nil:
		return nil, err
	case br.openErr != nil:
		return nil, br.openErr
	case br.listErr != nil:
		return nil, br.listErr
	}
	batch, err := br.batch.Get(s.ctx, struct{}{}, func(ctx context.Context) (*snapshot.Batch, error) {
		listed := br.listed
		if listed.Partial() {
			// A batch writes the whole tree again.
			var err error
			if listed, err = br.store.List(ctx); err != nil {
				return nil, err
			}
		}
		return br.store.Batch(ctx, listed), nil
	})
	if err != nil {
		return nil, err
	}
	rec := &Recorded{Branch: br.store.Branch(), Remote: br.store.Remote()}
	snap, warnings, err := batch.Take(ctx, client, objs, o)
	rec.Warnings = warnings
	if snap != nil {
		ids := make(map[model.ID]*snapshot.Entry, len(snap.Objects))
		for id := range snap.Objects {
			ids[id] = nil
		}
		rec.Snapshot = &snapshot.Snapshot{Index: snap.Index, Objects: ids}
	}
	return rec, err
}

// Commit commits the snapshots the run's checks took on b as one commit,
// and returns it ("" when none was taken).
func (s *Run) Commit(ctx context.Context, b Branch) (string, error) {
	br, err := s.branch(ctx, b)
	if err != nil || br.store == nil || br.listed == nil {
		return "", err
	}
	var batch *snapshot.Batch
	br.batch.Each(func(_ struct{}, bt *snapshot.Batch) { batch = bt })
	if batch == nil {
		return "", nil
	}
	envs := batch.Environments()
	if len(envs) == 0 {
		return "", nil
	}
	source := ""
	s.source.Each(func(_ struct{}, c string) { source = c })
	if source == "" {
		source = "an unknown commit"
	}
	sort.Strings(envs)
	msg := fmt.Sprintf("snapshot %d environments at %s\n\n%s", len(envs), source, strings.Join(envs, "\n"))
	if len(envs) == 1 {
		// What one target's own snapshot says.
		msg = fmt.Sprintf("snapshot %s at %s", envs[0], source)
	}
	return batch.Commit(ctx, msg)
}
