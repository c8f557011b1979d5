package render

import (
	"os"
	"path/filepath"
	"strings"
)

// boundary is the set of directories rendering may read: the repository
// that holds the working directory (or the working directory itself outside
// a repository) and the paths given on the command line, which the person
// or workflow running the tool chose. Nothing a pull request writes can
// widen it.
type boundary struct {
	cwd     string
	realCwd string
	roots   []string // resolved, absolute
}

func newBoundary(cwd, root string, paths []string) (*boundary, error) {
	realCwd, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return nil, err
	}
	b := &boundary{cwd: cwd, realCwd: realCwd}
	if root == "" {
		root = repositoryRoot(cwd)
	}
	top, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	b.roots = append(b.roots, top)
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, p)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, err
		}
		if info, err := os.Stat(real); err == nil && !info.IsDir() {
			real = filepath.Dir(real)
		}
		if !b.contains(real) {
			b.roots = append(b.roots, real)
		}
	}
	return b, nil
}

// repositoryRoot walks up from dir to the directory holding .git; dir
// itself when there is none.
func repositoryRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// contains tells whether a resolved absolute path is inside a root.
func (b *boundary) contains(real string) bool {
	for _, r := range b.roots {
		if within(r, real) {
			return true
		}
	}
	return false
}

// within tells whether path is dir or below it (both clean and absolute).
func within(dir, path string) bool {
	if dir == path {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}

// rel gives a path as users see it: relative to the working directory when
// it is below it, slash-separated.
func (b *boundary) rel(p string) string {
	if filepath.IsAbs(p) && !within(b.cwd, p) && within(b.realCwd, p) {
		return relTo(b.realCwd, p)
	}
	return relTo(b.cwd, p)
}

func relTo(cwd, p string) string {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, p)
	}
	r, err := filepath.Rel(cwd, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(filepath.Clean(abs))
	}
	return filepath.ToSlash(r)
}

func (b *boundary) String() string {
	names := make([]string, len(b.roots))
	for i, r := range b.roots {
		names[i] = filepath.ToSlash(r)
	}
	if len(names) == 1 {
		return "the repository " + names[0]
	}
	return "the repository " + names[0] + " and the paths given (" + strings.Join(names[1:], ", ") + ")"
}
