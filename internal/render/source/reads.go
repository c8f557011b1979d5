package source

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Reads are what a render read: every file, and every directory whose
// listing it depended on (a YAML directory's files, a kustomization's
// directory, where adding or removing a kustomization file changes the
// build). Every Source reads through our file system (kustomize too) or
// records what it read (Input.ReadFile), so the list is exact,
// like a compiler's dependency file: a change to the repository changes
// the render only if it touches one of them.
type Reads struct {
	mu    sync.Mutex
	files map[string]bool
	dirs  map[string]bool
}

// NewReads starts an empty record.
func NewReads() *Reads { return &Reads{files: map[string]bool{}, dirs: map[string]bool{}} }

func (r *Reads) File(real string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.files[real] = true
	r.mu.Unlock()
}

func (r *Reads) Dir(real string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.dirs[real] = true
	r.mu.Unlock()
}

// Relative lists the files and directories read below root, relative to it
// with forward slashes, sorted; outside is how many were read outside it
// (which a change to the repository cannot be seen to touch).
func (r *Reads) Relative(root string) (files, dirs []string, outside int) {
	if real, err := repofs.RealPath(root); err == nil {
		root = real
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rel := func(set map[string]bool) []string {
		var out []string
		for p := range set {
			x, err := filepath.Rel(root, p)
			if err != nil || x == ".." || strings.HasPrefix(x, ".."+string(filepath.Separator)) {
				outside++
				continue
			}
			out = append(out, filepath.ToSlash(x))
		}
		sort.Strings(out)
		return out
	}
	return rel(r.files), rel(r.dirs), outside
}
