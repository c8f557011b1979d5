package repofs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is wrapped by the error for a path whose real place is out of
// every root: a link out of the repository, or a path that leaves it.
var ErrOutside = errors.New("outside the files ownership-check reads")

// outsideError is a refusal of a path out of the roots; it is ErrOutside.
type outsideError string

func (e outsideError) Error() string        { return string(e) }
func (e outsideError) Is(target error) bool { return target == ErrOutside }

// FS reads files inside its roots: the repository, and directories the
// person running the tool named (never anything a pull request writes).
type FS struct {
	cwd, realCwd string
	roots        []root
	// named are the places the person running the tool named (the
	// working directory and each directory given), as named and
	// resolved: links there are theirs, not a pull request's, so a
	// path below one is resolved from there (resolve.go).
	named []prefix
}

// prefix is a directory as named and its real path.
type prefix struct{ given, real string }

type root struct {
	dir string // resolved, absolute
	r   *os.Root
}

// Open makes an FS of the given directories (a file stands for its
// directory); the first is the repository. A directory inside an earlier
// one adds nothing. A relative directory or name is below cwd, and names
// are shown relative to it. Close releases it.
func Open(cwd string, dirs ...string) (*FS, error) {
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return nil, err
	}
	realCwd, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return nil, err
	}
	f := &FS{cwd: cwd, realCwd: realCwd, named: []prefix{{cwd, realCwd}}}
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			d = filepath.Join(cwd, d)
		}
		d = filepath.Clean(d)
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			f.Close()
			return nil, err
		}
		if info, err := os.Stat(real); err == nil && !info.IsDir() {
			real = filepath.Dir(real)
		} else {
			f.named = append(f.named, prefix{d, real})
		}
		if f.Contains(real) {
			continue
		}
		r, err := os.OpenRoot(real)
		if err != nil {
			f.Close()
			return nil, err
		}
		f.roots = append(f.roots, root{dir: real, r: r})
	}
	return f, nil
}

// Close releases the roots; nothing can be read after it.
func (f *FS) Close() error {
	var errs []error
	for _, r := range f.roots {
		errs = append(errs, r.r.Close())
	}
	f.roots = nil
	return errors.Join(errs...)
}

// Top is the first root (resolved): the repository.
func (f *FS) Top() string {
	if len(f.roots) == 0 {
		return ""
	}
	return f.roots[0].dir
}

// Contains says whether a resolved absolute path is a root or below one.
func (f *FS) Contains(real string) bool {
	_, ok := f.rootOf(real)
	return ok
}

func (f *FS) rootOf(real string) (root, bool) {
	for _, r := range f.roots {
		if Within(r.dir, real) {
			return r, true
		}
	}
	return root{}, false
}

// Within says whether path is dir or below it (both clean and absolute):
// the one test of "inside", lexical, for paths already resolved.
func Within(dir, path string) bool {
	if dir == path {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}

// abs is name as an absolute clean path; a relative name is below cwd.
func (f *FS) abs(name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(f.cwd, name)
}

// inRoot is the root that holds name's real place, and that place relative
// to it.
func (f *FS) inRoot(name string) (root, string, error) {
	real, err := f.Resolve(name)
	if err != nil {
		return root{}, "", err
	}
	r, _ := f.rootOf(real)
	rel, err := filepath.Rel(r.dir, real)
	if err != nil {
		return root{}, "", err
	}
	return r, rel, nil
}

// Rel gives a path as users see it: relative to the working directory
// when below it, slash-separated; else absolute.
func (f *FS) Rel(p string) string {
	if filepath.IsAbs(p) && !Within(f.cwd, p) && Within(f.realCwd, p) {
		return relTo(f.realCwd, p)
	}
	return relTo(f.cwd, p)
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

func (f *FS) String() string {
	names := make([]string, len(f.roots))
	for i, r := range f.roots {
		names[i] = filepath.ToSlash(r.dir)
	}
	switch len(names) {
	case 0:
		return "no directory"
	case 1:
		return "the repository " + names[0]
	}
	return "the repository " + names[0] + " and the paths given (" + strings.Join(names[1:], ", ") + ")"
}

// RepositoryRoot is the root of the repository holding dir (FindRepository);
// dir itself when there is none.
func RepositoryRoot(dir string) string {
	if root, ok := FindRepository(dir); ok {
		return root
	}
	return dir
}

// FindRepository walks up from dir to the directory holding .git (a
// folder, or the file a worktree or submodule has): the one finder of a
// repository's root, which git's own top level (gitexec.TopLevel) is too.
// It reads only the names on the way up, and runs no git.
func FindRepository(dir string) (string, bool) {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// RealPath is p with every link resolved, for comparing a path with one
// another program gives (git's top level); it reads nothing.
func RealPath(p string) (string, error) { return filepath.EvalSymlinks(p) }

// Leaves says whether rel, a clean path relative to a directory (with
// slashes or the system's separator), names a place above it: the lexical
// test for a path a file or a flag writes, before anything is read.
func Leaves(rel string) bool {
	rel = filepath.ToSlash(rel)
	return rel == ".." || strings.HasPrefix(rel, "../")
}
