package snapshot

import (
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/parallel"
)

// FileError names the file of the snapshot branch that could not be read:
// corrupt, or written by a newer ownership-check (errors.Is ErrNewerSchema).
type FileError struct {
	Branch, Commit, File string
	Err                  error
}

func (e *FileError) Error() string {
	what := "corrupt: "
	if errors.Is(e.Err, ErrNewerSchema) {
		what = ""
	}
	return fmt.Sprintf("%s (snapshot branch %s at %s): %s%v", e.File, e.Branch, model.ShortCommit(e.Commit), what, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// Read reads an environment's snapshot at a commit of the branch; commit ""
// is the branch's tip (fetched first when the repository has a remote).
// When there is no snapshot of the environment the error wraps ErrNotFound;
// an unreadable file gives a *FileError naming it.
func (s *Store) Read(ctx context.Context, env, commit string) (*Snapshot, error) {
	if err := ValidateEnvironment(env); err != nil {
		return nil, err
	}
	c, err := s.commitOf(ctx, commit)
	if err != nil {
		return nil, err
	}
	entries, err := s.git.lsTree(ctx, c, true, env+"/")
	if err != nil {
		return nil, err
	}
	return s.readListed(ctx, env, c, entries)
}

// readListed reads an environment's snapshot from its folder's files as
// listed at commit c.
func (s *Store) readListed(ctx context.Context, env, c string, entries []treeEntry) (*Snapshot, error) {
	if len(entries) == 0 {
		return nil, fmt.Errorf("environment %s at %s of %s: %w", env, model.ShortCommit(c), s.branch, ErrNotFound)
	}
	oids := make([]string, len(entries))
	for i, e := range entries {
		if e.typ != "blob" {
			return nil, &FileError{s.branch, c, e.path, fmt.Errorf("a %s, not a file", e.typ)}
		}
		oids[i] = e.oid
	}
	f, err := s.readFolder(ctx, env, entries, oids)
	if err != nil {
		return nil, err
	}
	snap, err := decodeFolder(env, f)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			fe.Branch, fe.Commit, fe.File = s.branch, c, path.Join(env, fe.File)
		}
		return nil, err
	}
	snap.Commit = c
	return snap, nil
}

// readFolder reads an environment's files with one git process, each
// handed to a folder as it arrives.
func (s *Store) readFolder(ctx context.Context, env string, entries []treeEntry, oids []string) (*folder, error) {
	f := newFolder()
	err := s.catEach(ctx, oids, func(i int, b []byte) error {
		f.add(strings.TrimPrefix(entries[i].path, env+"/"), b)
		return nil
	})
	f.wait()
	if err != nil {
		return nil, err
	}
	return f, nil
}

// folder gathers an environment's files, by path relative to its folder,
// as they are read: each object file is sealed (sealEntry) on other
// goroutines as it arrives and its bytes let go, so that the files as
// stored are never all held at once; the other files are kept as they are.
type folder struct {
	files  map[string][]byte
	sealed map[string]sealedEntry
	mu     sync.Mutex
	pool   *parallel.Pool
	d      deflaters
}

type sealedEntry struct {
	entry *Entry
	err   error
}

func newFolder() *folder {
	workers := runtime.GOMAXPROCS(0)
	return &folder{
		files:  map[string][]byte{},
		sealed: map[string]sealedEntry{},
		pool:   parallel.NewPool(workers, workers),
		d:      processDeflaters(),
	}
}

// add takes one file; not safe for concurrent use (the files come from one
// reader).
func (f *folder) add(rel string, b []byte) {
	if !strings.HasPrefix(rel, objectsDir+"/") {
		f.files[rel] = b
		return
	}
	f.pool.Go(func() {
		e, err := sealEntry(b, f.d)
		f.mu.Lock()
		f.sealed[rel] = sealedEntry{e, err}
		f.mu.Unlock()
	})
}

// wait returns once every object file added is sealed.
func (f *folder) wait() { f.pool.Wait() }

// decodeFolder decodes an environment's files and checks that the index
// and the object files agree.
func decodeFolder(env string, f *folder) (*Snapshot, error) {
	fail := func(file string, format string, args ...any) error {
		return &FileError{File: file, Err: fmt.Errorf(format, args...)}
	}
	b, ok := f.files[indexFile]
	if !ok {
		return nil, fail(indexFile, "missing")
	}
	ix, err := decodeIndex(b)
	if err != nil {
		return nil, &FileError{File: indexFile, Err: err}
	}
	if ix.Environment != env {
		return nil, fail(indexFile, "environment is %q, expected %q", ix.Environment, env)
	}
	snap := &Snapshot{Index: *ix, Objects: make(map[model.ID]*Entry, len(ix.Objects))}
	listed := make(map[string]bool, len(ix.Objects))
	for _, ie := range ix.Objects {
		if want := ObjectPath(ie.ID); ie.Path != want {
			return nil, fail(indexFile, "%s: path %q, expected %q", ie.ID, ie.Path, want)
		}
		listed[ie.Path] = true
		se, ok := f.sealed[ie.Path]
		if !ok {
			return nil, fail(ie.Path, "listed in %s but missing", indexFile)
		}
		if se.err != nil {
			return nil, &FileError{File: ie.Path, Err: se.err}
		}
		if se.entry.ID != ie.ID {
			return nil, fail(ie.Path, "holds %s, expected %s", se.entry.ID, ie.ID)
		}
		snap.Objects[ie.ID] = se.entry
	}
	for p := range f.sealed {
		if !listed[p] {
			return nil, fail(p, "not listed in %s", indexFile)
		}
	}
	if snap.Schemas, err = decodeSchemas(f.files); err != nil {
		return nil, err
	}
	if snap.Documents, err = decodeDocuments(f.files); err != nil {
		return nil, err
	}
	return snap, nil
}

// ReadIndex reads only an environment's index.json (the deploy's metadata
// and the list of objects) and returns it with the commit it was read at;
// errors as Read's.
func (s *Store) ReadIndex(ctx context.Context, env, commit string) (*Index, string, error) {
	if err := ValidateEnvironment(env); err != nil {
		return nil, "", err
	}
	c, err := s.commitOf(ctx, commit)
	if err != nil {
		return nil, "", err
	}
	file := path.Join(env, indexFile)
	entries, err := s.git.lsTree(ctx, c, true, file)
	if err != nil {
		return nil, "", err
	}
	if len(entries) != 1 {
		return nil, "", fmt.Errorf("environment %s at %s of %s: %w", env, model.ShortCommit(c), s.branch, ErrNotFound)
	}
	blobs, err := s.git.catBlobs(ctx, []string{entries[0].oid})
	if err != nil {
		return nil, "", err
	}
	ix, err := decodeIndex(blobs[0])
	if err == nil && ix.Environment != env {
		err = fmt.Errorf("environment is %q, expected %q", ix.Environment, env)
	}
	if err != nil {
		return nil, "", &FileError{Branch: s.branch, Commit: c, File: file, Err: err}
	}
	return ix, c, nil
}

// ReadIndexes reads the index.json of many environments at once (one
// cat-file): choosing a monorepo's affected targets reads
// hundreds. An environment with no snapshot is missing from the map.
func (s *Store) ReadIndexes(ctx context.Context, envs []string, commit string) (map[string]*Index, error) {
	out := map[string]*Index{}
	c, err := s.commitOf(ctx, commit)
	if errors.Is(err, ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	files := make([]string, 0, len(envs))
	for _, env := range envs {
		if err := ValidateEnvironment(env); err != nil {
			return nil, err
		}
		files = append(files, path.Join(env, indexFile))
	}
	if len(files) == 0 {
		return out, nil
	}
	// Each by its path in its top folder's tree: listing thousands of
	// paths in the whole tree cost git more than reading them, and a path
	// from the commit has git search its top tree of thousands of folders
	// once for each.
	top, err := s.git.lsTree(ctx, c, false)
	if err != nil {
		return nil, err
	}
	trees := make(map[string]string, len(top))
	for _, e := range top {
		if e.typ == "tree" {
			trees[e.path] = e.oid
		}
	}
	var specs []string
	var asked []string
	for _, f := range files {
		first, rest, _ := strings.Cut(f, "/")
		if oid, ok := trees[first]; ok {
			specs = append(specs, oid+":"+rest)
			asked = append(asked, f)
		}
	}
	files = asked
	err = gitexec.CatFiles(ctx, s.git.where(), specs, func(i int, b []byte, found bool) error {
		if !found {
			return nil
		}
		ix, err := decodeIndex(b)
		if err != nil {
			return &FileError{Branch: s.branch, Commit: c, File: files[i], Err: err}
		}
		out[ix.Environment] = ix
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
