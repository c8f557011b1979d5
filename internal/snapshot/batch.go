package snapshot

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Batch records the snapshots of many environments (the targets of one
// run) as one commit: each Take writes its environment's files to the
// repository as it is taken and keeps only its folder's tree, so that no
// environment's objects stay in memory; Commit then puts every folder into
// the branch's tip at once and publishes it as Write does. Thousands of
// environments make one commit, not thousands, and the branch's history
// grows by one commit per run.
type Batch struct {
	store *Store
	// listed is the branch as the batch found it: each environment's
	// previous index (its Secret hashing) is read from it.
	listed *Listed

	mu      sync.Mutex
	folders map[string]string
}

// Batch starts a batch on the branch as listed (List): the environments'
// previous indexes are read from it; Commit commits on the tip as it is
// then.
func (s *Store) Batch(listed *Listed) *Batch {
	return &Batch{store: s, listed: listed, folders: map[string]string{}}
}

// Take is Store.Take of one environment into the batch: nothing is
// committed until Commit. The snapshot returned has its Commit unset.
func (b *Batch) Take(ctx context.Context, c *kube.Client, objs []model.Object, o TakeOptions) (*Snapshot, []error, error) {
	if err := ValidateEnvironment(o.Environment); err != nil {
		return nil, nil, err
	}
	if o.FieldManager == "" {
		return nil, nil, errors.New("snapshot: field-manager: " + model.FieldManagerRequired)
	}
	prev, warnings, err := hashingOf(b.listed.readIndex(ctx, o.Environment))
	if err != nil {
		return nil, warnings, err
	}
	snap, warnings, err := take(ctx, c, objs, o, prev, warnings)
	if err != nil {
		return nil, warnings, err
	}
	env := snap.Index.Environment
	if snap.Index.Secrets.Salt == "" || snap.Index.Secrets.Algorithm == "" {
		return nil, warnings, fmt.Errorf("snapshot %s: no Secret hashing recorded in the index", env)
	}
	files, err := encodeFiles(snap)
	if err != nil {
		return nil, warnings, fmt.Errorf("snapshot %s: %w", env, err)
	}
	folder, err := b.store.writeFolder(ctx, files)
	if err != nil {
		return nil, warnings, fmt.Errorf("snapshot %s: %w", env, err)
	}
	b.mu.Lock()
	b.folders[env] = folder
	b.mu.Unlock()
	return snap, warnings, nil
}

// Environments are the environments taken so far.
func (b *Batch) Environments() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	envs := make([]string, 0, len(b.folders))
	for env := range b.folders {
		envs = append(envs, env)
	}
	return envs
}

// Commit commits every environment taken as one commit on the branch's
// tip, each folder replaced as a whole as Write replaces one, and
// publishes it (rebuilt on the new tip when another job pushed first). A
// batch of nothing commits nothing and returns "".
func (b *Batch) Commit(ctx context.Context, message string) (string, error) {
	b.mu.Lock()
	folders := make(map[string]string, len(b.folders))
	for env, f := range b.folders {
		folders[env] = f
	}
	b.mu.Unlock()
	if len(folders) == 0 {
		return "", nil
	}
	s := b.store
	return retryRace(ctx, func() (string, error) {
		tip, err := s.fetchTip(ctx)
		if err != nil {
			if isLockError(err.Error()) {
				return "", fmt.Errorf("%w: %w", errRace, err)
			}
			return "", err
		}
		root, err := s.putTrees(ctx, tip, "", folders)
		if err != nil {
			return "", err
		}
		return s.commitRoot(ctx, root, tip, message)
	})
}

// putTrees returns the tree of dir ("" = the root) at tip with every
// folder of trees (by path below dir) replaced, and every other entry as
// tip has it: one listing and one new tree for each folder on their way.
func (s *Store) putTrees(ctx context.Context, tip, dir string, trees map[string]string) (string, error) {
	entries, err := s.entriesAt(ctx, tip, dir)
	if err != nil {
		return "", err
	}
	here := map[string]string{}
	below := map[string]map[string]string{}
	for p, tree := range trees {
		first, rest, nested := strings.Cut(p, "/")
		if !nested {
			here[first] = tree
			continue
		}
		if below[first] == nil {
			below[first] = map[string]string{}
		}
		below[first][rest] = tree
	}
	firsts := make([]string, 0, len(below))
	for first := range below {
		firsts = append(firsts, first)
	}
	sort.Strings(firsts)
	for _, first := range firsts {
		if _, replaced := here[first]; replaced {
			// A folder replaced as a whole has nothing of the tip's left
			// to put into (ValidateEnvironment keeps names from nesting
			// so; the whole folder wins).
			continue
		}
		child, err := s.putTrees(ctx, tip, path.Join(dir, first), below[first])
		if err != nil {
			return "", err
		}
		here[first] = child
	}
	var kept []treeEntry
	for _, e := range entries {
		e.path = path.Base(e.path)
		if _, replaced := here[e.path]; !replaced {
			kept = append(kept, e)
		}
	}
	for name, tree := range here {
		kept = append(kept, treeEntry{mode: "040000", typ: "tree", oid: tree, path: name})
	}
	return s.mktree(ctx, kept)
}
