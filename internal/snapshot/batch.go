package snapshot

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/gitexec"
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

	// blobs is the run's one stream of blobs: every environment's files
	// go into it, and their folders are made at Commit.
	blobs *gitexec.BlobWriter

	mu      sync.Mutex
	folders map[string][]batchFile
	// trees are the folders made, once the stream is finished.
	trees    map[string]string
	treesErr error
}

// batchFile is a file of an environment's folder, known by its blob's mark
// in the stream until Commit.
type batchFile struct {
	path string
	mark int
}

// Batch starts a batch on the branch as listed (List): the environments'
// previous indexes are read from it; Commit commits on the tip as it is
// then. ctx bounds the batch's git process: Commit or Close ends it.
func (s *Store) Batch(ctx context.Context, listed *Listed) *Batch {
	return &Batch{store: s, listed: listed, folders: map[string][]batchFile{},
		blobs: gitexec.NewBlobWriter(ctx, s.git.where())}
}

// Close ends the batch's stream of blobs when Commit did not: nothing
// taken is written.
func (b *Batch) Close() {
	b.blobs.Close()
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
	paths, contents := inOrder(files)
	marks, err := b.blobs.Write(contents)
	if err != nil {
		return nil, warnings, fmt.Errorf("snapshot %s: %w", env, err)
	}
	folder := make([]batchFile, len(paths))
	for i, p := range paths {
		folder[i] = batchFile{path: p, mark: marks[i]}
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
	folders, err := b.makeTrees(ctx)
	if err != nil || len(folders) == 0 {
		return "", err
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

// makeTrees ends the stream of blobs and makes every environment's
// folder, the tree writeFolder would make of its files, with three git
// processes for the whole batch: each folder is put into one temporary
// index under a name of its own, and the index written as one tree.
func (b *Batch) makeTrees(ctx context.Context) (map[string]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.trees != nil || b.treesErr != nil {
		return b.trees, b.treesErr
	}
	b.trees, b.treesErr = b.writeTrees(ctx)
	return b.trees, b.treesErr
}

// writeTrees is makeTrees; the caller holds mu.
func (b *Batch) writeTrees(ctx context.Context) (map[string]string, error) {
	oids, err := b.blobs.Finish()
	if err != nil {
		return nil, err
	}
	trees := map[string]string{}
	if len(b.folders) == 0 {
		return trees, nil
	}
	envs := make([]string, 0, len(b.folders))
	for env := range b.folders {
		envs = append(envs, env)
	}
	sort.Strings(envs)
	var index []gitexec.IndexEntry
	for i, env := range envs {
		for _, f := range b.folders[env] {
			if f.mark < 1 || f.mark > len(oids) {
				return nil, fmt.Errorf("snapshot %s: no blob for %s", env, f.path)
			}
			index = append(index, gitexec.IndexEntry{OID: oids[f.mark-1], Path: fmt.Sprintf("%d/%s", i, f.path)})
		}
	}
	s := b.store
	root, err := gitexec.BuildTree(ctx, s.git.where(), index)
	if err != nil {
		return nil, err
	}
	entries, err := s.git.lsTree(ctx, root, false)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		i, err := strconv.Atoi(e.path)
		if err != nil || i < 0 || i >= len(envs) || e.typ != "tree" {
			return nil, fmt.Errorf("snapshot: unexpected entry %q in the batch's tree", e.path)
		}
		trees[envs[i]] = e.oid
	}
	if len(trees) != len(envs) {
		return nil, fmt.Errorf("snapshot: %d folders written of %d", len(trees), len(envs))
	}
	return trees, nil
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
