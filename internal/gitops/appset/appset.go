// Package appset expands an Argo CD ApplicationSet into the Applications
// its generators make, as the ApplicationSet controller does, from this
// repository's files only: a generator that needs the cluster or another
// service, or a git generator of another repository, is a reason, never a
// guess. gitops calls it for every ApplicationSet it discovers.
package appset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Repository is the repository an ApplicationSet is expanded from: its
// working tree's top, whose files the git generators read through repofs,
// and the URLs that name it (its git remotes), which tell a git generator
// of this repository from one of another.
type Repository struct {
	Root string
	URLs []string
	// Clusters are the clusters registered in Argo CD, which a clusters
	// generator reads; nil: not known, and it is not expanded.
	Clusters []Cluster
}

// Expand makes the Applications an ApplicationSet's generators make, as
// the ApplicationSet controller does, from this repository's files. reason is why it cannot be expanded here (a generator
// that needs the cluster or another service), "" when it can.
//
// The Applications come in the controller's order: generator by generator,
// parameter set by parameter set. Each is `apiVersion`, `kind`, `metadata`
// (name, namespace, labels, annotations, finalizers: what the controller
// takes from the template, the namespace the ApplicationSet's) and `spec`,
// with numbers as float64, as the controller's JSON decoding has them.
func Expand(ctx context.Context, repo Repository, appSet map[string]any) (apps []map[string]any, reason string, err error) {
	// A JSON round trip gives the controller's view of the object (numbers
	// float64, plain maps and lists), and a copy the expansion cannot
	// change.
	var obj map[string]any
	if err := roundTrip(appSet, &obj); err != nil {
		return nil, "", fmt.Errorf("ApplicationSet: %w", err)
	}
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	namespace, _ := meta["namespace"].(string)
	apps, err = expand(ctx, repo, obj, namespace)
	var ne *notExpandable
	if errors.As(err, &ne) {
		return nil, ne.reason, nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("ApplicationSet %s: %w", name, err)
	}
	return apps, "", nil
}

// notExpandable carries, up the generators, why the ApplicationSet
// cannot be expanded from the repository.
type notExpandable struct{ reason string }

func (e *notExpandable) Error() string { return e.reason }

type expander struct {
	ctx    context.Context
	repo   Repository
	render *renderer
	walked *repoTree
	// read reads the repository's files for the git generators, opened
	// on their first read and closed when the expansion ends.
	read *repofs.FS
	// preserveResources is spec.syncPolicy.preserveResourcesOnDeletion,
	// without which a rendered Application gets the resources finalizer.
	preserveResources bool
}

// resourcesFinalizer is the finalizer with which deleting an Application
// deletes its resources.
const resourcesFinalizer = "resources-finalizer.argocd.argoproj.io"

func expand(ctx context.Context, repo Repository, obj map[string]any, namespace string) ([]map[string]any, error) {
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		return nil, errors.New("spec: missing")
	}
	generators, _ := spec["generators"].([]any)
	if why := unsupportedGenerator(repo, generators, "spec.generators"); why != "" {
		return nil, &notExpandable{why}
	}
	r := &renderer{}
	r.goTemplate, _ = spec["goTemplate"].(bool)
	opts, _ := spec["goTemplateOptions"].([]any)
	for i, o := range opts {
		s, _ := o.(string)
		if !goTemplateOptions[s] {
			return nil, fmt.Errorf("spec.goTemplateOptions[%d]: unknown option %q", i, s)
		}
		r.options = append(r.options, s)
	}
	base := map[string]any{}
	if t, ok := spec["template"].(map[string]any); ok {
		base = t
	} else if spec["template"] != nil {
		return nil, errors.New("spec.template: not an object")
	}
	patch, hasPatch := spec["templatePatch"].(string)
	e := &expander{ctx: ctx, repo: repo, render: r}
	defer e.close()
	if sp, ok := spec["syncPolicy"].(map[string]any); ok {
		e.preserveResources, _ = sp["preserveResourcesOnDeletion"].(bool)
	}
	var apps []map[string]any
	seen := map[string]bool{}
	for i, g := range generators {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		field := fmt.Sprintf("spec.generators[%d]", i)
		entry, ok := g.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: not an object", field)
		}
		results, err := e.transform(entry, field, base, nil)
		if err != nil {
			return nil, err
		}
		for _, res := range results {
			for _, params := range res.params {
				app, err := e.application(res.template, params, field)
				if err != nil {
					return nil, err
				}
				if hasPatch {
					if app, err = e.applyTemplatePatch(app, patch, params); err != nil {
						return nil, err
					}
				}
				m := app["metadata"].(map[string]any)
				delete(m, "namespace")
				if namespace != "" {
					m["namespace"] = namespace
				}
				n, _ := m["name"].(string)
				if n == "" {
					return nil, fmt.Errorf("%s: an Application without a name (metadata.name of the template)", field)
				}
				if seen[n] {
					return nil, fmt.Errorf("%s: contains applications with duplicate name: %s", field, n)
				}
				seen[n] = true
				apps = append(apps, app)
			}
		}
	}
	return apps, nil
}

// unsupportedGenerator names the first generator, at any depth, that needs
// the cluster or a service, or a git generator that names another
// repository: the reason wins over any error elsewhere. (A repoURL a
// matrix renders is known only when it is rendered.)
func unsupportedGenerator(repo Repository, generators []any, field string) string {
	for i, g := range generators {
		entry, _ := g.(map[string]any)
		f := fmt.Sprintf("%s[%d]", field, i)
		for _, kind := range generatorKinds {
			v, ok := entry[kind].(map[string]any)
			if !ok {
				continue
			}
			if why := repo.serviceReason(kind, f); why != "" {
				return why
			}
			if u, _ := v["repoURL"].(string); kind == "git" && u != "" && !strings.Contains(u, "{{") && !sameRepository(repo, u) {
				return foreignGit(u)
			}
			if kind == "matrix" || kind == "merge" {
				children, _ := v["generators"].([]any)
				if why := unsupportedGenerator(repo, children, f+"."+kind+".generators"); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// application renders the template with one parameter set, as the
// controller's RenderTemplateParams: only the metadata the controller
// keeps, and nothing rendered when there are no parameters.
func (e *expander) application(tmpl map[string]any, params map[string]any, field string) (map[string]any, error) {
	meta := map[string]any{}
	if m, ok := tmpl["metadata"].(map[string]any); ok {
		for _, k := range []string{"name", "namespace", "labels", "annotations", "finalizers"} {
			if v, ok := m[k]; ok {
				meta[k] = v
			}
		}
	}
	spec, _ := tmpl["spec"].(map[string]any)
	app := map[string]any{"metadata": meta, "spec": spec}
	if spec == nil {
		app["spec"] = map[string]any{}
	}
	if len(params) != 0 {
		r, err := e.render.replaceTree(app, params, "spec.template")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		app = r.(map[string]any)
		m := app["metadata"].(map[string]any)
		if f, _ := m["finalizers"].([]any); len(f) == 0 && !e.preserveResources {
			m["finalizers"] = []any{resourcesFinalizer}
		}
	} else {
		app = deepCopyMap(app)
	}
	if _, ok := app["spec"].(map[string]any); !ok {
		app["spec"] = map[string]any{}
	}
	app["apiVersion"] = "argoproj.io/v1alpha1"
	app["kind"] = "Application"
	return app, nil
}

// applyTemplatePatch renders spec.templatePatch with the parameters and
// merges it into the Application: the controller's strategic merge patch,
// which over the Application's fields merges objects and replaces lists,
// but for metadata.finalizers, which it merges as a set. The patch cannot
// change the project.
func (e *expander) applyTemplatePatch(app map[string]any, patch string, params map[string]any) (map[string]any, error) {
	s, err := e.render.replace(patch, params)
	if err != nil {
		return nil, fmt.Errorf("spec.templatePatch: error replacing values in templatePatch: %w", err)
	}
	var p map[string]any
	if err := yamlUnmarshal([]byte(s), &p); err != nil {
		return nil, fmt.Errorf("spec.templatePatch: error converting YAML to JSON: %w", err)
	}
	var finalizers []any
	if m, ok := app["metadata"].(map[string]any); ok {
		finalizers, _ = m["finalizers"].([]any)
	}
	project, hasProject := app["spec"].(map[string]any)["project"]
	app = mergePatch(app, p)
	spec, ok := app["spec"].(map[string]any)
	if !ok {
		spec = map[string]any{}
		app["spec"] = spec
	}
	delete(spec, "project")
	if hasProject {
		spec["project"] = project
	}
	if pm, ok := p["metadata"].(map[string]any); ok {
		if add, ok := pm["finalizers"].([]any); ok {
			merged := slices.Clone(finalizers)
			for _, f := range add {
				if !slices.Contains(merged, f) {
					merged = append(merged, f)
				}
			}
			app["metadata"].(map[string]any)["finalizers"] = merged
		}
	}
	if _, ok := app["metadata"].(map[string]any); !ok {
		app["metadata"] = map[string]any{}
	}
	return app, nil
}

func mergePatch(dst, patch map[string]any) map[string]any {
	for k, pv := range patch {
		if pv == nil {
			delete(dst, k)
			continue
		}
		pm, pIsMap := pv.(map[string]any)
		dm, dIsMap := dst[k].(map[string]any)
		if pIsMap && dIsMap {
			dst[k] = mergePatch(dm, pm)
			continue
		}
		if pIsMap {
			dst[k] = mergePatch(map[string]any{}, pm)
			continue
		}
		dst[k] = pv
	}
	return dst
}

func fieldErr(field string, err error) error {
	return fmt.Errorf("%s: %w", field, err)
}

func roundTrip(in, out any) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// yamlUnmarshal decodes YAML or JSON as the controller does (through
// JSON: numbers are float64).
func yamlUnmarshal(data []byte, v any) error {
	return yaml.Unmarshal(data, v)
}
