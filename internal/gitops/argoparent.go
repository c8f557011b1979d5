package gitops

import (
	"context"
	"fmt"
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
// template), and its inputs are the parent's, its own file and every file
// the parent's render read that made no object (parentDocuments).
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
		return nil, s.listUnmade(t, argoChildKinds, nil, nil, fmt.Sprintf("not a target of its own: %s, which would apply it, is not rendered for discovery here", t.objectName()))
	}
	if lead, err := s.leadsToWanted(ctx, t); err != nil || !lead {
		return nil, err
	}
	rendered, err := s.parentDocuments(ctx, t, "the Applications %s makes", argoChildKinds)
	if err != nil {
		return nil, err
	}
	var children []document
	for _, c := range rendered {
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
// object as a document whose inputs are what may change it: t's own, the
// files the render read that made no object (kustomizations, patches,
// values), and its own file; not the files of the render's other objects,
// so that a change to one app's manifests selects that app alone. A
// render that fails or leaves something out says so on t, of the
// children that what names (a %s for t's paths), and lists under t, with
// why, each object of kinds in its paths that the render did not make
// (listUnmade).
func (s *discovery) parentDocuments(ctx context.Context, t *Target, what string, kinds childKinds) ([]document, error) {
	children := fmt.Sprintf(what, strings.Join(t.Paths, ", "))
	r, err := s.repo.RenderParent(ctx, s.repo.Root, *t)
	if err != nil {
		t.Notes = append(t.Notes, fmt.Sprintf("%s are not discovered: its render fails: %v", children, err))
		why := fmt.Sprintf("not a target of its own: %s, which would apply it, does not render: %v", t.objectName(), err)
		return nil, s.listUnmade(t, kinds, nil, nil, why)
	}
	for _, n := range r.NotRendered {
		t.Notes = append(t.Notes, fmt.Sprintf("%s are discovered from what renders: %s", children, n))
	}
	made := map[string]bool{}
	for _, o := range r.Objects {
		if o.File != "" {
			made[o.File] = true
		}
	}
	shared := append([]string{}, t.Inputs...)
	for _, f := range r.Files {
		if !made[f] {
			shared = append(shared, f)
		}
	}
	docs := make([]document, 0, len(r.Objects))
	values := renderedValues(r)
	for _, o := range r.Objects {
		inputs := shared[:len(shared):len(shared)]
		if o.File != "" {
			inputs = append(inputs, o.File)
		}
		docs = append(docs, document{file: o.File, line: o.Line, obj: o.Object, inputs: inputs, rev: s.rev, values: values, fromSecret: o.FromSecret})
	}
	if len(r.NotRendered) > 0 {
		// What rendered read its files: a file it read and made nothing
		// of was left out. Nothing rendered: every file under the paths
		// may be what it would have applied.
		var read map[string]bool
		if len(r.Objects) > 0 {
			read = make(map[string]bool, len(r.Files))
			for _, f := range r.Files {
				read[f] = true
			}
		}
		why := fmt.Sprintf("not a target of its own: what renders of %s, which would apply it, leaves it out: %s", t.objectName(), strings.Join(r.NotRendered, "; "))
		if err := s.listUnmade(t, kinds, docs, read, why); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// mentions says whether a YAML file or a chart's template under the paths
// matches re.
func (s *discovery) mentions(paths []string, re *regexp.Regexp) (bool, error) {
	found := false
	for _, p := range paths {
		top := filepath.Join(s.repo.Root, filepath.FromSlash(p))
		err := s.walkFiles(top, []string{".yaml", ".yml", ".tpl", ".json"}, func(f string) error {
			if found {
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
