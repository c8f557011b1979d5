package gitops

import (
	"context"
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// Flux's names.
const (
	fluxKustomizeManager = "kustomize-controller"
	fluxHelmManager      = "helm-controller"
	// fluxNamespace is the namespace of a Flux object whose file gives
	// none. kustomize-controller does not default one (an object without
	// a namespace applies only where its parent's kustomization sets it);
	// Flux's bootstrap and its CLI put every Flux object in flux-system.
	fluxNamespace = "flux-system"
	// bootstrapRepository is the GitRepository `flux bootstrap` creates
	// for the repository it writes to.
	bootstrapRepository = "flux-system/flux-system"
)

// fluxObjects are the objects under one flux directory that its
// Kustomizations refer to, by `<kind>/<namespace>/<name>`.
type fluxObjects struct {
	// sources are the Flux source objects (GitRepository, HelmRepository,
	// OCIRepository, HelmChart), by fluxKey.
	sources map[string]document
	values  map[string]document // ConfigMaps and Secrets
	// generators are the ArtifactGenerators, by `<namespace>/<name>`:
	// what makes an ExternalArtifact.
	generators map[string]document
}

func fluxKey(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

// has says whether the source key names was found already: one written
// under the discover directory wins over a render's copy of it.
func (o fluxObjects) has(key string) bool { _, ok := o.sources[key]; return ok }

func namespaceOf(d document) (string, error) {
	ns, err := d.str("metadata", "namespace")
	return or(ns, fluxNamespace), err
}

// flux finds the targets under one `flux:` directory: every Kustomization
// and every HelmRelease. A Kustomization's source is this repository when
// its GitRepository, found under the same directory, names one of the
// repository's URLs; when no GitRepository of its name is there, the one
// bootstrap makes (flux-system/flux-system) is taken to be this repository,
// because bootstrap writes it to the repository it points at.
func (s *discovery) flux(ctx context.Context, entry int, e config.Discover) error {
	docs, err := s.documents(ctx, e.Flux, true)
	if err != nil {
		return err
	}
	objs := fluxObjects{sources: map[string]document{}, values: map[string]document{}, generators: map[string]document{}}
	for _, d := range docs {
		switch {
		case d.is(groupFluxSourceExtensions, "ArtifactGenerator"):
			ns, err := namespaceOf(d)
			if err != nil {
				return err
			}
			objs.generators[namespacedName(ns, d.name())] = d
		case d.is(groupFluxSource, "GitRepository"), d.is(groupFluxSource, "HelmRepository"), d.is(groupFluxSource, "OCIRepository"), d.is(groupFluxSource, "HelmChart"), d.is("", "ConfigMap"), d.is("", "Secret"):
			ns, err := namespaceOf(d)
			if err != nil {
				return err
			}
			if d.apiGroup() == groupFluxSource {
				objs.sources[fluxKey(d.kind(), ns, d.name())] = d
			} else {
				objs.values[fluxKey(d.kind(), ns, d.name())] = d
			}
		}
	}
	return s.fluxObjects(ctx, entry, e, docs, objs, "")
}

// fluxObjects lists the Kustomizations and HelmReleases of docs, then
// those each Kustomization applies from outside the entry's directory
// (fluxChildren); parent is the Kustomization that applies docs, "" for
// those written under the directory.
func (s *discovery) fluxObjects(ctx context.Context, entry int, e config.Discover, docs []document, objs fluxObjects, parent string) error {
	for _, d := range docs {
		var t Target
		var err error
		switch {
		case d.is(groupFluxKustomize, "Kustomization"):
			t, err = s.fluxKustomization(ctx, d, e, objs)
		case d.is(groupFluxHelm, "HelmRelease"):
			t, err = s.helmRelease(ctx, d, e, objs)
		default:
			continue
		}
		if err != nil {
			return err
		}
		if reason := unresolvedPlace(d, parent); reason != "" {
			t.Name, t.Paths, t.Reason = withoutVariables(t.Name), nil, reason
		} else if reason := standInPlace(d, parent); reason != "" {
			t.Paths, t.Reason = nil, reason
		} else if len(d.fromSecret) > 0 {
			t.Deployer.StandIns = d.fromSecret
		}
		var children []document
		switch {
		case !d.is(groupFluxKustomize, "Kustomization"):
		case t.Checked():
			if children, err = s.fluxChildren(ctx, entry, e, &t, objs); err != nil {
				return err
			}
		default:
			if err := s.listNotChecked(ctx, entry, e, &t); err != nil {
				return err
			}
		}
		s.add(entry, t)
		if err := s.fluxObjects(ctx, entry, e, children, objs, t.Name); err != nil {
			return err
		}
	}
	return nil
}

// listNotChecked lists under a Kustomization that is not checked what its
// path (outside the entry's directory) would apply, with its reason:
// nothing of it is rendered.
func (s *discovery) listNotChecked(ctx context.Context, entry int, e config.Discover, t *Target) error {
	tree, reason, err := s.treeOf(ctx, t.Deployer.Revision)
	if err != nil || reason != "" || !tree.outsideEntry(entry, e, t.Paths) {
		return err
	}
	tree.markRead(entry, t.Paths)
	why := fmt.Sprintf("not a target of its own: %s, which would apply it, is not checked: %s", t.objectName(), t.Reason)
	return tree.listUnmade(t, fluxChildKinds, nil, nil, why)
}

func fluxTarget(d document, e config.Discover, manager string) (Target, error) {
	ns, err := namespaceOf(d)
	if err != nil {
		return Target{}, err
	}
	if d.name() == "" {
		return Target{}, fmt.Errorf("%s: %s without metadata.name", d.where(), d.kind())
	}
	name := namespacedName(ns, d.name())
	if manager == fluxHelmManager {
		name = helmReleaseName(ns, d.name())
	}
	return Target{
		Name:         name,
		Source:       delivery.ControllerFlux,
		Object:       d.file,
		FieldManager: or(e.FieldManager, manager),
		Context:      config.KubeContext(e.Context),
		Deployer:     &delivery.Deployer{Controller: delivery.ControllerFlux, Object: d.obj, File: d.file, RenderedValues: d.values},
		Inputs:       append([]string{d.file}, d.inputs...),
	}, nil
}

func (s *discovery) fluxKustomization(ctx context.Context, d document, e config.Discover, objs fluxObjects) (Target, error) {
	t, err := fluxTarget(d, e, fluxKustomizeManager)
	if err != nil {
		return t, err
	}
	t.Apply = kustomizationApply
	ns, _ := namespaceOf(d)
	spath, err := d.str("spec", "path")
	if err != nil {
		return t, err
	}
	suspended, err := d.boolean("spec", "suspend")
	if err != nil {
		return t, err
	}
	reason, err := s.fluxSourceReason(d, ns, objs)
	if err != nil {
		return t, err
	}
	// An ExternalArtifact an ArtifactGenerator copies from this
	// repository is a part of it, at its own place.
	var view artifactView
	if reason == "" {
		view, reason, err = s.externalArtifact(d, ns, objs)
		if err != nil {
			return t, err
		}
	}
	ref := ""
	if reason == "" {
		srcNS, _ := d.str("spec", "sourceRef", "namespace")
		name, _ := d.str("spec", "sourceRef", "name")
		ref = namespacedName(or(srcNS, ns), name)
		if view.gitRepository != "" {
			ref = view.gitRepository
		}
	}
	// The path is in the source, at the revision it pins: only this
	// repository's is listed.
	var perr error
	if reason == "" {
		tree := s.main()
		if gr, ok := objs.sources["GitRepository/"+ref]; ok {
			rev, err := fluxRevision(gr, ref)
			if err != nil {
				return t, err
			}
			if tree, reason, err = s.treeOf(ctx, rev); err != nil {
				return t, err
			}
		}
		var p string
		if reason == "" {
			if spath, perr = view.repoPath(spath); perr == nil {
				if p, perr = tree.repoPath(spath); p != "" {
					t.Paths = []string{p}
				}
			}
		}
	}
	// A substitution source changes the render: its file is an input
	// whether or not the target is checked, so that listing stays true.
	inputs, err := valueSourceFiles(d, objs, ns, "Kustomization", "spec", "postBuild", "substituteFrom")
	if err != nil {
		return t, err
	}
	t.Inputs = append(t.Inputs, inputs...)
	switch {
	case suspended:
		t.Reason = "suspended"
	case reason != "":
		t.Reason = reason
	case perr != nil:
		t.Reason = perr.Error()
	}
	if e.StrictSubstitution {
		t.Deployer.StrictSubstitution = true
	}
	if reason == "" {
		if err := s.fluxArtifact(&t, ref, objs); err != nil {
			return t, err
		}
		view.restrict(&t)
	}
	return t, nil
}

// fluxSourceReason is why a Kustomization's source is not this
// repository, "" when it is. sourceRef.namespace defaults to the
// Kustomization's own, as kustomize-controller defaults it.
func (s *discovery) fluxSourceReason(d document, ns string, objs fluxObjects) (string, error) {
	kind, err := d.str("spec", "sourceRef", "kind")
	if err != nil {
		return "", err
	}
	name, err := d.str("spec", "sourceRef", "name")
	if err != nil {
		return "", err
	}
	srcNS, err := d.str("spec", "sourceRef", "namespace")
	if err != nil {
		return "", err
	}
	if kind == "" || name == "" {
		return "", fmt.Errorf("%s: Kustomization %s: spec.sourceRef needs kind and name", d.where(), d.name())
	}
	ref := namespacedName(or(srcNS, ns), name)
	switch kind {
	case "GitRepository":
		return s.gitRepositoryReason(ref, objs)
	case "ExternalArtifact":
		return "", nil // externalArtifact reads its generator
	}
	return fmt.Sprintf("source %s %s: not a GitRepository of this repository", kind, ref), nil
}

// gitRepositoryReason is why the GitRepository ref (namespace/name) is
// not this repository, "" when it is.
func (s *discovery) gitRepositoryReason(ref string, objs fluxObjects) (string, error) {
	gr, ok := objs.sources["GitRepository/"+ref]
	if !ok {
		if ref == bootstrapRepository {
			return "", nil
		}
		return fmt.Sprintf("source GitRepository %s: not found beside it, so not known to be this repository", ref), nil
	}
	url, err := gr.str("spec", "url")
	if err != nil {
		return "", err
	}
	if !s.repo.Names(url) {
		return fmt.Sprintf("source GitRepository %s is %s: another repository", ref, url), nil
	}
	return "", nil
}

// valueSourceFiles are the repository files of the ConfigMaps and Secrets
// a Flux object takes values from (a Kustomization's substituteFrom, a
// HelmRelease's valuesFrom: entries of kind and name), each entry checked.
func valueSourceFiles(d document, objs fluxObjects, ns, kind string, field ...string) ([]string, error) {
	from, err := d.list(field...)
	if err != nil {
		return nil, err
	}
	var files []string
	for i, ref := range from {
		k, err := str(d, ref, "kind")
		if err != nil {
			return nil, err
		}
		name, err := str(d, ref, "name")
		if err != nil {
			return nil, err
		}
		if k == "" || name == "" {
			return nil, fmt.Errorf("%s: %s %s: %s[%d] needs kind and name", d.where(), kind, d.name(), strings.Join(field, "."), i)
		}
		if v, ok := objs.values[fluxKey(k, ns, name)]; ok {
			files = append(files, v.file)
		}
	}
	return files, nil
}
