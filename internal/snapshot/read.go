package snapshot

import (
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"strings"

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
	blobs, err := s.git.catBlobs(ctx, oids)
	if err != nil {
		return nil, err
	}
	files := make(map[string][]byte, len(entries))
	for i, e := range entries {
		files[strings.TrimPrefix(e.path, env+"/")] = blobs[i]
	}
	snap, err := decodeFolder(env, files)
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

// decodeFolder decodes an environment's files (paths relative to its
// folder) and checks that the index and the object files agree. It takes
// files over: the object files leave it as they are decoded.
func decodeFolder(env string, files map[string][]byte) (*Snapshot, error) {
	fail := func(file string, format string, args ...any) error {
		return &FileError{File: file, Err: fmt.Errorf(format, args...)}
	}
	b, ok := files[indexFile]
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
	blobs := make([][]byte, len(ix.Objects))
	for i, ie := range ix.Objects {
		if want := ObjectPath(ie.ID); ie.Path != want {
			return nil, fail(indexFile, "%s: path %q, expected %q", ie.ID, ie.Path, want)
		}
		listed[ie.Path] = true
		b, ok := files[ie.Path]
		if !ok {
			return nil, fail(ie.Path, "listed in %s but missing", indexFile)
		}
		blobs[i] = b
	}
	// From here on the object files are held by blobs alone, which lets
	// each go as soon as it is decoded.
	for p := range listed {
		delete(files, p)
	}
	decoded := decodeEntries(blobs)
	for i, ie := range ix.Objects {
		e, err := decoded[i].entry, decoded[i].err
		if err != nil {
			return nil, &FileError{File: ie.Path, Err: err}
		}
		if e.ID != ie.ID {
			return nil, fail(ie.Path, "holds %s, expected %s", e.ID, ie.ID)
		}
		snap.Objects[e.ID] = e
	}
	if snap.Schemas, err = decodeSchemas(files); err != nil {
		return nil, err
	}
	if snap.Documents, err = decodeDocuments(files); err != nil {
		return nil, err
	}
	for p := range files {
		if strings.HasPrefix(p, objectsDir+"/") && !listed[p] {
			return nil, fail(p, "not listed in %s", indexFile)
		}
	}
	return snap, nil
}

type decodedEntry struct {
	entry *Entry
	err   error
}

// decodeEntries decodes object files side by side (decoding is most of a
// read's CPU, and check waits for it), dropping each file once decoded.
func decodeEntries(blobs [][]byte) []decodedEntry {
	out := make([]decodedEntry, len(blobs))
	parallel.For(len(blobs), runtime.GOMAXPROCS(0), func(i int) {
		out[i].entry, out[i].err = decodeEntry(blobs[i])
		blobs[i] = nil
	})
	return out
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
// ls-tree, one cat-file): choosing a monorepo's affected targets reads
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
	entries, err := s.git.lsTree(ctx, c, true, files...)
	if err != nil {
		return nil, err
	}
	oids := make([]string, len(entries))
	for i, e := range entries {
		oids[i] = e.oid
	}
	blobs, err := s.git.catBlobs(ctx, oids)
	if err != nil {
		return nil, err
	}
	for i, e := range entries {
		ix, err := decodeIndex(blobs[i])
		if err != nil {
			return nil, &FileError{Branch: s.branch, Commit: c, File: e.path, Err: err}
		}
		out[ix.Environment] = ix
	}
	return out, nil
}
