package snapshot

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Listed is the branch at one commit with its whole tree listed once: the
// many targets of one run read their environments' snapshots and logs
// from it, each with one git process for its files instead of a fetch, a
// resolve and listings of its own. What it reads is what Read and ReadLog
// read at that commit.
type Listed struct {
	store  *Store
	commit string
	// entries are every file of the commit's tree, by path.
	entries []treeEntry
	// partial: entries are the files of some folders only (ListFolders).
	partial bool
}

// List fetches the branch's tip (as Tip does) and lists its tree; a
// branch that does not exist yet lists nothing, at commit "".
func (s *Store) List(ctx context.Context) (*Listed, error) {
	tip, err := s.fetchTip(ctx)
	if err != nil || tip == "" {
		return &Listed{store: s}, err
	}
	entries, err := s.git.lsTree(ctx, tip, true)
	if err != nil {
		return nil, err
	}
	// The targets' reads that follow go through one git process.
	s.reader = gitexec.NewBlobReader(ctx, s.git.where())
	sort.Slice(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	return &Listed{store: s, commit: tip, entries: entries}, nil
}

// ListFolders is List of the files below folders alone: what a run that
// reads a few environments' snapshots and histories needs of a branch of
// thousands. It takes no Batch (Partial). A folder that could read as a
// pattern lists the whole tree.
func (s *Store) ListFolders(ctx context.Context, folders []string) (*Listed, error) {
	specs := make([]string, len(folders))
	for i, f := range folders {
		if strings.ContainsAny(f, "*?[\\:") || f == "" || f == "." {
			return s.List(ctx)
		}
		specs[i] = f + "/"
	}
	tip, err := s.fetchTip(ctx)
	if err != nil || tip == "" {
		return &Listed{store: s, partial: true}, err
	}
	var entries []treeEntry
	if len(specs) > 0 {
		if entries, err = s.git.lsTree(ctx, tip, true, specs...); err != nil {
			return nil, err
		}
	}
	s.reader = gitexec.NewBlobReader(ctx, s.git.where())
	sort.Slice(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	return &Listed{store: s, commit: tip, entries: entries, partial: true}, nil
}

// Partial says whether only some folders were listed (ListFolders): a
// batch needs the whole tree.
func (l *Listed) Partial() bool { return l.partial }

// Commit is the commit listed; "" when the branch does not exist.
func (l *Listed) Commit() string { return l.commit }

// under is the listed files below folder, by path.
func (l *Listed) under(folder string) []treeEntry {
	prefix := folder + "/"
	i := sort.Search(len(l.entries), func(i int) bool { return l.entries[i].path >= prefix })
	j := i
	for j < len(l.entries) && strings.HasPrefix(l.entries[j].path, prefix) {
		j++
	}
	return l.entries[i:j]
}

// Read is Store.Read of env at the listed commit.
func (l *Listed) Read(ctx context.Context, env string) (*Snapshot, error) {
	if err := ValidateEnvironment(env); err != nil {
		return nil, err
	}
	return l.store.readListed(ctx, env, l.commit, l.under(env))
}

// ReadLog is Store.ReadLog of a log folder at the listed commit.
func (l *Listed) ReadLog(ctx context.Context, folder string, last int) ([]LogFile, error) {
	if err := ValidateLogFolder(folder); err != nil {
		return nil, err
	}
	var entries []treeEntry
	for _, e := range l.under(folder) {
		// The folder's own files, as a listing without -r gives them.
		if e.typ == "blob" && !strings.Contains(strings.TrimPrefix(e.path, folder+"/"), "/") {
			entries = append(entries, e)
		}
	}
	return l.store.readLogListed(ctx, entries, last)
}

// readIndex is Store.ReadIndex of env at the listed commit.
func (l *Listed) readIndex(ctx context.Context, env string) (*Index, error) {
	if l.commit == "" {
		return nil, fmt.Errorf("snapshot branch %s does not exist yet: %w", l.store.branch, ErrNotFound)
	}
	file := path.Join(env, indexFile)
	var oid string
	for _, e := range l.under(env) {
		if e.path == file {
			oid = e.oid
		}
	}
	if oid == "" {
		return nil, fmt.Errorf("environment %s at %s of %s: %w", env, model.ShortCommit(l.commit), l.store.branch, ErrNotFound)
	}
	blobs, err := l.store.catAll(ctx, []string{oid})
	if err != nil {
		return nil, err
	}
	ix, err := decodeIndex(blobs[0])
	if err == nil && ix.Environment != env {
		err = fmt.Errorf("environment is %q, expected %q", ix.Environment, env)
	}
	if err != nil {
		return nil, &FileError{Branch: l.store.branch, Commit: l.commit, File: file, Err: err}
	}
	return ix, nil
}

// catEach reads blobs through the store's reader when a listing started
// one, else with a git process of their own.
func (s *Store) catEach(ctx context.Context, oids []string, each func(i int, b []byte) error) error {
	if s.reader != nil {
		return s.reader.Read(oids, each)
	}
	return gitexec.CatBlobs(ctx, s.git.where(), oids, each)
}

// catAll is catEach, the blobs returned.
func (s *Store) catAll(ctx context.Context, oids []string) ([][]byte, error) {
	blobs := make([][]byte, len(oids))
	err := s.catEach(ctx, oids, func(i int, b []byte) error {
		blobs[i] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return blobs, nil
}
