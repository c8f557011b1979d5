package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/flux"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Options tune Render.
type Options struct {
	// Namespace is given to namespaced objects that set none; "default"
	// when empty.
	Namespace string
	// Scope tells which kinds are namespaced. nil: the CRDs of the same
	// render, then a built-in list of cluster-scoped kinds. A kind the
	// resolver does not know (meta.IsNoMatchError) falls back the same way.
	// A custom kind none of them knows is taken as namespaced, with a note
	// on each of its objects (model.Object.Notes).
	Scope ScopeResolver
	// Config holds the ignore rules and the kustomize features enabled;
	// nil is the secure default.
	Config *config.Config
	// Reads, when set, records every file and directory the render reads
	// (affected targets).
	Reads *source.Reads
	// Root, when set, is the repository the paths are in, in place of the
	// one holding the working directory: a base revision's tree read out
	// of git into a temporary directory.
	Root string
	// Deployer, when set, is the GitOps controller's object whose render
	// the paths get (the source table's row of its Controller): what
	// `kustomize build` would print, changed as that controller changes
	// it. nil: the paths are rendered as kustomize and plain YAML are.
	Deployer *delivery.Deployer
	// Values answers a controller's reads of values that are not in the
	// paths (Flux's postBuild.substituteFrom ConfigMaps and Secrets): the
	// repository's objects first, else the cluster's. What the render that
	// made the Deployer made (Deployer.RenderedValues) is read before it.
	// nil: none can be read, and a render that needs one is not rendered,
	// with the reason.
	Values source.ValueReader
	// KeepUnresolved is for discovery, which needs paths, not values: a
	// substitution source that cannot be read (encrypted, in the cluster
	// while there is none, missing) leaves the variables only it could
	// set in place, as ${VAR}, rather than stopping the render.
	KeepUnresolved bool
	// ChartCluster answers what a chart's render reads of the cluster
	// (.Capabilities, lookup) for deployers that read it (`helm upgrade`,
	// Flux, Argo CD). nil: Helm's default capabilities, and lookup finds
	// nothing, as `helm template` renders.
	ChartCluster source.ChartCluster
	// Charts locates the charts a deployer names by reference
	// (Deployer.Charts, kustomize's helmCharts with a repo). nil: the
	// repository's own charts, and any other is not rendered, with the
	// reason.
	Charts delivery.ChartLocator
	// HelmEngine is the Helm that loads and renders charts; nil:
	// helm.NewEngine's (Helm 3).
	HelmEngine helm.Engine
	// Trees are the run's git trees, which a deployer pinned to a
	// revision (Deployer.Revision.Pinned) renders from; Trees.Top, when
	// set, is the repository's top. nil: a pinned deployer is an error.
	Trees *gitexec.Trees
	// StandInSecrets: every value of a Secret the render would read from
	// the cluster (a chart's lookup, Flux's substituteFrom and valuesFrom)
	// or from a SOPS-encrypted file stands in the render as a placeholder,
	// and what depends on one is marked (standins.go). A check's render
	// does this, as a pull request controls what its templates do with a
	// value; `snapshot`, after the deploy, reads the values.
	StandInSecrets bool

	// standIns are the render's placeholders (RenderAll makes them).
	standIns *model.StandIns
}

// maxReported bounds how many object errors one Render reports at once.
const maxReported = 20

// Render reads the paths and returns their objects sorted by ID. Errors
// name the file (and line) or the object at fault. What a source could
// not render is an error here (*NotRenderedError): RenderAll returns it
// to a caller that reports it.
func Render(ctx context.Context, paths []string, opts Options) ([]model.Object, error) {
	return failClosed(RenderAll(ctx, paths, opts))
}

// failClosed turns what was not rendered into an error.
func failClosed(r Result, err error) ([]model.Object, error) {
	if err != nil {
		return nil, err
	}
	if len(r.NotRendered) > 0 {
		return nil, &source.NotRenderedError{NotRendered: r.NotRendered}
	}
	return r.Objects, nil
}

// Result is what RenderAll made of the paths.
type Result struct {
	Objects []model.Object // sorted by ID
	// NotRendered is what the paths refer to that no source could
	// render, in the order of the paths.
	NotRendered []source.NotRendered
	// Charts are the charts the render released (a fetched one with its
	// digest, one of the repository by name and version), once each,
	// sorted by name, version and digest: what the report names at base
	// and head.
	Charts []delivery.ChartPin
}

// RenderAll is Render, with what the sources could not render as data.
// A render that passes its time bound is not rendered (timeBound).
func RenderAll(ctx context.Context, paths []string, opts Options) (Result, error) {
	if opts.StandInSecrets {
		opts.standIns = model.NewStandIns()
		registerDeployerStandIns(opts.Deployer, opts.standIns)
	}
	// Both renders of a check with stand-ins share one bound.
	return timeBound(ctx, source.MaxRenderTime, paths, func(ctx context.Context) (Result, error) {
		r, err := renderOnce(ctx, paths, opts)
		if err != nil || len(opts.standIns.Used()) == 0 {
			return r, err
		}
		return renderAgainWithOtherStandIns(ctx, paths, opts, r)
	})
}

func renderOnce(ctx context.Context, paths []string, opts Options) (Result, error) {
	if opts.Deployer != nil && opts.Deployer.Revision.Pinned() {
		return renderPinned(ctx, paths, opts)
	}
	return renderWith(ctx, paths, opts, sourceTable)
}

func renderWith(ctx context.Context, paths []string, opts Options, rows []sourceRow) (Result, error) {
	if len(paths) == 0 {
		return Result{}, errors.New("no path given: pass kustomization directories, directories of YAML files or YAML files")
	}
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return Result{}, err
	}
	for _, p := range paths {
		if _, err := repofs.RealPath(p); err != nil {
			return Result{}, fmt.Errorf("%s: %w", p, unwrapPathError(err))
		}
	}
	b, err := source.NewBoundary(cwd, opts.Root, paths)
	if err != nil {
		return Result{}, err
	}
	defer b.Close()
	fs := source.NewGuardFS(b)
	fs.Reads = opts.Reads
	pins := &source.ChartPins{}
	raws, skipped, err := newLoader(&source.Input{Fs: fs, Cfg: cfg, Deployer: opts.Deployer, Values: opts.Values, KeepUnresolved: opts.KeepUnresolved, ChartCluster: opts.ChartCluster, Charts: opts.Charts, Helm: helm.Or(opts.HelmEngine), Pins: pins, Namespace: defaultNamespace(opts), StandIns: opts.standIns}, rows).loadAll(ctx, paths)
	if err != nil {
		return Result{}, err
	}
	objs, err := finish(raws, opts, cfg)
	if err != nil {
		return Result{}, err
	}
	return Result{Objects: objs, NotRendered: skipped, Charts: pins.Sorted()}, nil
}

// defaultNamespace is the namespace of objects that set none.
func defaultNamespace(opts Options) string {
	if opts.Namespace == "" {
		return "default"
	}
	return opts.Namespace
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// finish gives each object its identity and namespace, removes ignored
// fields, and refuses objects Server-Side Apply cannot address.
func finish(raws []source.RawObject, opts Options, cfg *config.Config) ([]model.Object, error) {
	defaultNS := defaultNamespace(opts)
	sc := newScopes(opts.Scope, raws)
	var errs []error
	fail := func(err error) { errs = append(errs, err) }
	seen := map[model.ID]source.RawObject{}
	out := make([]model.Object, 0, len(raws))
	for _, r := range raws {
		u := &unstructured.Unstructured{Object: r.Obj}
		if err := checkIdentity(r); err != nil {
			fail(err)
			continue
		}
		gvk := u.GroupVersionKind()
		namespaced, guessed, err := sc.namespaced(gvk)
		if err != nil {
			fail(fmt.Errorf("%s: %s %s: scope: %w", r.Where(), gvk.Kind, u.GetName(), err))
			continue
		}
		switch {
		case namespaced && u.GetNamespace() == "" && !guessed && flux.Renders(opts.Deployer):
			// The controller applies what it built as it is, and refuses
			// the whole Kustomization for an object it cannot place.
			fail(fmt.Errorf("%s: %s %s: namespace not specified: kustomize-controller refuses to apply the Kustomization; set spec.targetNamespace or the object's metadata.namespace", r.Where(), gvk.Kind, u.GetName()))
			continue
		case namespaced && u.GetNamespace() == "":
			u.SetNamespace(defaultNS)
		case !namespaced && u.GetNamespace() != "":
			// The API server ignores it for cluster-scoped kinds; the
			// identity must not carry it.
			unstructured.RemoveNestedField(u.Object, "metadata", "namespace")
		}
		id := model.IDOf(u)
		if first, dup := seen[id]; dup {
			fail(fmt.Errorf("%s: defined twice: in %s and in %s", id, first.Where(), r.Where()))
			continue
		}
		seen[id] = r
		removeIgnored(u.Object, cfg.IgnoredPaths(id.Group, id.Kind, id.Namespace, id.Name))
		o := model.Object{ID: id, Object: u, Source: r.Source, Line: r.Line, Notes: r.Notes, HiddenValues: r.Hidden, PatchedAt: r.PatchedAt}
		if guessed {
			o.Notes = append(o.Notes, guessedScopeNote(gvk.GroupKind()))
		}
		out = append(out, o)
	}
	if len(errs) > 0 {
		if len(errs) > maxReported {
			errs = append(errs[:maxReported], fmt.Errorf("... and %d more errors", len(errs)-maxReported))
		}
		return nil, errors.Join(errs...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID.Less(out[j].ID) })
	return out, nil
}

// checkIdentity refuses objects without the fields that identify them.
func checkIdentity(r source.RawObject) error {
	apiVersion, _ := r.Obj["apiVersion"].(string)
	kind, _ := r.Obj["kind"].(string)
	if apiVersion == "" || kind == "" {
		return fmt.Errorf("%s: not a Kubernetes object: apiVersion and kind are required", r.Where())
	}
	if _, err := schema.ParseGroupVersion(apiVersion); err != nil {
		return fmt.Errorf("%s: %s: bad apiVersion %q", r.Where(), kind, apiVersion)
	}
	meta, ok := r.Obj["metadata"].(map[string]any)
	if !ok && r.Obj["metadata"] != nil {
		return fmt.Errorf("%s: %s: metadata must be a mapping", r.Where(), kind)
	}
	for _, f := range []string{"name", "namespace", "generateName"} {
		if v, found := meta[f]; found && v != nil {
			if _, isString := v.(string); !isString {
				return fmt.Errorf("%s: %s: metadata.%s must be a string", r.Where(), kind, f)
			}
		}
	}
	name, _ := meta["name"].(string)
	if name != "" {
		return nil
	}
	if g, _ := meta["generateName"].(string); g != "" {
		return fmt.Errorf("%s: %s with generateName %q and no name: Server-Side Apply needs a fixed metadata.name", r.Where(), kind, g)
	}
	return fmt.Errorf("%s: %s without metadata.name: Server-Side Apply needs one", r.Where(), kind)
}
