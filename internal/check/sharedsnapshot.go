package check

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// sourceCommit is sourceCommit, once for the run: every target of one run
// is deployed from the same commit.
func (s *Shared) sourceCommit(ctx context.Context, given string) string {
	s.sourceOnce.Do(func() { s.source = sourceCommit(ctx, given) })
	return s.source
}

// takeSnapshot takes one target's snapshot into the run's batch of its
// branch, committed with the others' by CommitSnapshots. The snapshot
// recorded keeps the index and the objects' ids, not the objects: a run
// of thousands of targets must not hold every target's objects until the
// end.
func (s *Shared) takeSnapshot(ctx context.Context, t Target, client *kube.Client, objs []model.Object, o snapshot.TakeOptions) (*Recorded, error) {
	b := s.branch(t)
	if b.openErr != nil {
		return nil, b.openErr
	}
	if b.listErr != nil {
		return nil, b.listErr
	}
	b.batchOnce.Do(func() { b.batch = b.store.Batch(s.ctx, b.listed) })
	rec := &Recorded{Branch: b.store.Branch(), Remote: b.store.Remote()}
	snap, warnings, err := b.batch.Take(ctx, client, objs, o)
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

// CommitSnapshots commits the snapshots the run's targets took on t's
// branch as one commit, and returns it ("" when none was taken).
func (s *Shared) CommitSnapshots(ctx context.Context, t Target, source string) (string, error) {
	b := s.branch(t)
	if b.batch == nil {
		return "", nil
	}
	envs := b.batch.Environments()
	if len(envs) == 0 {
		return "", nil
	}
	if source == "" {
		source = "an unknown commit"
	}
	sort.Strings(envs)
	msg := fmt.Sprintf("snapshot %d environments at %s\n\n%s", len(envs), source, strings.Join(envs, "\n"))
	if len(envs) == 1 {
		// What one target's own snapshot says.
		msg = fmt.Sprintf("snapshot %s at %s", envs[0], source)
	}
	return b.batch.Commit(ctx, msg)
}

// SourceCommit is the commit the run's snapshots record, once one was
// taken; "" before.
func (s *Shared) SourceCommit() string { return s.source }
