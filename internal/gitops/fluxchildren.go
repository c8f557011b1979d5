package gitops

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
)

// mentionsFluxObject finds a file that may hold a Flux Kustomization or
// HelmRelease (not kustomize's own Kustomization), before any render.
var mentionsFluxObject = regexp.MustCompile(`\b(kustomize|helm)\.toolkit\.fluxcd\.io/`)

// fluxChildren are the Kustomizations and HelmReleases a checked
// Kustomization applies from a path outside its discover entry's
// directory (what is inside was read as written): its render, as
// kustomize-controller renders it (patches, namespace, labels), gives
// them. Each child's object file is the file the render took it from, and
// its inputs are the parent's, its own file and every file the parent's
// render read that made no object (parentDocuments); a chart source
// object's file is an input of the releases that name it (helmRelease).
// A path whose files mention neither kind is not rendered, nor anything
// without a renderer; a render that fails or leaves something out says
// so on the parent. A source the render applies beside its HelmRelease or
// Kustomization (an app folder's OCIRepository, the commonest layout; a
// tenant's GitRepository in the file of its Kustomization) is added to
// objs, as one written under the directory is.
//
// A Kustomization whose GitRepository pins a revision other than the
// checkout's applies that revision's tree: its children are read there,
// and a HelmRelease among them renders from it (helmRelease).
func (s *discovery) fluxChildren(ctx context.Context, entry int, e config.Discover, t *Target, objs fluxObjects) ([]document, error) {
	tree, reason, err := s.treeOf(ctx, t.Deployer.Revision)
	if err != nil || reason != "" {
		// The target says why its revision cannot be read.
		return nil, err
	}
	return tree.fluxChildrenHere(ctx, entry, e, t, objs)
}

// fluxChildrenHere is fluxChildren in the tree s reads.
func (s *discovery) fluxChildrenHere(ctx context.Context, entry int, e config.Discover, t *Target, objs fluxObjects) ([]document, error) {
	if !s.outsideEntry(entry, e, t.Paths) {
		return nil, nil
	}
	seen := s.markRead(entry, t.Paths)
	mentions, err := s.mentions(t.Paths, mentionsFluxObject)
	if err != nil || !mentions {
		return nil, err
	}
	if s.repo.RenderParent == nil {
		return nil, s.listUnmade(t, fluxChildKinds, nil, nil, fmt.Sprintf("not a target of its own: %s, which would apply it, is not rendered for discovery here", t.objectName()))
	}
	if lead, err := s.leadsToWanted(ctx, t); err != nil || !lead {
		return nil, err
	}
	rendered, err := s.parentDocuments(ctx, t, "the Kustomizations and HelmReleases %s applies", fluxChildKinds)
	if err != nil {
		return nil, err
	}
	var children []document
	for _, c := range rendered {
		if c.is(groupFluxSource, "OCIRepository") || c.is(groupFluxSource, "HelmRepository") || c.is(groupFluxSource, "GitRepository") || c.is(groupFluxSource, "HelmChart") {
			ns, err := namespaceOf(c)
			if err != nil {
				return nil, err
			}
			if key := fluxKey(c.kind(), ns, c.name()); !objs.has(key) {
				objs.sources[key] = c
			}
			continue
		}
		if !c.is(groupFluxKustomize, "Kustomization") && !c.is(groupFluxHelm, "HelmRelease") {
			continue
		}
		key := seen + c.where() + "#" + c.kind() + "/" + c.name()
		if s.apps[key] {
			continue
		}
		s.apps[key] = true
		children = append(children, c)
	}
	return children, nil
}

// outsideEntry says whether paths are outside the flux entry's directory
// (what is inside was read as written; another revision's tree is outside
// whatever its paths) and not yet read for it (each cluster's controller
// applies its own: read once per entry).
func (s *discovery) outsideEntry(entry int, e config.Discover, paths []string) bool {
	seen := fmt.Sprintf("flux %d:%s", entry, s.treeKey())
	dir := path.Clean(e.Flux)
	for _, p := range paths {
		if s.appDirs[seen+p] {
			return false
		}
		if s.rev == nil && (p == dir || strings.HasPrefix(p, dir+"/") || dir == "." || strings.HasPrefix(dir, p+"/") || p == ".") {
			return false
		}
	}
	return len(paths) > 0
}

// markRead records paths as read for the entry, and gives the entry's
// prefix of what it has read.
func (s *discovery) markRead(entry int, paths []string) string {
	seen := fmt.Sprintf("flux %d:%s", entry, s.treeKey())
	for _, p := range paths {
		s.appDirs[seen+p] = true
	}
	return seen
}
