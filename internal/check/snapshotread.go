package check

import (
	"context"
	"errors"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

type snapshotResult struct {
	snap *snapshot.Snapshot
	err  error
}

// readSnapshotAsync reads the snapshot in the background; the channel
// delivers exactly one result (cancel ctx to stop git early).
func readSnapshotAsync(ctx context.Context, t Target) <-chan snapshotResult {
	ch := make(chan snapshotResult, 1)
	go func() {
		snap, err := readSnapshot(ctx, t)
		ch <- snapshotResult{snap, err}
	}()
	return ch
}

// readSnapshot returns the environment's snapshot at the branch tip, or nil
// when there is none yet; any other failure (corrupt file, newer schema,
// unreachable remote) stops the check: comparing against nothing would
// hide drift.
func readSnapshot(ctx context.Context, t Target) (*snapshot.Snapshot, error) {
	store, err := snapshot.Open(ctx, t.SnapshotRepo, t.SnapshotBranch)
	if err != nil {
		return nil, fmt.Errorf("snapshot store: %w (set --snapshot-repo to the repository holding branch %s)", err, t.SnapshotBranch)
	}
	defer store.Close()
	snap, err := store.Read(ctx, t.Environment, "")
	if errors.Is(err, snapshot.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return snap, nil
}

// snapshotHasher is the hasher the snapshot's Secret values were made
// with, or a fresh one when there is no snapshot (nothing to compare with).
func snapshotHasher(snap *snapshot.Snapshot) (secrets.Hasher, error) {
	if snap != nil {
		h, err := snap.Index.Hasher(secrets.KeyFromEnv())
		if err != nil {
			return secrets.Hasher{}, fmt.Errorf("snapshot: %w", err)
		}
		return h, nil
	}
	return secrets.New(secrets.NewSalt(), secrets.KeyFromEnv())
}
