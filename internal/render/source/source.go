package source

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/version"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Source renders one form of path given to Render: a kustomization, YAML
// files, and next a GitOps tool's object or a chart. Render chooses the
// source of each path from sourceTable; a new form is a row there and the
// file that implements it.
//
// A source reads through its Input's file system, which keeps reads inside
// the boundary (docs/trust-model.md) and records each file and directory
// read (Options.Reads); a source that reads another way records what it
// read with Input.ReadFile and Input.ReadDir, so that the record stays
// exact.
type Source interface {
	// Prepare reads and checks what the path reaches, side by side with
	// the other paths' Prepare, and returns what makes its objects.
	Prepare(ctx context.Context, p Path) (Build, error)
}

// Build is a prepared path.
type Build interface {
	// Size is how many objects Run makes that Prepare did not make
	// already: builds run side by side only when two are large
	// (primeCostObjects).
	Size() int
	// Run makes the path's objects, and names what it cannot render.
	Run(ctx context.Context) (Output, error)
}

// Path is a path given to Render, resolved.
type Path struct {
	Given string // as given (relative to the working directory)
	Abs   string // absolute, symlinks kept: what users see
	Real  string // absolute, symlinks resolved: what is read
	Dir   bool
	// Kustomization is the directory's kustomization file, "" when it
	// has none or is a file.
	Kustomization string
}

// Output is what a source made of a path.
type Output struct {
	// Objects carry their manifest and where it is written (Source,
	// Line); Render gives them identity and namespace.
	Objects []model.Object
	// NotRendered is what the path refers to that the source cannot
	// render, and why.
	NotRendered []NotRendered
}

// NotRendered is something a path refers to that its source cannot
// render: nothing is wrong with the manifests (that is an error), but
// its objects are not checked, and a report must say so (for example a
// GitOps object whose source is in another repository).
type NotRendered struct {
	Source string // the file (and line) that refers to it, as users see it
	Reason string // why it is not rendered, e.g. "source in another repository"
	// Encrypted, for a Secret left out because SOPS encrypted it, is that
	// Secret as a source of values (its keys, no value): a controller may
	// still take values from it (delivery.Deployer.RenderedValues).
	Encrypted *model.ValuesSource
}

// NotRenderedBuild is a path its source does not render, and why: what
// a controller's source prepares for a path it cannot reproduce.
type NotRenderedBuild []NotRendered

func (b NotRenderedBuild) Size() int { return 0 }

func (b NotRenderedBuild) Run(context.Context) (Output, error) {
	return Output{NotRendered: b}, nil
}

func (n NotRendered) String() string {
	return fmt.Sprintf("%s: not rendered: %s", n.Source, n.Reason)
}

// NotRenderedError is Render's answer when a source could not render
// something: a caller of Render has no way to report it, and what is not
// checked must not pass as clean. RenderAll returns it as data.
type NotRenderedError struct {
	NotRendered []NotRendered
}

func (e *NotRenderedError) Error() string {
	lines := make([]string, len(e.NotRendered))
	for i, n := range e.NotRendered {
		lines[i] = n.String()
	}
	return strings.Join(lines, "\n")
}

// Input is what every source of one Render shares.
type Input struct {
	Fs  *GuardFS
	Cfg *config.Config
	// Deployer is the controller's object the render is for, nil for
	// none (Options.Deployer).
	Deployer *delivery.Deployer
	// Values reads the values a controller takes from outside the paths
	// (Options.Values); nil when none can be read.
	Values ValueReader
	// KeepUnresolved: a value that cannot be read leaves its variable in
	// place (Options.KeepUnresolved).
	KeepUnresolved bool
	// ChartCluster is what charts' renders read of the cluster
	// (Options.ChartCluster); nil: none.
	ChartCluster ChartCluster
	// Charts locates the charts deployers name by reference
	// (Options.Charts); nil: the repository's own.
	Charts delivery.ChartLocator
	// Pins records the charts the render released (Result.Charts); nil:
	// none is recorded.
	Pins *ChartPins
	// Namespace is the render's default namespace (Options.Namespace, or
	// "default"): a helm release's when its target names none, as helm
	// takes the kubeconfig context's.
	Namespace string
	// StandIns stand for the Secret values a render reads from the cluster
	// or from SOPS-encrypted files (Options.StandIns); nil: the values.
	StandIns *model.StandIns
}

// ReadFile records that a source read the file at real (resolved).
func (in *Input) ReadFile(real string) { in.Fs.Reads.File(real) }

// ReadDir records that a source depended on the listing of the directory
// at real (resolved).
func (in *Input) ReadDir(real string) { in.Fs.Reads.Dir(real) }

// ReadRepositoryFile records that a source depended on the file at rel,
// relative to the repository's top or absolute (a GitOps object's file, a
// substitution source's file), when it exists there.
func (in *Input) ReadRepositoryFile(rel string) {
	if rel == "" {
		return
	}
	p := rel
	if !filepath.IsAbs(p) {
		p = in.RepositoryPath(rel)
	}
	if real, err := in.Fs.Boundary.Resolve(p); err == nil {
		in.Fs.Reads.File(real)
	}
}

// RepositoryPath is rel, relative to the repository's top, made absolute.
func (in *Input) RepositoryPath(rel string) string {
	return filepath.Join(in.Fs.Boundary.Top(), filepath.FromSlash(rel))
}

// Rel is p as users see it: relative to the working directory.
func (in *Input) Rel(p string) string { return in.Fs.Boundary.Rel(p) }

func (r RawObject) Object() model.Object {
	return model.Object{Object: &unstructured.Unstructured{Object: r.Obj}, Source: r.Source, Line: r.Line, Notes: r.Notes, HiddenValues: r.Hidden, PatchedAt: r.PatchedAt}
}

func RawOf(o model.Object) RawObject {
	return RawObject{Obj: o.Object.Object, Source: o.Source, Line: o.Line, Notes: o.Notes, Hidden: o.HiddenValues, PatchedAt: o.PatchedAt}
}

func ObjectsOf(raws []RawObject) []model.Object {
	out := make([]model.Object, len(raws))
	for i, r := range raws {
		out[i] = r.Object()
	}
	return out
}

// MaxObjects bounds what one kustomization may expand to before it is
// built: a few small files referencing each other twice per level would
// make kustomize produce 2^levels objects.
const MaxObjects = 100_000

// ChartCluster is what a chart's render reads of the cluster, as the
// deployer's Helm does (HelmClusterLive: .Capabilities from discovery,
// lookup of live objects). It only reads.
type ChartCluster interface {
	// ServerVersion is the API server's version; nil (and no error) when
	// no cluster answers after all (a render that goes on without one):
	// the chart renders as with no cluster.
	ServerVersion(ctx context.Context) (*version.Info, error)
	// APIVersions are the group versions the server serves and each
	// group/version/Kind, as Helm's discovery lists them ("v1",
	// "apps/v1", "apps/v1/Deployment").
	APIVersions(ctx context.Context) ([]string, error)
	// Lookup is Helm's lookup: the object (name given) or a List of the
	// kind's objects in namespace (all namespaces for "", or a
	// cluster-scoped kind), and found false when there is none.
	Lookup(ctx context.Context, apiVersion, kind, namespace, name string) (obj map[string]any, found bool, err error)
}

// ValueReader reads the data of a ConfigMap or a Secret a controller takes
// values from. With stand-ins, a Secret read from the cluster or encrypted
// with SOPS answers each key with its placeholder and the render never
// sees a value (model.StandIns); without, a Secret's values are returned
// as they are, for the render to substitute. The caller hides them from
// every output (model's redaction), and they are never printed.
type ValueReader interface {
	// Values is the object's data (a Secret's decoded), and whether it
	// exists; where tells where it was read (a file, or "cluster").
	Values(ctx context.Context, kind, namespace, name string, standIns *model.StandIns) (data map[string]string, where string, found bool, err error)
}
