package appset

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// repoTree is the checkout as the repo server lists it for the git
// generator: its directories (walk order, none under a dot directory) and
// its files (everything but .git).
type repoTree struct {
	dirs  []string
	files []string
}

func (e *expander) tree() (*repoTree, error) {
	if e.walked != nil {
		return e.walked, nil
	}
	read, err := e.files()
	if err != nil {
		return nil, fmt.Errorf("listing the repository for the git generator: %w", err)
	}
	t := &repoTree{}
	err = read.WalkDir(e.repo.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := e.ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(e.repo.Root, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if !d.IsDir() {
			t.files = append(t.files, rel)
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !hiddenPath(rel) {
			t.dirs = append(t.dirs, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing the repository for the git generator: %w", err)
	}
	e.walked = t
	return t, nil
}

// hiddenPath says whether a segment of rel starts with a dot: the repo
// server skips such directories for the directory generator.
func hiddenPath(rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// pathspecMatch is git's pathspec match, as `git ls-files -- PATTERN` does
// for the file generator: the pattern itself or a directory it names, else
// a glob whose `*` and `?` also match '/'.
func pathspecMatch(pattern, name string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	if pattern == "" || pattern == "." {
		return true
	}
	if strings.HasPrefix(name, pattern) {
		if len(name) == len(pattern) || strings.HasSuffix(pattern, "/") || name[len(pattern)] == '/' {
			return true
		}
	}
	if !strings.ContainsAny(pattern, "*?[\\") {
		return false
	}
	return wildmatch(pattern, name)
}

// wildmatch is git's wildmatch without WM_PATHNAME.
func wildmatch(p, s string) bool {
	if p == "" {
		return s == ""
	}
	switch p[0] {
	case '*':
		for strings.HasPrefix(p, "*") {
			p = p[1:]
		}
		if p == "" {
			return true
		}
		for i := 0; i <= len(s); i++ {
			if wildmatch(p, s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && wildmatch(p[1:], s[1:])
	case '[':
		if s == "" {
			return false
		}
		rest, ok := matchClass(p[1:], s[0])
		if rest < 0 {
			// No closing bracket: '[' is literal.
			return s[0] == '[' && wildmatch(p[1:], s[1:])
		}
		return ok && wildmatch(p[1+rest:], s[1:])
	case '\\':
		if len(p) > 1 {
			return s != "" && s[0] == p[1] && wildmatch(p[2:], s[1:])
		}
	}
	return s != "" && s[0] == p[0] && wildmatch(p[1:], s[1:])
}

// matchClass matches c against a bracket expression p (after '['); it
// returns the length of the expression with its ']' (-1 when unclosed).
func matchClass(p string, c byte) (int, bool) {
	i, negate, matched := 0, false, false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return i + 1, matched != negate
		}
		first = false
		lo := p[i]
		if lo == '\\' && i+1 < len(p) {
			i++
			lo = p[i]
		}
		i++
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi = p[i+1]
			if hi == '\\' && i+2 < len(p) {
				i++
				hi = p[i+1]
			}
			i += 2
		}
		if lo <= c && c <= hi {
			matched = true
		}
	}
	return -1, false
}

// files is the reader of the repository's files, opened once.
func (e *expander) files() (*repofs.FS, error) {
	if e.read == nil {
		// The walk's paths are made relative to Root: it must be the
		// reader's own, absolute, top.
		root, err := filepath.Abs(e.repo.Root)
		if err != nil {
			return nil, err
		}
		read, err := repofs.Open(root, ".")
		if err != nil {
			return nil, err
		}
		e.repo.Root, e.read = root, read
	}
	return e.read, nil
}

func (e *expander) close() {
	if e.read != nil {
		e.read.Close()
	}
}
