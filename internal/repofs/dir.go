package repofs

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// ReadDir lists a directory inside the roots, sorted by name as
// os.ReadDir does. An entry that is a link is listed as a link.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	r, rel, err := f.inRoot(name)
	if err != nil {
		return nil, err
	}
	d, err := r.r.Open(rel)
	if err != nil {
		return nil, pathError(f.Rel(f.abs(name)), err)
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, pathError(f.Rel(f.abs(name)), err)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// WalkDir walks the tree at name as filepath.WalkDir does (lexical order,
// links below name not followed), inside the roots; fn sees paths below
// name as given.
func (f *FS) WalkDir(name string, fn fs.WalkDirFunc) error {
	r, rel, err := f.inRoot(name)
	if err != nil {
		return fn(name, nil, err)
	}
	top := filepath.ToSlash(rel)
	return fs.WalkDir(r.r.FS(), top, func(p string, d fs.DirEntry, err error) error {
		below := strings.TrimPrefix(strings.TrimPrefix(p, top), "/")
		if top == "." {
			below = p
			if p == "." {
				below = ""
			}
		}
		return fn(filepath.Join(name, filepath.FromSlash(below)), d, err)
	})
}

// Walk is filepath.Walk over WalkDir: each entry's own information.
func (f *FS) Walk(name string, fn filepath.WalkFunc) error {
	return f.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fn(p, nil, err)
		}
		info, err := d.Info()
		if err != nil {
			return fn(p, nil, err)
		}
		return fn(p, info, nil)
	})
}
