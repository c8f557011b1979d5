package repofs

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// Glob is filepath.Glob inside the roots: the matches of pattern, as
// given (absolute, or below the working directory), in lexical order. The
// part of pattern before its first wildcard must lie inside the roots; a
// pattern that reaches elsewhere matches nothing, as a missing directory
// does. A match may be a link: what reads it is refused by name if it
// leads out.
func (f *FS) Glob(pattern string) ([]string, error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, err
	}
	abs := f.abs(pattern)
	if !hasMeta(abs) {
		if _, err := f.Lstat(abs); err != nil {
			return nil, nil
		}
		return []string{pattern}, nil
	}
	dir := filepath.Dir(abs)
	for hasMeta(dir) {
		dir = filepath.Dir(dir)
	}
	r, rel, err := f.inRoot(dir)
	if err != nil {
		return nil, nil
	}
	rest, err := filepath.Rel(dir, abs)
	if err != nil {
		return nil, err
	}
	top := filepath.ToSlash(rel)
	matches, err := fs.Glob(r.r.FS(), path.Join(top, filepath.ToSlash(rest)))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(matches))
	for i, m := range matches {
		below := m
		if top != "." {
			below = strings.TrimPrefix(m, top+"/")
		}
		out[i] = filepath.Join(dir, filepath.FromSlash(below))
	}
	if !filepath.IsAbs(pattern) {
		for i, m := range out {
			if r, err := filepath.Rel(f.cwd, m); err == nil {
				out[i] = r
			}
		}
	}
	return out, nil
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }
