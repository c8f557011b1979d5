package argocd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Source renders a path of an Argo CD Application (Input.Deployer) as
// Argo CD does: its repo server renders the source whose path it is
// (reposerver/repository GenerateManifests: the kustomize overrides by
// kustomize edit, or the directory's manifests) and writes its tracking
// on each object; its controller then gives namespaced objects without a
// namespace the destination's. A Helm source's chart renders through the
// chart engine (argoHelm); the sources that name a chart of a Helm
// repository or a registry (chart:) have no path here, and render for the
// Application's own file (argochart.go). A plugin source is not rendered,
// with the reason.
type Source struct {
	In *source.Input
}

func (s *Source) Prepare(ctx context.Context, p source.Path) (source.Build, error) {
	d := s.In.Deployer
	app, err := ParseApplication(d)
	if err != nil {
		return nil, err
	}
	if !p.Dir {
		if s.isApplicationFile(p) {
			return s.chartSources(ctx, app)
		}
		return nil, fmt.Errorf("%s: a file; Argo CD renders a source's directory (%s)", p.Given, s.where())
	}
	root := s.In.Fs.Boundary.Top()
	src, ok := app.sourceAt(root, p.Real)
	if !ok {
		return nil, fmt.Errorf("%s: no source of Application %s has this path (%s)", p.Given, app.Metadata.Name, s.where())
	}
	name := app.instanceName()
	if src, err = s.mergeParameterFiles(src, p.Real, name); err != nil {
		return nil, err
	}
	typ, err := src.explicitType()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where(), err)
	}
	if typ == "" {
		typ = s.detectType(p.Real)
	}
	env := app.Env(src)
	var inner source.Build
	switch typ {
	case argoHelmType:
		var reason string
		if inner, reason, err = s.helm(source.Chart{Dir: p.Real}, app, src, env); reason != "" {
			return s.notRendered(reason), nil
		}
	case argoPluginType:
		return s.notRendered("a config management plugin source: Argo CD runs the plugin, which the check cannot reproduce"), nil
	case argoKustomizeType:
		inner, err = s.kustomize(ctx, p, src, env, app)
	default:
		inner, err = s.directory(ctx, p, src, env)
	}
	if err != nil {
		return nil, err
	}
	if len(env.Unknown) > 0 {
		return s.notRendered(fmt.Sprintf("source.kustomize uses $%s, which Argo CD sets only when it syncs a commit", strings.Join(env.Unknown, ", $"))), nil
	}
	return &argoBuild{inner: inner, track: app.tracking(), where: s.where()}, nil
}

// where is the Application's file as users see it.
func (s *Source) where() string {
	d := s.In.Deployer
	if d.File == "" {
		return "the Argo CD Application"
	}
	return s.In.Rel(filepath.Join(s.In.Fs.Boundary.Top(), filepath.FromSlash(d.File)))
}

func (s *Source) notRendered(reason string) source.Build {
	return source.NotRenderedBuild{{Source: s.where(), Reason: reason}}
}

// detectType is discovery.AppType for a source that names no type: a
// kustomization file makes it kustomize, else a *Chart.yaml makes it Helm,
// else it is a directory of manifests. (Argo CD asks its config management
// plugins' discovery rules first; a plugin that claims a directory of
// manifests is not seen here.)
func (s *Source) detectType(dir string) string {
	s.In.ReadDir(dir)
	entries, err := s.In.Fs.Boundary.ReadDir(dir)
	if err != nil {
		return argoDirectoryType
	}
	typ := argoDirectoryType
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		switch {
		case source.IsKustomizationName(e.Name()):
			return argoKustomizeType
		case strings.HasSuffix(e.Name(), "Chart.yaml"):
			typ = argoHelmType
		}
	}
	return typ
}

// mergeParameterFiles is mergeSourceParameters: .argocd-source.yaml, then
// .argocd-source-<app>.yaml, in the source's directory (dir, resolved), are
// JSON merge patches on the source (Argo CD Image Updater writes them);
// the source's repository, path, revision and chart stay as they are.
func (s *Source) mergeParameterFiles(src argoAppSource, dir, app string) (argoAppSource, error) {
	s.In.ReadDir(dir)
	merged := src
	for _, name := range []string{".argocd-source.yaml", ".argocd-source-" + app + ".yaml"} {
		file := filepath.Join(dir, name)
		if !s.In.Fs.IsFile(file) {
			continue
		}
		data, err := s.In.Fs.ReadFile(file)
		if err != nil {
			return src, err
		}
		patch, err := yaml.YAMLToJSON(data)
		if err != nil {
			return src, fmt.Errorf("%s: %w", s.In.Rel(file), err)
		}
		doc, err := json.Marshal(merged)
		if err != nil {
			return src, err
		}
		var d, p any
		if err := json.Unmarshal(doc, &d); err != nil {
			return src, err
		}
		if err := json.Unmarshal(patch, &p); err != nil {
			return src, fmt.Errorf("%s: %w", s.In.Rel(file), err)
		}
		out, err := json.Marshal(mergePatch(d, p))
		if err != nil {
			return src, err
		}
		merged = argoAppSource{}
		if err := json.Unmarshal(out, &merged); err != nil {
			return src, fmt.Errorf("%s: %w", s.In.Rel(file), err)
		}
	}
	merged.RepoURL, merged.Path, merged.TargetRevision, merged.Chart = src.RepoURL, src.Path, src.TargetRevision, src.Chart
	return merged, nil
}

// mergePatch is RFC 7386's JSON merge patch.
func mergePatch(doc, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	d, ok := doc.(map[string]any)
	if !ok {
		d = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(d, k)
			continue
		}
		d[k] = mergePatch(d[k], v)
	}
	return d
}

// kustomize is a kustomize source: the kustomization as Argo CD's kustomize
// edit commands leave it, built by kustomize with the render's settings
// as the installation's build options change them. With --enable-helm,
// helmCharts render in process as its kustomize's `helm template` renders
// them (the cluster's version and API versions, or the source's); without
// it, a kustomization with helmCharts fails as it fails in Argo CD.
func (s *Source) kustomize(ctx context.Context, p source.Path, src argoAppSource, env *buildEnv, app *Application) (source.Build, error) {
	build := app.buildOptions()
	var o argoKustomize
	if present(src.Kustomize) {
		if err := json.Unmarshal(src.Kustomize, &o); err != nil {
			return nil, fmt.Errorf("%s: source.kustomize: %w", s.where(), err)
		}
	}
	fs := s.In.Fs
	edits, err := argoKustomizeEdits(o, p.Real, env, editFiles{FS: s.In.Fs.Boundary, Read: s.In.ReadDir})
	if err != nil {
		return nil, fmt.Errorf("%s: source.kustomize: %w", s.where(), err)
	}
	if len(edits) > 0 {
		file, data, err := s.editKustomization(p.Real, edits)
		if err != nil {
			return nil, err
		}
		fs = fs.WithEdits(map[string][]byte{file: data})
	}
	k := kustomize.NewBuilder(fs, build.kustomizeOptions(s.In.Cfg.Kustomize))
	if build.enableHelm {
		in := *s.In
		in.Fs = fs
		k.Charts = &kustomize.ChartInflater{In: &in, Controller: &kustomize.ControllerHelm{
			Cluster: helm.ClusterArgoCD, KubeVersion: o.KubeVersion, APIVersions: o.APIVersions,
		}}
	}
	b, err := k.PrepareDir(ctx, p.Real)
	if nr, ok := kustomize.NotRenderedOf(err); ok {
		return source.NotRenderedBuild{nr}, nil
	}
	var r *kustomize.Refusal
	if errors.As(err, &r) && r.Option == "allowHelm" && !build.enableHelm {
		return nil, build.helmDisabled(app.Metadata.Name, r.File, r.Field)
	}
	if err != nil {
		return nil, err
	}
	return &kustomize.Build{K: k, B: b}, nil
}

// buildEnv is Argo CD's build environment (repository newEnv), which it
// substitutes into images and commonLabels (and commonAnnotations with
// commonAnnotationsEnvsubst).
type buildEnv struct {
	Vars map[string]string
	// Unknown are the variables used whose value only a sync knows (the
	// revision).
	Unknown []string
}

func (a *Application) Env(s argoAppSource) *buildEnv {
	return &buildEnv{Vars: map[string]string{
		"ARGOCD_APP_NAME":                   a.instanceName(),
		"ARGOCD_APP_NAMESPACE":              a.Spec.Destination.Namespace,
		"ARGOCD_APP_PROJECT_NAME":           a.Spec.Project,
		"ARGOCD_APP_SOURCE_REPO_URL":        s.RepoURL,
		"ARGOCD_APP_SOURCE_PATH":            s.Path,
		"ARGOCD_APP_SOURCE_TARGET_REVISION": s.TargetRevision,
	}}
}

// Subst is Env.Envsubst: $VAR and ${VAR} from the environment, a variable
// it does not set is empty, and $$ is a $.
func (e *buildEnv) Subst(s string) string {
	return os.Expand(s, func(v string) string {
		switch v {
		case "$":
			return "$"
		case "ARGOCD_APP_REVISION", "ARGOCD_APP_REVISION_SHORT", "ARGOCD_APP_REVISION_SHORT_8":
			if !slices.Contains(e.Unknown, v) {
				e.Unknown = append(e.Unknown, v)
				sort.Strings(e.Unknown)
			}
			return ""
		}
		return e.Vars[v]
	})
}

// argoBuild is a source's build, with what Argo CD does to what it
// renders: Lists taken apart, objects it skips (hook Skip) left out, its
// hooks not checked (argoHook), its tracking written, and the destination
// namespace given to objects without one.
type argoBuild struct {
	inner source.Build
	track argoTracking
	where string
}

func (b *argoBuild) Size() int { return b.inner.Size() }

func (b *argoBuild) Run(ctx context.Context) (source.Output, error) {
	out, err := b.inner.Run(ctx)
	if err != nil {
		return source.Output{}, err
	}
	objs := make([]model.Object, 0, len(out.Objects))
	for _, o := range out.Objects {
		items, err := argoItems(o)
		if err != nil {
			return source.Output{}, err
		}
		for _, it := range items {
			if argoSkipped(it.Object) {
				continue
			}
			if hook := argoHook(it.Object); hook != "" {
				where := it.Source
				if it.Line > 0 {
					where = fmt.Sprintf("%s:%d", it.Source, it.Line)
				}
				out.NotRendered = append(out.NotRendered, source.NotRendered{Source: where, Reason: argoHookNotChecked(it.Object, hook)})
				continue
			}
			if err := b.track.apply(it.Object); err != nil {
				return source.Output{}, fmt.Errorf("%s: %s %s: %w", b.where, it.Object.GetKind(), it.Object.GetName(), err)
			}
			// The controller's DeduplicateTargetObjects; render drops
			// it again from cluster-scoped objects, as that does.
			if it.Object.GetNamespace() == "" && b.track.namespace != "" {
				it.Object.SetNamespace(b.track.namespace)
			}
			objs = append(objs, it)
		}
	}
	out.Objects = objs
	return out, nil
}

// argoSkipped is gitops-engine's hook.Skip: an object whose only hook type
// is Skip is never applied.
func argoSkipped(u *unstructured.Unstructured) bool {
	var types []string
	for _, t := range strings.Split(u.GetAnnotations()["argocd.argoproj.io/hook"], ",") {
		switch t = strings.TrimSpace(t); t {
		case "PreSync", "Sync", "PostSync", "SyncFail", "PostDelete", "PreDelete", "Skip":
			types = append(types, t)
		}
	}
	return len(types) == 1 && types[0] == "Skip"
}

// argoItems is what GenerateManifests makes of a rendered object: a list
// (any object with an items array) its items, a null list nothing.
func argoItems(o model.Object) ([]model.Object, error) {
	obj := o.Object.Object
	items, isList := obj["items"].([]any)
	if !isList {
		_, hasItems := obj["items"]
		_, hasSpec := obj["spec"]
		_, hasStatus := obj["status"]
		if hasItems && obj["items"] == nil && !hasSpec && !hasStatus {
			return nil, nil
		}
		return []model.Object{o}, nil
	}
	out := make([]model.Object, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: items member is not an object: %T", o.Source, it)
		}
		out = append(out, model.Object{Object: &unstructured.Unstructured{Object: m}, Source: o.Source, Line: o.Line})
	}
	return out, nil
}
