package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Annotations kustomize adds for its own bookkeeping; they are not part of
// what the deploy applies (see bookkeeping).
const (
	originAnnotation          = "config.kubernetes.io/origin"
	transformationsAnnotation = "alpha.config.kubernetes.io/transformations"
	internalAnnotationPrefix  = "internal.config.kubernetes.io/"
)

// kustomizer builds kustomizations in-process with krusty, through the
// guarded file system, after the scanner has checked what they reach.
// Builds of one Render may run side by side (see krustyLock).
type kustomizer struct {
	fs    *guardFS
	opts  config.KustomizeOptions
	lines *lineIndex
	// originBuilds counts the builds run again for sources (originsOf).
	originBuilds atomic.Int32
	// charts renders helmCharts in process; nil for a controller's
	// kustomize, which does not inflate them.
	charts *chartInflater
}

func newKustomizer(fs *guardFS, opts config.KustomizeOptions) *kustomizer {
	k := &kustomizer{fs: fs, opts: opts, lines: newLineIndex(fs)}
	if opts.AllowRemote {
		// kustomize clones into os.MkdirTemp("", "kustomize-") and reads
		// the clone through this file system.
		if tmp, err := repofs.RealPath(os.TempDir()); err == nil {
			fs.scratch = append(fs.scratch, filepath.Join(tmp, "kustomize-"))
		}
	}
	return k
}

func (k *kustomizer) krustyOptions() *krusty.Options {
	o := krusty.MakeDefaultOptions()
	// Unspecified, not None: with None, a kustomization's own sortOptions
	// makes kustomize log a warning. Render sorts by identity anyway.
	o.Reorder = krusty.ReorderOptionUnspecified
	if k.opts.AllowLoadOutsideRoot {
		o.LoadRestrictions = types.LoadRestrictionsNone
	}
	if k.opts.AllowExecPlugins {
		o.PluginConfig = types.EnabledPluginConfig(types.BploUseStaticallyLinked)
		o.PluginConfig.FnpLoadingOptions.EnableExec = true
	}
	o.PluginConfig.HelmConfig.Enabled = k.opts.AllowHelm
	o.PluginConfig.HelmConfig.Command = "helm"
	return o
}

// preparedBuild is a kustomization that passed the scan, ready for krusty.
type preparedBuild struct {
	dir string // resolved, absolute
	// objects is what the scan counted: the size of the build.
	objects int
	// customSchema: some kustomization it reaches sets openapi.
	customSchema bool
	// sources is what the scan read, to tell where objects come from.
	sources *buildSources
}

// Prepare scans the kustomization the path names (its directory or its
// file) and everything it reaches: the Source for kustomizations.
func (k *kustomizer) Prepare(ctx context.Context, p Path) (Build, error) {
	dir := p.Real
	if !p.Dir {
		dir = filepath.Dir(p.Real)
	}
	b, err := k.prepare(ctx, dir)
	var nr *chartNotRendered
	if errors.As(err, &nr) {
		return notRenderedBuild{nr.NotRendered}, nil
	}
	if err != nil {
		return nil, err
	}
	return &kustomizeBuild{k: k, b: b}, nil
}

// kustomizeBuild is a prepared kustomization of a path given to Render.
type kustomizeBuild struct {
	k *kustomizer
	b *preparedBuild
}

func (b *kustomizeBuild) Size() int { return b.b.objects }

func (b *kustomizeBuild) Run(context.Context) (Output, error) {
	raws, err := b.k.run(b.b)
	if err != nil {
		return Output{}, err
	}
	return Output{Objects: objectsOf(raws)}, nil
}

// build renders the kustomization in dir (resolved, absolute).
func (k *kustomizer) build(ctx context.Context, dir string) ([]rawObject, error) {
	b, err := k.prepare(ctx, dir)
	if err != nil {
		return nil, err
	}
	return k.run(b)
}

// prepare scans the kustomization in dir and everything it reaches.
func (k *kustomizer) prepare(ctx context.Context, dir string) (*preparedBuild, error) {
	pluginDir := func(dir string) ([]rawObject, error) { return k.build(ctx, dir) }
	s := &scanner{ctx: ctx, fs: k.fs, opts: k.opts, counts: map[string]int{}, lines: k.lines, pluginDir: pluginDir, sources: newBuildSources(), charts: k.charts}
	n, err := s.scanDir(dir)
	if err != nil {
		return nil, err
	}
	return &preparedBuild{dir: dir, objects: n, customSchema: s.customSchema, sources: s.sources}, nil
}

// run builds a prepared kustomization with krusty, as kubectl kustomize
// does (no origin annotations), and finds each object's source.
func (k *kustomizer) run(b *preparedBuild) ([]rawObject, error) {
	return k.runWith(b, nil)
}

// runWith is run, with each built object changed by transform first: what
// a controller does to each object of the build before it applies it
// (Flux's substitution), on the build's own YAML, as the controller does.
func (k *kustomizer) runWith(b *preparedBuild, transform func(*resource.Resource) error) ([]rawObject, error) {
	m, err := k.krusty(b.customSchema, k.fs, b.dir)
	if err != nil {
		return nil, err
	}
	kfile := k.fs.boundary.Rel(k.fs.kustomizationFile(b.dir))
	out := make([]rawObject, 0, m.Size())
	ids := make([]resid.ResId, 0, m.Size())
	var matcher *sourceMatcher
	if !b.sources.opaque {
		matcher = newSourceMatcher(b.sources, b.dir, k.lines)
	}
	var unknown []int // objects whose source only origin annotations tell
	for _, res := range m.Resources() {
		// The kustomization itself may ask for origin annotations.
		// The identity before transform: what a build for origins finds.
		id, kind, name := res.CurId(), res.GetKind(), res.GetName()
		origin, err := res.GetOrigin()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: origin: %w", kfile, res.CurId(), err)
		}
		if transform != nil {
			if err := transform(res); err != nil {
				return nil, err
			}
		}
		obj, err := resourceObject(res)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", kfile, res.CurId(), err)
		}
		r := rawObject{obj: obj, source: kfile}
		switch {
		case origin != nil:
			k.locate(&r, b.dir, origin)
		case matcher == nil:
			unknown = append(unknown, len(out))
		default:
			loc, ok := matcher.match(kind, name)
			if ok {
				k.place(&r, loc)
			} else {
				unknown = append(unknown, len(out))
			}
		}
		out = append(out, r)
		ids = append(ids, id)
	}
	if matcher != nil && !matcher.consistent() {
		unknown = unknown[:0]
		for i := range out {
			unknown = append(unknown, i)
		}
	}
	if len(unknown) > 0 {
		if err := k.originsOf(b, out, ids, unknown); err != nil {
			return nil, err
		}
	}
	for i := range out {
		kind, _ := out[i].obj["kind"].(string)
		if src, ok := k.charts.sourceOf(out[i].source, kind, nameOf(out[i].obj)); ok {
			out[i].source, out[i].line = src, 0
		}
	}
	return out, nil
}

// krusty runs kustomize on dir through fs.
func (k *kustomizer) krusty(customSchema bool, fs filesys.FileSystem, dir string) (resmap.ResMap, error) {
	m, err := runKrusty(customSchema, func() (resmap.ResMap, error) {
		return krusty.MakeKustomizer(k.krustyOptions()).Run(fs, dir)
	})
	if err != nil {
		return nil, k.explain(dir, err)
	}
	return m, nil
}

// resourceObject is a built object as JSON values, without bookkeeping.
func resourceObject(res *resource.Resource) (map[string]any, error) {
	j, err := res.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(j, &obj); err != nil {
		return nil, err
	}
	stripBookkeeping(obj)
	return obj, nil
}

// originsOf builds the kustomization again with origin annotations, to
// find the sources of the objects out[i] (identified by ids[i]) for i in
// which. Its objects are
// used for nothing else: origin annotations are bookkeeping that a
// replacement can copy into an object, and the output is what kubectl
// kustomize builds.
func (k *kustomizer) originsOf(b *preparedBuild, out []rawObject, ids []resid.ResId, which []int) error {
	k.originBuilds.Add(1)
	fs, err := k.withOrigins(k.fs.kustomizationFile(b.dir))
	if err != nil {
		return err
	}
	m, err := k.krusty(b.customSchema, fs, b.dir)
	if err != nil {
		return err
	}
	origins := make(map[resid.ResId]*resource.Origin, m.Size())
	for _, res := range m.Resources() {
		o, err := res.GetOrigin()
		if err != nil {
			return fmt.Errorf("%s: %s: origin: %w", k.fs.boundary.Rel(k.fs.kustomizationFile(b.dir)), res.CurId(), err)
		}
		origins[res.CurId()] = o
	}
	for _, i := range which {
		k.locate(&out[i], b.dir, origins[ids[i]])
	}
	return nil
}

// withOrigins makes kustomize record each object's source file: the
// top-level kustomization is read with originAnnotations added to its
// buildMetadata (only in this build's view of the file system).
func (k *kustomizer) withOrigins(file string) (*buildFS, error) {
	doc, err := kustomizationDoc(k.fs, file)
	if err != nil {
		return nil, err
	}
	var meta []any
	if existing, ok := doc["buildMetadata"].([]any); ok {
		meta = existing
	}
	if !slices.Contains(meta, any(types.OriginAnnotations)) {
		meta = append(meta, types.OriginAnnotations)
	}
	doc["buildMetadata"] = meta
	patched, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	// resolve: the file may be a controller's generated kustomization.
	real, err := k.fs.resolve(file)
	if err != nil {
		return nil, err
	}
	return &buildFS{guardFS: k.fs, kustomization: real, patched: patched}, nil
}

// locate sets the source file (and line, when it can be found) from the
// origin kustomize recorded.
func (k *kustomizer) locate(r *rawObject, dir string, o *resource.Origin) {
	if o == nil || o.Repo != "" {
		return
	}
	switch {
	case o.Path != "":
		file := filepath.Join(dir, filepath.FromSlash(o.Path))
		r.source = k.fs.boundary.Rel(file)
		kind, _ := r.obj["kind"].(string)
		r.line = k.lines.objectLine(file, kind, nameOf(r.obj))
	case o.ConfiguredIn != "":
		file := filepath.Join(dir, filepath.FromSlash(o.ConfiguredIn))
		r.source = k.fs.boundary.Rel(file)
		r.line = k.lines.generatorLine(file, o.ConfiguredBy.Kind, nameOf(r.obj))
	}
}

// place sets the source file and line from a location the scan knows.
func (k *kustomizer) place(r *rawObject, loc location) {
	r.source = k.fs.boundary.Rel(loc.file)
	if loc.generator != "" {
		r.line = k.lines.generatorLine(loc.file, loc.generator, nameOf(r.obj))
		return
	}
	r.line = loc.line
}

// explain turns kustomize's refusals (the backstop behind the scanner) into
// messages that say how to allow what was refused.
func (k *kustomizer) explain(dir string, err error) error {
	msg := err.Error()
	where := k.fs.boundary.Rel(dir)
	hint := func(what, option string) error {
		return fmt.Errorf("kustomize build %s: %w; this %s, which is disabled because pull requests are untrusted; to allow it, set kustomize.%s: true in the repository config (%s; see docs/trust-model.md)",
			where, err, what, option, config.DefaultFile)
	}
	switch {
	case types.IsErrOnlyBuiltinPluginsAllowed(err) || strings.Contains(msg, "only builtin plugins"):
		return hint("is an exec plugin or KRM function", "allowExecPlugins")
	case strings.Contains(msg, "must specify --enable-helm"):
		return hint("inflates a helm chart", "allowHelm")
	case strings.Contains(msg, "is not in or below"):
		return hint("reads a file outside the kustomization's directory", "allowLoadOutsideRoot")
	}
	return fmt.Errorf("kustomize build %s: %w", where, err)
}

// kustomizationDoc is the kustomization at file as a document to rewrite
// for this build's view of the file system. It was already read strictly
// by the scanner; its JSON form is what kustomize itself decodes.
func kustomizationDoc(fs *guardFS, file string) (map[string]any, error) {
	data, err := fs.ReadFile(file)
	if err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(j, &doc); err != nil || doc == nil {
		return nil, fmt.Errorf("%s: not a kustomization", fs.boundary.Rel(file))
	}
	return doc, nil
}
