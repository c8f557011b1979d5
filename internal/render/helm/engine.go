package helm

import (
	"io/fs"

	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Engine is the Helm SDK a render loads, values and renders charts with:
// everything of Helm's own code a release goes through, so that a second
// Helm is one more implementation (docs/architecture.md, "Add Helm 4 as a
// renderer"). What a deployer does around the engine (which values, which
// capabilities, hooks, crds/, Helm's metadata) stays in this package and
// is the same for every engine. Helm3 is the one in use.
type Engine interface {
	// Ignore is a chart's .helmignore rules with the engine's defaults;
	// data nil: the chart has none.
	Ignore(data []byte) (Ignorer, error)
	// LoadFiles makes a chart of its files, named from its top
	// ("Chart.yaml", "charts/db-1.0.0.tgz").
	LoadFiles(files []File) (Chart, error)
	// ArchiveFiles hands each file of a .tgz to each, as LoadArchive
	// reads them (a vendored subchart's archive, counted).
	ArchiveFiles(data []byte, each func(name string, data []byte) error) error
	// LoadArchive makes a chart of a .tgz: each file it holds is handed to
	// take (the chart's bounds) before the chart is made.
	LoadArchive(data []byte, take func(name string, data []byte) error) (source.LoadedChart, error)
	// ReadValues reads a values document (a values.yaml, --values).
	ReadValues(data []byte) (map[string]any, error)
	// ParseSet sets one --set, --set-string or --set-file argument
	// ("a.b=c") into values.
	ParseSet(kind SetKind, arg string, values map[string]any, file func([]rune) (any, error)) error
	// InRange says whether version is in the semantic version range
	// constraint, as Helm matches a dependency's or a chart's kubeVersion.
	InRange(constraint, version string) bool
	// Render coalesces the request's values with the chart's, for the
	// release and capabilities asked, and runs the templates: each
	// rendered file by its name ("web/templates/svc.yaml").
	Render(c Chart, req Request) (map[string]string, error)
	// Sort splits rendered files into hooks and manifests, in Helm's
	// install order.
	Sort(files map[string]string) ([]Hook, []Manifest, error)
}

// Chart is a chart as an engine loaded it: what it declares and holds.
type Chart interface {
	source.LoadedChart
	Name() string
	Version() string
	// KubeVersion is Chart.yaml's kubeVersion range; "" for none.
	KubeVersion() string
	// Dependencies are what Chart.yaml lists.
	Dependencies() []Dependency
	// Subcharts are the charts under charts/ and those added.
	Subcharts() []Chart
	// AddSubchart adds a dependency located elsewhere, as `helm
	// dependency build` vendors it.
	AddSubchart(sub Chart)
	// SetValues replaces its values.yaml.
	SetValues(values map[string]any)
	// Schema is its values.schema.json; nil for none.
	Schema() []byte
	// CRDs are the files of its crds/ (and its subcharts').
	CRDs() []File
}

// ValuesFile is a chart's default values, by its name from the chart's
// top.
const ValuesFile = "values.yaml"

// File is a file of a chart, by its name there.
type File struct {
	Name string
	Data []byte
}

// Dependency is a chart Chart.yaml lists.
type Dependency struct {
	Name, Version, Repository string
}

// Ignorer is a chart's .helmignore.
type Ignorer interface {
	Ignore(rel string, fi fs.FileInfo) bool
}

// SetKind is which of Helm's --set flags an argument is.
type SetKind int

const (
	Set SetKind = iota
	SetString
	SetFile
)

// Request is one render of a chart.
type Request struct {
	Values  map[string]any
	Release ReleaseOptions
	// Capabilities are asked once the chart's dependencies are resolved
	// (conditions, tags, import-values), as Helm asks them.
	Capabilities func() (Capabilities, error)
	// Validate checks the values coalesced, before any template runs.
	Validate func(values map[string]any) error
}

// ReleaseOptions are .Release.
type ReleaseOptions struct {
	Name, Namespace      string
	Revision             int
	IsInstall, IsUpgrade bool
}

// Capabilities are .Capabilities and what lookup reads.
type Capabilities struct {
	// KubeVersion is the cluster's ("v1.33.2"); nil: the engine's
	// default, that of the helm binary it is.
	KubeVersion *KubeVersion
	// KubeVersionFlag, when set, replaces KubeVersion as
	// --kube-version does, parsed by the engine.
	KubeVersionFlag string
	// APIVersions are the cluster's; BuiltIn: the engine's own list first.
	APIVersions []string
	BuiltIn     bool
	// Lookup answers lookup; nil: it finds nothing.
	Lookup Lookup
}

// KubeVersion is a cluster's version as discovery gives it.
type KubeVersion struct {
	Version, Major, Minor string
}

// Lookup is what Helm's lookup asks for: a dynamic client per kind.
type Lookup interface {
	GetClientFor(apiVersion, kind string) (dynamic.NamespaceableResourceInterface, bool, error)
}

// Hook is a rendered hook.
type Hook struct {
	Path, Kind, Name, Manifest string
	Events                     []string
}

// Manifest is a rendered manifest, not a hook.
type Manifest struct {
	Name, Content string
}

// NewEngine is the engine a render uses unless told (render.Options).
func NewEngine() Engine { return Helm3{} }

// Or is e, or NewEngine's when nil.
func Or(e Engine) Engine {
	if e == nil {
		return NewEngine()
	}
	return e
}

// EngineOf is the engine in's render uses.
func EngineOf(in *source.Input) Engine {
	if e, ok := in.Helm.(Engine); ok {
		return e
	}
	return NewEngine()
}

// EngineFor is the engine that renders as a deployer's Helm release does
// (delivery.Helm3, Helm41, Helm42, Helm424, Helm4Newest; docs/helm.md).
func EngineFor(h delivery.HelmRender) Engine {
	switch h.Version {
	case delivery.Helm3:
		return Helm3{}
	case delivery.Helm41, delivery.Helm42, delivery.Helm424:
		return Helm4{Line: h.Version, PostRenders: h.PostRenders}
	}
	return Helm4{PostRenders: h.PostRenders}
}
