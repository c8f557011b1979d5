package gitops

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// NotTarget is a deployer's object (a Flux Kustomization or HelmRelease,
// an Argo CD Application) in a tree a discover entry deploys that is no
// target of its own: the render of the target that would apply it does
// not make it (that render fails, or leaves its file out), or that target
// is not checked. It is listed under that target, with why, so that no
// such object is ever absent from the listing (docs/gitops.md, "What is
// listed where").
type NotTarget struct {
	// Kind is Kustomization, HelmRelease or Application (for a file that
	// is not read as YAML, the kind it mentions).
	Kind string
	// Name is its namespace/name (or name) as its file writes it; "" when
	// the file could not be read as YAML (a chart's template).
	Name string
	// File is its file, relative to the repository's top; Line where its
	// document starts (0 when not known).
	File string
	Line int
	// Reason says why it is not a target of its own, naming the target
	// whose render would make it.
	Reason string
}

// Display is how a listing names it: "HelmRelease default/echo".
func (n NotTarget) Display() string {
	if n.Name == "" {
		return n.Kind + " (" + n.File + ")"
	}
	return n.Kind + " " + n.Name
}

// childKinds are the kinds of deployer's object a parent's render may
// make, per controller: what a parent lists under it when its render does
// not make them.
type childKinds struct {
	is func(document) bool
	// mention finds a file that may hold one, when it does not parse as
	// YAML (a chart's template).
	mention *regexp.Regexp
	// word names the kind for such a file.
	word func(data []byte) string
}

var (
	fluxChildKinds = childKinds{
		is: func(d document) bool {
			return d.is(groupFluxKustomize, "Kustomization") || d.is(groupFluxHelm, "HelmRelease")
		},
		mention: mentionsFluxObject,
		word: func(data []byte) string {
			if mentionsHelmRelease.Match(data) {
				return "HelmRelease"
			}
			return "Kustomization"
		},
	}
	argoChildKinds = childKinds{
		is:      func(d document) bool { return d.is(groupArgoCD, "Application") },
		mention: mentionsApplication,
		word:    func([]byte) string { return "Application" },
	}
	mentionsHelmRelease = regexp.MustCompile(`\bhelm\.toolkit\.fluxcd\.io/`)
)

// listUnmade lists under t, with why (naming t), the objects of kinds in
// the files under t's paths that none of made came from: what t's render
// would apply were it reproduced. read, when not nil, are the only files
// to look in (what a render that made something read: a file it did not
// read is not one it applies). A file some child came from is taken
// whole; one that does not parse, or a chart's template, is listed as a
// file that mentions the kind. A path that is no directory of the
// repository has nothing to list.
func (s *discovery) listUnmade(t *Target, kinds childKinds, made []document, read map[string]bool, why string) error {
	from := map[string]bool{}
	for _, c := range made {
		from[c.file] = true
	}
	seen := map[string]bool{}
	for _, p := range t.Paths {
		top := filepath.Join(s.repo.Root, filepath.FromSlash(p))
		if !s.read.IsDir(top) {
			continue
		}
		err := s.walkFiles(top, []string{".yaml", ".yml"}, func(f string) error {
			rel, err := filepath.Rel(s.repo.Root, f)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if from[rel] || seen[rel] || read != nil && !read[rel] {
				return nil
			}
			seen[rel] = true
			return s.unmadeIn(t, kinds, f, rel, why, read == nil)
		})
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

// unmadeIn lists the objects of kinds in one file under t; all says
// every file under t's paths is being listed.
func (s *discovery) unmadeIn(t *Target, kinds childKinds, abs, rel, why string, all bool) error {
	docs, perr := s.file(abs)
	if perr == nil && !s.inChartTemplates(rel) {
		for _, d := range docs {
			if !kinds.is(d) {
				continue
			}
			name := d.name()
			if ns, _ := d.str("metadata", "namespace"); ns != "" {
				name = namespacedName(ns, name)
			}
			t.NotTargets = append(t.NotTargets, NotTarget{Kind: d.kind(), Name: name, File: d.file, Line: d.line, Reason: why})
			if d.is(groupFluxKustomize, "Kustomization") {
				if err := s.unmadeBelow(t, kinds, d, name, why, all); err != nil {
					return err
				}
			}
		}
		return nil
	}
	data, err := s.read.ReadFile(abs, repofs.GitOpsFile)
	if err != nil {
		return err
	}
	if kinds.mention.Match(data) {
		t.NotTargets = append(t.NotTargets, NotTarget{Kind: kinds.word(data), File: rel, Reason: why})
	}
	return nil
}

// unmadeBelow lists under t what a Flux Kustomization that is no target
// (d, listed under t) would apply from its path, with why: that path is
// read for no target (a Kustomization whose name is made from a Secret's
// value, left out of its parent's render), and what is there would
// otherwise be absent. A path that depends on a variable, or that is no
// folder of the repository, has nothing known to list, nor one under t's
// paths when all of them are listed (all); each path is listed once.
func (s *discovery) unmadeBelow(t *Target, kinds childKinds, d document, name, why string, all bool) error {
	p, _ := d.str("spec", "path")
	if p == "" || unresolvedVariable.MatchString(p) {
		return nil
	}
	rp, err := s.repoPath(p)
	if err != nil || rp == "" || s.unmadePaths[rp] || all && slices.ContainsFunc(t.Paths, func(p string) bool { return rp == p || strings.HasPrefix(rp, p+"/") || p == "." }) {
		return nil
	}
	if s.unmadePaths == nil {
		s.unmadePaths = map[string]bool{}
	}
	s.unmadePaths[rp] = true
	below := Target{Paths: []string{rp}}
	inner := fmt.Sprintf("not a target of its own: Kustomization %s, which would apply it, is no target either (%s)", name, strings.TrimPrefix(why, "not a target of its own: "))
	if err := s.listUnmade(&below, kinds, nil, nil, inner); err != nil {
		return err
	}
	t.NotTargets = append(t.NotTargets, below.NotTargets...)
	return nil
}

// inChartTemplates says whether a file is a chart's template (under a
// templates folder beside a Chart.yaml), which only its render makes
// objects of.
func (s *discovery) inChartTemplates(rel string) bool {
	parts := strings.Split(rel, "/")
	for i := range parts[:len(parts)-1] {
		if parts[i] == "templates" && s.exists(path.Join(append(parts[:i:i], "Chart.yaml")...)) {
			return true
		}
	}
	return false
}

// settleNotTargets keeps each object listed under a target once, and only
// when it is no target of the same entry: a parent whose render left
// something out lists what is under its path as written, which may be
// what its children's renders found (a HelmRelease of an app folder under
// the apps folder of the cluster's Kustomization), and two parents may
// list one object. The last to list it, the nearest parent (children are
// read after their parent), keeps it.
func (s *discovery) settleNotTargets() {
	targetFiles := map[string]bool{}
	for _, f := range s.found {
		if f.Deployer != nil {
			kind, _ := f.Deployer.Object["kind"].(string)
			targetFiles[fmt.Sprintf("%d\x00%s\x00%s", f.entry, kind, f.Object)] = true
		}
	}
	listed := map[string]bool{}
	for i := len(s.found) - 1; i >= 0; i-- {
		f := &s.found[i]
		var keep []NotTarget
		for _, n := range f.NotTargets {
			key := fmt.Sprintf("%d\x00%s\x00%s", f.entry, n.Kind, n.File)
			if targetFiles[key] || listed[key+fmt.Sprintf("\x00%d\x00%s", n.Line, n.Name)] {
				continue
			}
			listed[key+fmt.Sprintf("\x00%d\x00%s", n.Line, n.Name)] = true
			keep = append(keep, n)
		}
		f.NotTargets = keep
	}
}

// walkFiles calls fn for each file under top whose extension is one of
// exts, in the repository's reader's order; a hidden folder below top (a
// controller's source leaves .git and such out) is not walked.
func (s *discovery) walkFiles(top string, exts []string, fn func(f string) error) error {
	return s.read.WalkDir(top, func(f string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if f != top && strings.HasPrefix(e.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.Contains(exts, filepath.Ext(f)) {
			return nil
		}
		return fn(f)
	})
}
