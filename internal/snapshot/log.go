package snapshot

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/gitexec"
)

// Log folders keep bounded series of files beside the environments'
// folders, e.g. the deploy history in _history/<environment>/. Their first
// segment starts with '_', which no environment name may, and a snapshot
// replaces only its own environment's folder, so neither side ever drops
// the other's files (whatever version of ownership-check writes them).

var fullCommitID = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// LogFile is one file of a log folder.
type LogFile struct {
	Name string
	Data []byte
}

// ValidateLogFolder checks that folder can be a log folder: segments that
// are valid names, the first one starting with '_'.
func ValidateLogFolder(folder string) error {
	segs := strings.Split(folder, "/")
	if len(segs) < 2 || !strings.HasPrefix(segs[0], "_") {
		return fmt.Errorf("log folder %q: must be _<name>/<environment>", folder)
	}
	if err := ValidateEnvironment(strings.TrimPrefix(segs[0], "_")); err != nil {
		return fmt.Errorf("log folder %q: %w", folder, err)
	}
	for _, s := range segs[1:] {
		if err := ValidateEnvironment(s); err != nil {
			return fmt.Errorf("log folder %q: %w", folder, err)
		}
	}
	return nil
}

// Tip returns the branch's tip, fetched first when the store has a remote;
// "" when the branch does not exist yet. Reading the snapshot and a log at
// the same tip reads them as one commit left them.
func (s *Store) Tip(ctx context.Context) (string, error) {
	return s.fetchTip(ctx)
}

// ReadLog returns the last `last` files of a log folder (all of them when
// last <= 0) in name order, and the commit read; commit "" is the tip. A
// branch or folder that does not exist holds no files: that is no error.
func (s *Store) ReadLog(ctx context.Context, folder, commit string, last int) ([]LogFile, string, error) {
	if err := ValidateLogFolder(folder); err != nil {
		return nil, "", err
	}
	c := commit
	if c == "" {
		tip, err := s.fetchTip(ctx)
		if err != nil || tip == "" {
			return nil, "", err
		}
		c = tip
	} else if !fullCommitID.MatchString(commit) {
		// A full id (the tip the snapshot was just read at) needs no
		// rev-parse: ls-tree fails on one the repository lacks.
		var err error
		if c, err = s.commitOf(ctx, commit); err != nil {
			return nil, "", err
		}
	}
	entries, err := s.logEntries(ctx, c, folder)
	if err != nil {
		return nil, "", err
	}
	files, err := s.readLogListed(ctx, entries, last)
	return files, c, err
}

// readLogListed reads the last `last` of a log folder's files, listed in
// name order.
func (s *Store) readLogListed(ctx context.Context, entries []treeEntry, last int) ([]LogFile, error) {
	if last > 0 && len(entries) > last {
		entries = entries[len(entries)-last:]
	}
	oids := make([]string, len(entries))
	for i, e := range entries {
		oids[i] = e.oid
	}
	blobs, err := s.catAll(ctx, oids)
	if err != nil {
		return nil, err
	}
	files := make([]LogFile, len(entries))
	for i, e := range entries {
		files[i] = LogFile{Name: path.Base(e.path), Data: blobs[i]}
	}
	return files, nil
}

// logEntries lists the files of a log folder at a commit, by name.
func (s *Store) logEntries(ctx context.Context, commit, folder string) ([]treeEntry, error) {
	all, err := s.git.lsTree(ctx, commit, false, folder+"/")
	if err != nil {
		return nil, err
	}
	var entries []treeEntry
	for _, e := range all {
		if e.typ == "blob" {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	return entries, nil
}

// AppendLog adds a file to a log folder and keeps only its last `keep`
// files in name order (name files so that they sort oldest first), as one
// commit on the branch's tip. It publishes like Write: pushed, never
// forced, rebuilt on the new tip when another job pushed first. It returns
// the commit.
func (s *Store) AppendLog(ctx context.Context, folder, name string, data []byte, keep int, message string) (string, error) {
	if err := ValidateLogFolder(folder); err != nil {
		return "", err
	}
	if name == "" || strings.ContainsAny(name, "/\x00") {
		return "", fmt.Errorf("log file name %q: not a file name", name)
	}
	oids, err := gitexec.WriteBlobs(ctx, s.git.where(), [][]byte{data})
	if err != nil {
		return "", err
	}
	added := treeEntry{mode: "100644", typ: "blob", oid: oids[0], path: name}
	commit, err := retryRace(ctx, func() (string, error) {
		return s.appendOnTip(ctx, folder, added, keep, message)
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", folder, err)
	}
	return commit, nil
}

// appendOnTip makes one attempt of AppendLog.
func (s *Store) appendOnTip(ctx context.Context, folder string, added treeEntry, keep int, message string) (string, error) {
	tip, err := s.fetchTip(ctx)
	if err != nil {
		if isLockError(err.Error()) {
			return "", fmt.Errorf("%w: %w", errRace, err)
		}
		return "", err
	}
	var files []treeEntry
	if tip != "" {
		old, err := s.logEntries(ctx, tip, folder)
		if err != nil {
			return "", err
		}
		for _, e := range old {
			e.path = path.Base(e.path)
			if e.path != added.path {
				files = append(files, e)
			}
		}
	}
	files = append(files, added)
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	if keep > 0 && len(files) > keep {
		files = files[len(files)-keep:]
	}
	tree, err := s.mktree(ctx, files)
	if err != nil {
		return "", err
	}
	root, err := s.putTree(ctx, tip, "", strings.Split(folder, "/"), tree)
	if err != nil {
		return "", err
	}
	return s.commitRoot(ctx, root, tip, message)
}

// putTree returns the tree of dir ("" = the root) at tip with the path
// segs below it replaced by tree, and every other entry as tip has it.
func (s *Store) putTree(ctx context.Context, tip, dir string, segs []string, tree string) (string, error) {
	entries, err := s.entriesAt(ctx, tip, dir)
	if err != nil {
		return "", err
	}
	child := tree
	if len(segs) > 1 {
		var err error
		if child, err = s.putTree(ctx, tip, path.Join(dir, segs[0]), segs[1:], tree); err != nil {
			return "", err
		}
	}
	var kept []treeEntry
	for _, e := range entries {
		e.path = path.Base(e.path)
		if e.path != segs[0] {
			kept = append(kept, e)
		}
	}
	kept = append(kept, treeEntry{mode: "040000", typ: "tree", oid: child, path: segs[0]})
	return s.mktree(ctx, kept)
}

func (s *Store) mktree(ctx context.Context, entries []treeEntry) (string, error) {
	tree := make([]gitexec.TreeEntry, len(entries))
	for i, e := range entries {
		tree[i] = gitexec.TreeEntry{Mode: e.mode, Type: e.typ, OID: e.oid, Path: e.path}
	}
	return gitexec.MakeTree(ctx, s.git.where(), tree)
}

// entriesAt lists the folder dir ("" = the root) of the tree at tip;
// nothing when there is no tip yet.
func (s *Store) entriesAt(ctx context.Context, tip, dir string) ([]treeEntry, error) {
	switch {
	case tip == "":
		return nil, nil
	case dir == "":
		return s.git.lsTree(ctx, tip, false)
	}
	return s.git.lsTree(ctx, tip, false, dir+"/")
}
