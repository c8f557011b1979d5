package repofs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the links one path may pass through, as
// filepath.EvalSymlinks does.
const maxLinks = 255

// errLeaves stops a walk at the first place it would look up outside
// every root.
var errLeaves = errors.New("leaves the roots")

// Resolve gives the real path of name (its links followed), and refuses
// it when that is outside every root, naming the file and saying the link
// is not followed. Links are followed one path element at a time, and the
// walk stops at the first element outside the roots without looking it
// up: so the refusal reads the same whether the place outside exists, is
// a file, a directory or another link (docs/trust-model.md), and a link
// that leaves the roots and comes back through `..` is refused as well,
// as os.Root refuses it.
func (f *FS) Resolve(name string) (string, error) {
	abs := f.abs(name)
	real, linked, err := f.walk(abs)
	switch {
	case errors.Is(err, errLeaves) && linked:
		return "", outsideError(fmt.Sprintf("%s: symlink to a path outside %s; ownership-check does not follow it", f.Rel(abs), f))
	case errors.Is(err, errLeaves):
		return "", outsideError(fmt.Sprintf("%s: outside %s; ownership-check does not read it", f.Rel(abs), f))
	case err != nil:
		return "", err
	}
	return real, nil
}

// walk resolves abs (absolute, clean) as filepath.EvalSymlinks does,
// from the deepest directory the person running the tool named that
// holds it, and says whether it followed a link. It looks up only places
// inside the roots or on the way to one (a root's parents, which hold no
// link: they are resolved); anything else is errLeaves.
func (f *FS) walk(abs string) (real string, linked bool, err error) {
	dest, rest := f.start(abs)
	sep := string(filepath.Separator)
	links := 0
	for rest != "" {
		var elem string
		elem, rest, _ = strings.Cut(rest, sep)
		switch elem {
		case "", ".":
			continue
		case "..":
			dest = filepath.Dir(dest)
			continue
		}
		next := filepath.Join(dest, elem)
		if !f.Contains(next) && !f.onTheWay(next) {
			return "", linked, errLeaves
		}
		info, err := os.Lstat(next)
		if err != nil {
			return "", linked, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			if !info.IsDir() && rest != "" {
				return "", linked, &fs.PathError{Op: "lstat", Path: next + sep + rest, Err: syscall.ENOTDIR}
			}
			dest = next
			continue
		}
		if links++; links > maxLinks {
			return "", linked, fmt.Errorf("%s: too many links", f.Rel(abs))
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", linked, err
		}
		linked = true
		if filepath.IsAbs(target) {
			dest = filepath.VolumeName(target) + sep
		}
		if rest != "" {
			target += sep + rest
		}
		rest = target
	}
	if !f.Contains(dest) {
		return "", linked, errLeaves
	}
	return dest, linked, nil
}

// start is where walk begins for abs: the deepest place the person
// running the tool named that holds it, resolved, and what is left of
// abs below it; else the top of the file system.
func (f *FS) start(abs string) (dest, rest string) {
	best := prefix{given: "", real: filepath.VolumeName(abs) + string(filepath.Separator)}
	consider := func(p prefix) {
		if Within(p.given, abs) && len(p.given) > len(best.given) {
			best = p
		}
	}
	for _, p := range f.named {
		consider(p)
	}
	for _, r := range f.roots {
		consider(prefix{r.dir, r.dir})
	}
	if best.given == "" {
		return best.real, abs
	}
	return best.real, strings.TrimPrefix(abs[len(best.given):], string(filepath.Separator))
}

// onTheWay says whether p (resolved) is a parent of a root: a directory
// resolved when the root was, whose lookup says nothing about what a pull
// request cannot see.
func (f *FS) onTheWay(p string) bool {
	for _, r := range f.roots {
		if Within(p, r.dir) {
			return true
		}
	}
	return false
}
