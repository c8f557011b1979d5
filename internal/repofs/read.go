package repofs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ReadFile reads a regular file inside the roots of at most limit bytes.
// What is not a regular file (a FIFO, a device) is refused before it is
// opened, so that nothing waits on it or reads it without end.
func (f *FS) ReadFile(name string, limit Limit) ([]byte, error) {
	file, err := f.openRegular(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	display := f.Rel(f.abs(name))
	info, err := file.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(display)
	}
	if info.Size() > int64(limit) {
		return nil, fmt.Errorf("%s: %d bytes, larger than the limit of %d", display, info.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(file, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if len(data) > int(limit) {
		return nil, fmt.Errorf("%s: larger than the limit of %d bytes", display, limit)
	}
	return data, nil
}

func notRegular(display string) error {
	return fmt.Errorf("%s: not a regular file; ownership-check reads only regular files", display)
}

// Open opens a regular file inside the roots, for a caller that must hand
// on a file (kustomize's file system); ReadFile is the bounded read.
func (f *FS) Open(name string) (*os.File, error) {
	return f.openRegular(name)
}

func (f *FS) openRegular(name string) (*os.File, error) {
	r, rel, err := f.inRoot(name)
	if err != nil {
		return nil, err
	}
	display := f.Rel(f.abs(name))
	info, err := r.r.Stat(rel)
	if err != nil {
		return nil, pathError(display, err)
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(display)
	}
	file, err := r.r.Open(rel)
	if err != nil {
		return nil, pathError(display, err)
	}
	return file, nil
}

// pathError names the file as the user sees it in an os.Root error, whose
// path is relative to the root.
func pathError(display string, err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return &fs.PathError{Op: pe.Op, Path: display, Err: pe.Err}
	}
	return fmt.Errorf("%s: %w", display, err)
}

// Stat is name's information, its links followed inside the roots.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	r, rel, err := f.inRoot(name)
	if err != nil {
		return nil, err
	}
	info, err := r.r.Stat(rel)
	if err != nil {
		return nil, pathError(f.Rel(f.abs(name)), err)
	}
	return info, nil
}

// Lstat is name's own information (a link is a link), its directory
// inside the roots.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	abs := f.abs(name)
	dir, err := f.Resolve(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	r, _ := f.rootOf(dir)
	rel, err := filepath.Rel(r.dir, filepath.Join(dir, filepath.Base(abs)))
	if err != nil {
		return nil, err
	}
	info, err := r.r.Lstat(rel)
	if err != nil {
		return nil, pathError(f.Rel(abs), err)
	}
	return info, nil
}

// Exists says whether name is there: a file or a directory inside the
// roots, or a link out of them, which every read then refuses by name.
func (f *FS) Exists(name string) bool {
	_, err := f.Stat(name)
	return err == nil || errors.Is(err, ErrOutside)
}

// IsDir says whether name is a directory inside the roots.
func (f *FS) IsDir(name string) bool {
	info, err := f.Stat(name)
	return err == nil && info.IsDir()
}

// IsRegular says whether name is a regular file inside the roots.
func (f *FS) IsRegular(name string) bool {
	info, err := f.Stat(name)
	return err == nil && info.Mode().IsRegular()
}
