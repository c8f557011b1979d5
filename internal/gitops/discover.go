package gitops

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// discovery is one Discover call: the files it has read, and what it found.
type discovery struct {
	repo    Repository
	entries []config.Discover
	// repo reads the repository's files; files are those read.
	read  *repofs.FS
	files map[string][]document
	found []found
	// apps are the Argo CD Applications already taken ("file:line"), so
	// that an app-of-apps whose children are also under a discover
	// directory lists each child once.
	apps map[string]bool
	// appDirs are the app-of-apps paths already read: a cycle or two
	// parents of one folder read it once.
	appDirs map[string]bool
	// argoOptions are each Argo CD entry's kustomize build options
	// (argocdcm.go).
	argoOptions map[int]argoBuildOptions
	// rev is the revision of the tree this discovery reads, nil for the
	// working tree; top is the discovery of the working tree, which holds
	// what every tree's finds (nil for itself), and trees its discoveries
	// of other revisions' trees, by directory (treeOf).
	rev   *delivery.Revision
	top   *discovery
	trees map[string]*discovery
	// unmadePaths are the paths of Kustomizations that are no targets
	// already listed (unmadeBelow).
	unmadePaths map[string]bool
	// wantRE finds the name of the object repo.Want names (want.go).
	wantRE *regexp.Regexp
}

// found is a target and the entry that found it.
type found struct {
	Target
	entry int
}

func discover(ctx context.Context, repo Repository, entries []config.Discover) ([]Target, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	read, err := openRepository(&repo)
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	defer read.Close()
	s := &discovery{repo: repo, entries: entries, read: read, files: map[string][]document{}, apps: map[string]bool{}, appDirs: map[string]bool{}, argoOptions: map[int]argoBuildOptions{}, trees: map[string]*discovery{}}
	defer s.closeTrees()
	for i, e := range entries {
		dir, controller := e.Dir()
		var err error
		switch controller {
		case delivery.ControllerFlux:
			err = s.flux(ctx, i, e)
		default:
			err = s.argoCD(ctx, i, e)
		}
		if err != nil {
			return nil, fmt.Errorf("discover %s %s: %w", controller, dir, err)
		}
	}
	s.settleNotTargets()
	return s.named()
}

func (s *discovery) add(entry int, t Target) {
	if s.top != nil {
		s.top.add(entry, t)
		return
	}
	t.Inputs = unique(t.Inputs)
	t.Apply = entryApply(s.entries[entry], t)
	t.HelmSet = s.entries[entry].HelmOf()
	dir, _ := s.entries[entry].Dir()
	t.Dir = path.Clean(dir)
	s.found = append(s.found, found{Target: t, entry: entry})
}

// separateClusters: each target of one name was found by its own entry
// and goes to its own, known cluster.
func separateClusters(found []found, idx []int) bool {
	entries, contexts := map[int]bool{}, map[string]bool{}
	for _, i := range idx {
		f := found[i]
		if f.Context == "" || entries[f.entry] || contexts[f.Context] {
			return false
		}
		entries[f.entry], contexts[f.Context] = true, true
	}
	return true
}

func unique(files []string) []string {
	sort.Strings(files)
	out := files[:0]
	for i, f := range files {
		if i == 0 || f != files[i-1] {
			out = append(out, f)
		}
	}
	return out
}

func or(v, otherwise string) string {
	if v != "" {
		return v
	}
	return otherwise
}

// namespacedName is `<namespace>/<name>`.
func namespacedName(namespace, name string) string {
	return strings.Join([]string{namespace, name}, "/")
}

// openRepository opens the reader of repo's files, whose paths discovery
// joins to repo.Root: an absolute Root names them the same from any
// working directory.
func openRepository(repo *Repository) (*repofs.FS, error) {
	abs, err := filepath.Abs(repo.Root)
	if err != nil {
		return nil, err
	}
	repo.Root = abs
	return repofs.Open(abs, ".")
}
