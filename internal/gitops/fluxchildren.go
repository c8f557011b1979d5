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
// its inputs are the parent's and every file the parent's render read.
// A path whose files mention neither kind is not rendered, nor anything
// without a renderer; a render that fails or leaves something out says
// so on the parent. A chart's source the render applies beside its
// HelmRelease (an app folder's OCIRepository, the commonest layout) is
// added to objs, as one written under the directory is.
func (s *discovery) fluxChildren(ctx context.Context, entry int, e config.Discover, t *Target, objs fluxObjects) ([]document, error) {
	// Each cluster's controller applies its own: read once per entry.
	seen := fmt.Sprintf("flux %d:", entry)
	dir := path.Clean(e.Flux)
	for _, p := range t.Paths {
		if s.appDirs[seen+p] || p == dir || strings.HasPrefix(p, dir+"/") || dir == "." || strings.HasPrefix(dir, p+"/") || p == "." {
			return nil, nil
		}
	}
	for _, p := range t.Paths {
		s.appDirs[seen+p] = true
	}
	if s.repo.RenderParent == nil {
		return nil, nil
	}
	mentions, err := s.mentions(t.Paths, mentionsFluxObject)
	if err != nil || !mentions {
		return nil, err
	}
	var children []document
	for _, c := range s.parentDocuments(ctx, t, "the Kustomizations and HelmReleases %s applies") {
		if c.is(groupFluxSource, "OCIRepository") || c.is(groupFluxSource, "HelmRepository") {
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
