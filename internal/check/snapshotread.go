package check

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

type snapshotResult struct {
	snap *snapshot.Snapshot
	hist *history.Log
	err  error
}

// readSnapshotAsync reads the snapshot and the recorded history in g
// (runstate.Run.Snapshot); the channel delivers exactly one result (cancel ctx to stop
// git early).
func readSnapshotAsync(ctx context.Context, g *errgroup.Group, t Target) <-chan snapshotResult {
	ch := make(chan snapshotResult, 1)
	g.Go(func() error {
		snap, hist, err := t.Run.Snapshot(ctx, t.Branch(), t.Environment)
		ch <- snapshotResult{snap, hist, err}
		return nil
	})
	return ch
}

// snapshotHasher is the hasher the snapshot's Secret values were made
// with, or a fresh one when there is no snapshot (nothing to compare with);
// key is the run's (runstate.Env).
func snapshotHasher(snap *snapshot.Snapshot, key []byte) (secrets.Hasher, error) {
	if snap != nil {
		h, err := snap.Index.Hasher(key)
		if err != nil {
			return secrets.Hasher{}, fmt.Errorf("snapshot: %w", err)
		}
		return h, nil
	}
	return secrets.New(secrets.NewSalt(), key)
}
