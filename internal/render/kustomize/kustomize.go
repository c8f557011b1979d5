package kustomize

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
	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Annotations kustomize adds for its own bookkeeping; they are not part of
// what the deploy applies (see bookkeeping).
const (
	OriginAnnotation          = "config.kubernetes.io/origin"
	transformationsAnnotation = "alpha.config.kubernetes.io/transformations"
	internalAnnotationPrefix  = "internal.config.kubernetes.io/"
)

// Builder builds kustomizations in-process with krusty, through the
// guarded file system, after the scanner has checked what they reach.
// Builds of one Render may run side by side (see krustyLock).
type Builder struct {
	fs    *source.GuardFS
	opts  config.KustomizeOptions
	lines *source.LineIndex
	// originBuilds counts the builds run again for sources (originsOf).
	originBuilds atomic.Int32
	// Charts renders helmCharts in process; nil for a controller's
	// kustomize that does not inflate them (Flux's, Argo CD's without
	// --enable-helm).
	Charts *ChartInflater
}

func NewBuilder(fs *source.GuardFS, opts config.KustomizeOptions) *Builder {
	k := &Builder{fs: fs, opts: opts, lines: source.NewLineIndex(fs)}
	if opts.AllowRemote {
		// kustomize clones into os.MkdirTemp("", "kustomize-") and reads
		// the clone through this file system.
		if tmp, err := repofs.RealPath(os.TempDir()); err == nil {
			fs.Scratch = append(fs.Scratch, filepath.Join(tmp, "kustomize-"))
		}
	}
	return k
}

func (k *Builder) krustyOptions() *krusty.Options {
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

// PreparedBuild is a kustomization that passed the scan, ready for krusty.
type PreparedBuild struct {
	dir string // resolved, absolute
	// Objects is what the scan counted: the size of the build.
	Objects int
	// customSchema: some kustomization it reaches sets openapi.
	customSchema bool
	// sources is what the scan read, to tell where objects come from.
	sources *buildSources
}

// Prepare scans the kustomization the path names (its directory or its
// file) and everything it reaches: the Source for kustomizations.
func (k *Builder) Prepare(ctx context.Context, p source.Path) (source.Build, error) {
	dir := p.Real
	if !p.Dir {
		dir = filepath.Dir(p.Real)
	}
	b, err := k.PrepareDir(ctx, dir)
	var nr *chartNotRendered
	if errors.As(err, &nr) {
		return source.NotRenderedBuild{nr.NotRendered}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Build{K: k, B: b}, nil
}

// Build is a prepared kustomization of a path given to Render.
type Build struct {
	K *Builder
	B *PreparedBuild
}

func (b *Build) Size() int { return b.B.Objects }

func (b *Build) Run(context.Context) (source.Output, error) {
	raws, err := b.K.run(b.B)
	if err != nil {
		return source.Output{}, err
	}
	return source.Output{Objects: source.ObjectsOf(raws)}, nil
}

// Build renders the kustomization in dir (resolved, absolute).
func (k *Builder) Build(ctx context.Context, dir string) ([]source.RawObject, error) {
	b, err := k.PrepareDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	return k.run(b)
}

// PrepareDir scans the kustomization in dir and everything it reaches.
func (k *Builder) PrepareDir(ctx context.Context, dir string) (*PreparedBuild, error) {
	pluginDir := func(dir string) ([]source.RawObject, error) { return k.Build(ctx, dir) }
	s := &scanner{ctx: ctx, fs: k.fs, opts: k.opts, counts: map[string]int{}, lines: k.lines, pluginDir: pluginDir, sources: newBuildSources(), charts: k.Charts}
	n, err := s.scanDir(dir)
	if err != nil {
		return nil, err
	}
	return &PreparedBuild{dir: dir, Objects: n, customSchema: s.customSchema, sources: s.sources}, nil
}

// run builds a prepared kustomization with krusty, as kubectl kustomize
// does (no origin annotations), and finds each object's source.
func (k *Builder) run(b *PreparedBuild) ([]source.RawObject, error) {
	return k.RunWith(b, nil)
}

// RunWith is run, with each built object changed by transform first: what
// a controller does to each object of the build before it applies it
// (Flux's substitution), on the build's own YAML, as the controller does.
func (k *Builder) RunWith(b *PreparedBuild, transform func(*resource.Resource) error) ([]source.RawObject, error) {
	m, err := k.krusty(b.customSchema, k.fs, b.dir)
	if err != nil {
		return nil, err
	}
	kfile := k.fs.Boundary.Rel(k.fs.KustomizationFile(b.dir))
	out := make([]source.RawObject, 0, m.Size())
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
		obj, err := ResourceObject(res)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", kfile, res.CurId(), err)
		}
		r := source.RawObject{Obj: obj, Source: kfile}
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
		kind, _ := out[i].Obj["kind"].(string)
		if src, ok := k.Charts.sourceOf(out[i].Source, kind, source.NameOf(out[i].Obj)); ok {
			out[i].Source, out[i].Line = src, 0
		}
	}
	if b.sources.anyPatches() {
		b.sources.setPatchedAt(b.dir, out, k.fs.Boundary.Rel)
	}
	return out, nil
}

// krusty runs kustomize on dir through fs.
func (k *Builder) krusty(customSchema bool, fs filesys.FileSystem, dir string) (resmap.ResMap, error) {
	m, err := RunKrusty(customSchema, func() (resmap.ResMap, error) {
		return krusty.MakeKustomizer(k.krustyOptions()).Run(fs, dir)
	})
	if err != nil {
		return nil, k.explain(dir, err)
	}
	return m, nil
}

// ResourceObject is a built object as JSON values, without bookkeeping.
func ResourceObject(res *resource.Resource) (map[string]any, error) {
	j, err := res.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(j, &obj); err != nil {
		return nil, err
	}
	StripBookkeeping(obj)
	return obj, nil
}

// originsOf builds the kustomization again with origin annotations, to
// find the sources of the objects out[i] (identified by ids[i]) for i in
// which. Its objects are
// used for nothing else: origin annotations are bookkeeping that a
// replacement can copy into an object, and the output is what kubectl
// kustomize builds.
func (k *Builder) originsOf(b *PreparedBuild, out []source.RawObject, ids []resid.ResId, which []int) error {
	k.originBuilds.Add(1)
	fs, err := k.withOrigins(k.fs.KustomizationFile(b.dir))
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
			return fmt.Errorf("%s: %s: origin: %w", k.fs.Boundary.Rel(k.fs.KustomizationFile(b.dir)), res.CurId(), err)
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
func (k *Builder) withOrigins(file string) (*source.BuildFS, error) {
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
	real, err := k.fs.Resolve(file)
	if err != nil {
		return nil, err
	}
	return &source.BuildFS{GuardFS: k.fs, Kustomization: real, Patched: patched}, nil
}

// locate sets the source file (and line, when it can be found) from the
// origin kustomize recorded.
func (k *Builder) locate(r *source.RawObject, dir string, o *resource.Origin) {
	if o == nil || o.Repo != "" {
		return
	}
	switch {
	case o.Path != "":
		file := filepath.Join(dir, filepath.FromSlash(o.Path))
		r.Source = k.fs.Boundary.Rel(file)
		kind, _ := r.Obj["kind"].(string)
		r.Line = k.lines.ObjectLine(file, kind, source.NameOf(r.Obj))
	case o.ConfiguredIn != "":
		file := filepath.Join(dir, filepath.FromSlash(o.ConfiguredIn))
		r.Source = k.fs.Boundary.Rel(file)
		r.Line = k.lines.GeneratorLine(file, o.ConfiguredBy.Kind, source.NameOf(r.Obj))
	}
}

// place sets the source file and line from a location the scan knows.
func (k *Builder) place(r *source.RawObject, loc location) {
	r.Source = k.fs.Boundary.Rel(loc.file)
	if loc.generator != "" {
		r.Line = k.lines.GeneratorLine(loc.file, loc.generator, source.NameOf(r.Obj))
		return
	}
	r.Line = loc.line
}

// explain turns kustomize's refusals (the backstop behind the scanner) into
// messages that say how to allow what was refused.
func (k *Builder) explain(dir string, err error) error {
	msg := err.Error()
	where := k.fs.Boundary.Rel(dir)
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
func kustomizationDoc(fs *source.GuardFS, file string) (map[string]any, error) {
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
		return nil, fmt.Errorf("%s: not a kustomization", fs.Boundary.Rel(file))
	}
	return doc, nil
}
