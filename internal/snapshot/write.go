package snapshot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/retry"
)

// Retry bounds for a push that lost a race with another environment's job.
// Each round lets at least one writer through, so the attempts cover many
// more concurrent jobs than a matrix usually has.
const (
	maxAttempts  = 12
	firstBackoff = 200 * time.Millisecond
	maxBackoff   = 5 * time.Second
)

// errRace marks a lost compare-and-swap on the branch: somebody else moved
// it between our fetch and our push.
var errRace = errors.New("the snapshot branch moved")

// Write stores a snapshot as one commit on top of the branch's tip: the
// environment's folder is replaced as a whole (objects no longer in the
// snapshot go) and every other folder is kept as the tip has it. With a
// remote it pushes (never forced); when another job pushed first it fetches
// again and rebuilds the commit on the new tip, with jittered backoff. It
// sets snap.Commit and snap.Index.Objects and returns the commit.
func (s *Store) Write(ctx context.Context, snap *Snapshot, message string) (string, error) {
	env := snap.Index.Environment
	if err := ValidateEnvironment(env); err != nil {
		return "", err
	}
	if snap.Index.Secrets.Salt == "" || snap.Index.Secrets.Algorithm == "" {
		return "", fmt.Errorf("snapshot %s: no Secret hashing recorded in the index", env)
	}
	files, err := encodeFiles(snap)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", env, err)
	}
	folder, err := s.writeFolder(ctx, files)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", env, err)
	}
	commit, err := retryRace(ctx, func() (string, error) { return s.commitOnTip(ctx, env, folder, message) })
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", env, err)
	}
	snap.Commit = commit
	return commit, nil
}

// retryRace runs attempt until it does not lose a race on the branch
// (errRace), with jittered exponential backoff, at most maxAttempts times:
// every writer of the branch (snapshots, the deploy history) publishes
// this way.
func retryRace(ctx context.Context, attempt func() (string, error)) (string, error) {
	var commit string
	loop := retry.Loop{
		Attempts: maxAttempts,
		Again: func(attempt int, err error) (bool, time.Duration) {
			return errors.Is(err, errRace), retry.Backoff{Base: firstBackoff, Max: maxBackoff}.Delay(attempt)
		},
	}
	attempts, err := loop.Do(ctx, func() (err error) {
		commit, err = attempt()
		return err
	})
	switch {
	case err == nil:
		return commit, nil
	case errors.Is(err, errRace) && ctx.Err() != nil:
		// Cut short while waiting for another try.
		return "", ctx.Err()
	case errors.Is(err, errRace):
		err = fmt.Errorf("%w; gave up after %d attempts", err, attempts)
	}
	return "", err
}

// commitOnTip makes one attempt: fetch the tip, put the folder into its
// tree, commit with the tip as parent, and publish.
func (s *Store) commitOnTip(ctx context.Context, env, folder, message string) (string, error) {
	tip, err := s.fetchTip(ctx)
	if err != nil {
		if isLockError(err.Error()) {
			// Another process of this clone is fetching the same ref.
			return "", fmt.Errorf("%w: %w", errRace, err)
		}
		return "", err
	}
	root, err := s.replaceFolder(ctx, tip, env, folder)
	if err != nil {
		return "", err
	}
	return s.commitRoot(ctx, root, tip, message)
}

// commitRoot commits the tree root on top of tip (none: the branch's
// first commit) and publishes it as the branch's new tip.
func (s *Store) commitRoot(ctx context.Context, root, tip, message string) (string, error) {
	commit, err := gitexec.CommitTree(ctx, s.git.where(), root, tip, message)
	if err != nil {
		return "", err
	}
	if err := s.publish(ctx, commit, tip); err != nil {
		return "", err
	}
	return commit, nil
}

// inOrder is a folder's files by path: their paths sorted and their
// contents in that order, as a folder's blobs are written.
func inOrder(files map[string][]byte) ([]string, [][]byte) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	contents := make([][]byte, len(paths))
	for i, p := range paths {
		contents[i] = files[p]
	}
	return paths, contents
}

// writeFolder stores the files as blobs and returns the folder's tree. It
// goes through a temporary index file, never the repository's.
func (s *Store) writeFolder(ctx context.Context, files map[string][]byte) (string, error) {
	paths, contents := inOrder(files)
	oids, err := gitexec.WriteBlobs(ctx, s.git.where(), contents)
	if err != nil {
		return "", err
	}
	entries := make([]gitexec.IndexEntry, len(paths))
	for i, p := range paths {
		entries[i] = gitexec.IndexEntry{OID: oids[i], Path: p}
	}
	return gitexec.BuildTree(ctx, s.git.where(), entries)
}

// replaceFolder returns the tip's root tree with env's folder replaced; a
// `namespace/name` environment is a folder inside its namespace's, beside
// the other names of that namespace.
func (s *Store) replaceFolder(ctx context.Context, tip, env, folder string) (string, error) {
	return s.putTree(ctx, tip, "", strings.Split(env, "/"), folder)
}

// publish moves the branch from tip to commit, or fails with errRace when
// the branch is no longer at tip.
func (s *Store) publish(ctx context.Context, commit, tip string) error {
	if s.remote == "" {
		// Compare-and-swap: "" as the old value means "must not exist".
		err := gitexec.MoveRef(ctx, s.git.where(), "refs/heads/"+s.branch, commit, tip, "ownership-check snapshot")
		if err != nil && isLockError(err.Error()) {
			return fmt.Errorf("%w: %w", errRace, err)
		}
		return err
	}
	// --no-verify: the user's pre-push hooks are for their code, not for
	// this branch; never --force, which could drop another job's commit.
	err := gitexec.Push(ctx, s.git.where(), s.remote, commit+":refs/heads/"+s.branch)
	if err != nil {
		if isPushRace(err.Error()) {
			return fmt.Errorf("%w: %w", errRace, err)
		}
		return fmt.Errorf("push snapshot branch %s to %s: %w", s.branch, s.remote, err)
	}
	// Keep the local view in step so a read right after sees the commit.
	gitexec.SetRef(ctx, s.git.where(), s.trackingRef(), commit)
	return nil
}

func isLockError(msg string) bool {
	for _, m := range []string{"cannot lock ref", "Unable to create", "unable to update local ref", "but expected", "reference already exists"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// isPushRace tells a push that lost to a concurrent one (the branch moved,
// or the remote's ref was locked by the winner) from other refusals such as
// permissions or branch protection, which retrying cannot fix.
func isPushRace(msg string) bool {
	for _, m := range []string{"(fetch first)", "(non-fast-forward)", "(stale info)", "failed to update ref", "failed to lock", "cannot lock ref", "incorrect old value"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}
