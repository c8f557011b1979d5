package repofs

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
)

// ErrLinkLoop is wrapped by the error for a link to a directory that
// holds it (`templates/loop -> ..`, `a/b -> ../a`): a walk that follows
// links would go round it without end.
var ErrLinkLoop = errors.New("a directory link loop")

// LinkEntry is a file or directory WalkLinks meets, its links followed.
type LinkEntry struct {
	// Rel is its path below the top, slash-separated; "" for the top.
	Rel string
	// Real is its resolved path.
	Real string
	// Info is what it leads to: a link's target's, never the link's.
	Info fs.FileInfo
}

// WalkLinks walks the tree at name in lexical order, following links
// inside the roots as Helm's chart loader follows them (a link out of the
// roots refused by name): fn sees the top, then each entry below it, a
// directory before what it holds; fs.SkipDir from fn skips a directory.
// A link to a directory that holds it is an error naming the link
// (ErrLinkLoop), before anything below it is walked, so that no walker
// goes round a loop; each walker bounds what it reads of a tree that is
// large without one.
func (f *FS) WalkLinks(name string, fn func(LinkEntry) error) error {
	real, err := f.Resolve(name)
	if err != nil {
		return err
	}
	info, err := f.Stat(real)
	if err != nil {
		return err
	}
	err = f.walkLinks(LinkEntry{Real: real, Info: info}, f.abs(name), nil, fn)
	if errors.Is(err, fs.SkipDir) {
		return nil
	}
	return err
}

// walkLinks walks e, at the path walked (the top as named, then the
// names of the entries); up are the real paths of the directories that
// hold it, the top first.
func (f *FS) walkLinks(e LinkEntry, walked string, up []string, fn func(LinkEntry) error) error {
	if err := fn(e); err != nil || !e.Info.IsDir() {
		return err
	}
	entries, err := f.ReadDir(e.Real)
	if err != nil {
		return err
	}
	up = append(up, e.Real)
	for _, d := range entries {
		at := filepath.Join(e.Real, d.Name())
		real, err := f.Resolve(at)
		if err != nil {
			return err
		}
		info, err := f.Stat(real)
		if err != nil {
			return err
		}
		below := filepath.Join(walked, d.Name())
		if info.IsDir() && slices.Contains(up, real) {
			// Named as walked: the way round the loop.
			return fmt.Errorf("%s: %w: it leads back to %s, which holds it", f.Rel(below), ErrLinkLoop, f.Rel(real))
		}
		rel := d.Name()
		if e.Rel != "" {
			rel = e.Rel + "/" + d.Name()
		}
		err = f.walkLinks(LinkEntry{Rel: rel, Real: real, Info: info}, below, up, fn)
		if err != nil && !(errors.Is(err, fs.SkipDir) && info.IsDir()) {
			return err
		}
	}
	return nil
}
