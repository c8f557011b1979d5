package gitexec

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/parallel"
)

// Trees are commits' trees read out of git into temporary directories for
// one run: a run of many targets reads each commit once, and Close removes
// them all. The zero value is ready to use.
type Trees struct {
	// Top, when set, is the top of the repository holding every path
	// rendered from these trees (a run's targets'), so that none has to
	// ask git for it.
	Top string

	trees parallel.Keyed[string, string]
	// resolved are the revisions resolved (Resolved).
	resolved parallel.Keyed[string, string]
	// changes are the working trees' changes since a commit (Changes).
	changes parallel.Keyed[string, *Changes]
	changed parallel.Keyed[string, []PathStatus]

	mu     sync.Mutex
	closed bool
	// dirs are every directory made for a tree, read or not.
	dirs []string
	// reading counts the extractions under way, so that Close removes
	// every directory they make, the ones still being made included.
	reading sync.WaitGroup
}

// errClosed is a tree asked for after Close.
var errClosed = errors.New("the run's git trees are removed already")

// Tree is commit's tree of the repository at top in a temporary
// directory, read on first use: regular files and symlinks (whoever reads
// it must refuse a symlink that leaves it); submodules are left out. The
// directory lives until Close.
func (ts *Trees) Tree(ctx context.Context, top, commit string) (string, error) {
	return ts.read(ctx, top+"\x00"+commit, func(dir string) error { return extractTree(ctx, top, commit, dir, nil, nil) })
}

// Sparse is the part of commit's tree in dirs (slash-separated, relative
// to the top; "." is the top), each folder's own files without its
// subfolders', in a temporary directory of its own that lives until
// Close: what a render that reads a few folders of a large repository
// needs, without writing the thousands of files of the others.
func (ts *Trees) Sparse(ctx context.Context, top, commit string, dirs []string) (string, error) {
	in := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		in[path.Clean(d)] = true
	}
	sorted := slices.Sorted(maps.Keys(in))
	return ts.read(ctx, top+"\x00"+commit+"\x00"+strings.Join(sorted, "\x00"), func(dir string) error {
		return extractTree(ctx, top, commit, dir, listedUnder(sorted), func(p string) bool { return in[path.Dir(p)] })
	})
}

// read is the tree of key, extracted by extract into a new temporary
// directory on first use.
func (ts *Trees) read(ctx context.Context, key string, extract func(dir string) error) (string, error) {
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		return "", errClosed
	}
	ts.reading.Add(1)
	ts.mu.Unlock()
	defer ts.reading.Done()
	return ts.trees.Get(ctx, key, func(context.Context) (string, error) {
		dir, err := os.MkdirTemp("", "ownership-check-tree-")
		if err != nil {
			return "", err
		}
		ts.mu.Lock()
		ts.dirs = append(ts.dirs, dir)
		ts.mu.Unlock()
		return dir, extract(dir)
	})
}

// Close removes every tree read, after waiting for the ones being read.
func (ts *Trees) Close() error {
	ts.mu.Lock()
	ts.closed = true
	ts.mu.Unlock()
	ts.reading.Wait()
	var errs []error
	for _, dir := range ts.dirs {
		errs = append(errs, os.RemoveAll(dir))
	}
	return errors.Join(errs...)
}

// listedUnder are the pathspecs that list no more of a tree than the
// folders dirs hold: the folders themselves, or nil (the whole tree) when
// one is the top or could read as a pattern. A monorepo's tree is
// thousands of entries where a target's folders are a few.
func listedUnder(dirs []string) []string {
	for _, d := range dirs {
		if d == "." || d == "" || strings.ContainsAny(d, "*?[\\:") {
			return nil
		}
	}
	return dirs
}

// extractTree writes commit's files into dir: those under the folders of
// under (all when nil) that keep keeps.
func extractTree(ctx context.Context, top, commit, dir string, under []string, keep func(slashPath string) bool) error {
	where := Where{Dir: top}
	args := []string{"ls-tree", "-r", "-z", "--full-tree", commit}
	if len(under) > 0 {
		args = append(append(args, "--"), under...)
	}
	list, err := Run(ctx, where, nil, args...)
	if err != nil {
		return err
	}
	all, err := ParseTree(list)
	if err != nil {
		return err
	}
	var files []TreeEntry
	var oids []string
	for _, e := range all {
		if e.Type != "blob" || keep != nil && !keep(e.Path) {
			continue
		}
		p := filepath.FromSlash(e.Path)
		if filepath.IsAbs(p) || p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) || strings.Contains(p, string(filepath.Separator)+".."+string(filepath.Separator)) {
			return fmt.Errorf("git ls-tree: path %q leaves the tree", e.Path)
		}
		e.Path = p
		files = append(files, e)
		oids = append(oids, e.OID)
	}
	made := map[string]bool{}
	return CatBlobs(ctx, where, oids, func(i int, data []byte) error {
		e := files[i]
		target := filepath.Join(dir, e.Path)
		if parent := filepath.Dir(target); !made[parent] {
			if err := os.MkdirAll(parent, 0o755); err != nil {
				return err
			}
			made[parent] = true
		}
		switch e.Mode {
		case "120000":
			return os.Symlink(string(data), target)
		case "100755":
			return os.WriteFile(target, data, 0o755)
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// RepositoryOf is the top of the git repository holding path, a file or
// a directory.
func RepositoryOf(ctx context.Context, path string) (string, error) {
	dir := path
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		dir = filepath.Dir(path)
	}
	return TopLevel(ctx, dir)
}

// Relative gives path relative to the repository top, symlinks resolved
// as git compares paths, refusing one outside it.
func Relative(top, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git repository %s", path, top)
	}
	return rel, nil
}

// Resolved is the commit rev names in the repository at top, as resolve
// finds it, once for the run: the targets of one run resolve the same base
// revision, and each resolve is git processes. A revision that does not
// resolve fails every target of the run alike.
func (ts *Trees) Resolved(ctx context.Context, top, rev string, resolve func(ctx context.Context) (string, error)) (string, error) {
	return ts.resolved.Get(ctx, top+"\x00"+rev, resolve)
}
