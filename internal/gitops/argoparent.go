package gitops

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// mentionsApplication finds, before any render, a file that may make an
// Argo CD Application: a parent whose files have none is not rendered, so
// that discovering hundreds of kustomize Applications renders none of
// them.
var mentionsApplication = regexp.MustCompile(`\bkind["']?\s*:\s*["']?Application\b`)

// renderedChildren are the Applications an app-of-apps parent makes when a
// path of it is a kustomization or a chart: its render, as its controller
// renders it (the kustomize overrides, the Helm values and release, what
// the source says), gives them, each named as its metadata.name there. A
// child's object file is the file the render took it from (a chart's
// template), and its inputs are the parent's and every file the parent's
// render read, since a change to any of them may change the child.
//
// Only files of this repository are rendered: the parent's source is this
// repository, or it has no children here (application reads none then).
// Without a renderer, or when no file under the parent's paths mentions
// an Application, nothing is rendered; the former says so on the parent.
func (s *discovery) renderedChildren(ctx context.Context, t *Target) ([]document, error) {
	fresh := false
	for _, p := range t.Paths {
		if !s.appDirs[p] {
			fresh = true
			s.appDirs[p] = true
		}
	}
	if !fresh {
		return nil, nil
	}
	mentions, err := s.mentions(t.Paths, mentionsApplication)
	if err != nil || !mentions {
		return nil, err
	}
	if s.repo.RenderParent == nil {
		t.Notes = append(t.Notes, fmt.Sprintf("%s makes Argo CD Applications through a kustomization or a chart: the Applications it makes are not discovered here; list their files under an argocd discover directory", strings.Join(t.Paths, ", ")))
		return nil, nil
	}
	var children []document
	for _, c := range s.parentDocuments(ctx, t, "the Applications %s makes") {
		if !c.is(groupArgoCD, "Application") {
			continue
		}
		// One written under a discover directory as it is rendered is
		// listed once; a template makes many at one place, told apart by
		// name.
		key := c.where() + "#" + c.name()
		if s.apps[c.where()] || s.apps[key] {
			continue
		}
		s.apps[key] = true
		children = append(children, c)
	}
	return children, nil
}

// parentDocuments renders t as its controller renders it and gives every
// object as a document whose inputs are t's and every file the render
// read, since a change to any of them may change the child. A render that
// fails or leaves something out says so on t, of the children that what
// names (a %s for t's paths); nothing when it fails.
func (s *discovery) parentDocuments(ctx context.Context, t *Target, what string) []document {
	children := fmt.Sprintf(what, strings.Join(t.Paths, ", "))
	r, err := s.repo.RenderParent(ctx, s.repo.Root, *t)
	if err != nil {
		t.Notes = append(t.Notes, fmt.Sprintf("%s are not discovered: its render fails: %v", children, err))
		return nil
	}
	for _, n := range r.NotRendered {
		t.Notes = append(t.Notes, fmt.Sprintf("%s are discovered from what renders: %s", children, n))
	}
	inputs := append(append([]string{}, t.Inputs...), r.Files...)
	docs := make([]document, 0, len(r.Objects))
	for _, o := range r.Objects {
		docs = append(docs, document{file: o.File, line: o.Line, obj: o.Object, inputs: inputs})
	}
	return docs
}

// mentions says whether a YAML file or a chart's template under the paths
// matches re.
func (s *discovery) mentions(paths []string, re *regexp.Regexp) (bool, error) {
	found := false
	for _, p := range paths {
		top := filepath.Join(s.repo.Root, filepath.FromSlash(p))
		err := s.read.WalkDir(top, func(f string, e fs.DirEntry, err error) error {
			if err != nil || found {
				return err
			}
			if e.IsDir() {
				if f != top && strings.HasPrefix(e.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			switch filepath.Ext(f) {
			case ".yaml", ".yml", ".tpl", ".json":
			default:
				return nil
			}
			data, err := s.read.ReadFile(f, repofs.GitOpsFile)
			if err != nil {
				return err
			}
			found = re.Match(data)
			return nil
		})
		if err != nil {
			return false, fmt.Errorf("%s: %w", p, err)
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}
