package flux

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fluxcd/pkg/sourceignore"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// fluxArtifact is what source-controller puts in a GitRepository's
// artifact, which is all a Flux controller reads: the repository less its
// default exclusions (VCS folders, .sops.yaml, CI files, images, ...), the
// patterns of every .sourceignore (each for its own folder and below) and
// the GitRepository's spec.ignore, last. A path is left out when it or a
// folder above it matches, as the archive's walk skips an ignored folder.
// The .sourceignore files are read when a path below them is first asked
// about, and recorded as read whether they exist or not.
type fluxArtifact struct {
	root   string // the repository's top, resolved
	spec   []gitignore.Pattern
	record func(real string)
	// read reads a .sourceignore file, bounded, inside the boundary.
	read func(name string) ([]byte, error)

	mu      sync.Mutex
	loaded  map[string]bool // folders whose .sourceignore was read
	files   []gitignore.Pattern
	matcher gitignore.Matcher
}

func newFluxArtifact(root, specIgnore string, record func(string), read func(string) ([]byte, error)) *fluxArtifact {
	a := &fluxArtifact{root: root, record: record, read: read, loaded: map[string]bool{}}
	if specIgnore != "" {
		a.spec = sourceignore.ReadPatterns(strings.NewReader(specIgnore), nil)
	}
	return a
}

// excludes says whether real (resolved) is left out of the artifact.
// Anything outside the repository is not the artifact's to say.
func (a *fluxArtifact) excludes(real string, isDir bool) bool {
	rel, err := filepath.Rel(a.root, real)
	if err != nil || rel == "." || repofs.Leaves(rel) {
		return false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	a.mu.Lock()
	defer a.mu.Unlock()
	dir := a.root
	a.load(dir, nil)
	for i := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, parts[i])
		a.load(dir, parts[:i+1])
	}
	if a.matcher == nil {
		a.matcher = sourceignore.NewDefaultMatcher(append(append([]gitignore.Pattern{}, a.files...), a.spec...), nil)
	}
	for i := 1; i <= len(parts); i++ {
		if a.matcher.Match(parts[:i], i < len(parts) || isDir) {
			return true
		}
	}
	return false
}

// load adds the patterns of dir's .sourceignore, for dir's domain.
func (a *fluxArtifact) load(dir string, domain []string) {
	if a.loaded[dir] {
		return
	}
	a.loaded[dir] = true
	p := filepath.Join(dir, sourceignore.IgnoreFile)
	a.record(p)
	data, err := a.read(p)
	if err != nil {
		// Absent, or unreadable: source-controller would fail on the
		// latter, and the build fails reading what it would leave out.
		return
	}
	a.files = append(a.files, sourceignore.ReadPatterns(bytes.NewReader(data), domain)...)
	a.matcher = nil
}
