package helm

import (
	"bytes"
	"fmt"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	helmarchive "helm.sh/helm/v4/pkg/chart/loader/archive"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/engine"
	"helm.sh/helm/v4/pkg/ignore"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
	"helm.sh/helm/v4/pkg/strvals"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Helm4 is Helm 4's SDK of go.mod (its chart loader, values code and
// template engine; its install action is not built, see go.mod), rendering
// as the Helm 4 release Line does where releases differ (helm4line.go).
// With helm3.go, the only code of the module that imports Helm's packages
// (internal/architecture_test.go).
type Helm4 struct {
	// Line is the Helm 4 release rendered: Helm41, Helm42, Helm424, or ""
	// for the newest (Helm4Newest, the SDK's own).
	Line string
	// PostRenders: the deployer post-renders every document
	// (delivery.HelmRender.PostRenders), which the line may parse apart.
	PostRenders bool
}

var _ Engine = Helm4{}

func (Helm4) Ignore(data []byte) (Ignorer, error) {
	rules := ignore.Empty()
	if data != nil {
		var err error
		if rules, err = ignore.Parse(bytes.NewReader(data)); err != nil {
			return nil, err
		}
	}
	rules.AddDefaults()
	return rules, nil
}

func (Helm4) LoadFiles(files []File) (Chart, error) {
	buffered := make([]*helmarchive.BufferedFile, len(files))
	for i, f := range files {
		buffered[i] = &helmarchive.BufferedFile{Name: f.Name, Data: f.Data}
	}
	c, err := loader.LoadFiles(buffered)
	if err != nil {
		return nil, err
	}
	return helm4Chart{c}, nil
}

func (Helm4) ArchiveFiles(data []byte, each func(name string, data []byte) error) error {
	files, err := helmarchive.LoadArchiveFiles(bytes.NewReader(data))
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := each(f.Name, f.Data); err != nil {
			return err
		}
	}
	return nil
}

// LoadArchive is Helm 4's loader.LoadArchive (its path checks and size
// limits) with each file taken before the chart is made.
func (Helm4) LoadArchive(data []byte, take func(name string, data []byte) error) (source.LoadedChart, error) {
	files, err := helmarchive.LoadArchiveFiles(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := take(f.Name, f.Data); err != nil {
			return nil, err
		}
	}
	c, err := loader.LoadFiles(files)
	if err != nil {
		return nil, err
	}
	return helm4Chart{c}, nil
}

func (Helm4) ReadValues(data []byte) (map[string]any, error) {
	v, err := common.ReadValues(data)
	return v.AsMap(), err
}

func (Helm4) ParseSet(kind SetKind, arg string, values map[string]any, file func([]rune) (any, error)) error {
	switch kind {
	case SetString:
		return strvals.ParseIntoString(arg, values)
	case SetFile:
		return strvals.ParseIntoFile(arg, values, file)
	}
	return strvals.ParseInto(arg, values)
}

func (Helm4) InRange(constraint, version string) bool {
	return chartutil.IsCompatibleRange(constraint, version)
}

// Render is what Helm 4's install or upgrade renders (action.Install:
// dependencies processed, values coalesced, Helm's own schema validation
// left to req.Validate, templates run), with Line's values.
func (e Helm4) Render(ch Chart, req Request) (map[string]string, error) {
	c := ch.(helm4Chart).c
	line := lineOf(e.Line)
	vals := common.Values(req.Values)
	if vals == nil {
		vals = common.Values{}
	}
	if line.keepsChartNulls {
		markChartNulls(c)
	}
	if err := chartutil.ProcessDependencies(c, vals); err != nil {
		return nil, err
	}
	asked, err := req.Capabilities()
	if err != nil {
		return nil, err
	}
	caps, err := helm4Capabilities(line, asked)
	if err != nil {
		return nil, err
	}
	if c.Metadata.KubeVersion != "" && !chartutil.IsCompatibleRange(c.Metadata.KubeVersion, caps.KubeVersion.String()) {
		return nil, fmt.Errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", c.Metadata.KubeVersion, caps.KubeVersion.Version)
	}
	o := req.Release
	opts := common.ReleaseOptions{Name: o.Name, Namespace: o.Namespace, Revision: o.Revision, IsInstall: o.IsInstall, IsUpgrade: o.IsUpgrade}
	top, err := util.ToRenderValuesWithSchemaValidation(c, vals, opts, caps, true)
	if err != nil {
		return nil, err
	}
	values, ok := top["Values"].(common.Values)
	if !ok {
		return nil, fmt.Errorf("values coalesced as %T, not a map", top["Values"])
	}
	if line.keepsChartNulls {
		unmarkNulls(values)
	}
	if req.Validate != nil {
		if err := req.Validate(values); err != nil {
			return nil, err
		}
	}
	if asked.Lookup != nil {
		return engine.RenderWithClientProvider(c, top, asked.Lookup)
	}
	return engine.Render(c, top)
}

// helm4Capabilities are Helm 4's .Capabilities for what was asked: the
// cluster's version where it is known, else the line's helm binary's
// (never the SDK's, which is that of the k8s.io modules it was built
// with), and the binary's own API versions where they are built in.
func helm4Capabilities(line helm4Line, asked Capabilities) (*common.Capabilities, error) {
	caps := common.DefaultCapabilities.Copy()
	caps.HelmVersion.Version = line.version
	caps.KubeVersion = common.KubeVersion{Version: line.kubeVersion.Version, Major: line.kubeVersion.Major, Minor: line.kubeVersion.Minor}
	if v := asked.KubeVersion; v != nil {
		caps.KubeVersion = common.KubeVersion{Version: v.Version, Major: v.Major, Minor: v.Minor}
	}
	if asked.BuiltIn {
		caps.APIVersions = append(append(common.VersionSet{}, line.apiVersions...), asked.APIVersions...)
	} else {
		caps.APIVersions = common.VersionSet(asked.APIVersions)
	}
	if asked.KubeVersionFlag != "" {
		kv, err := common.ParseKubeVersion(asked.KubeVersionFlag)
		if err != nil {
			return nil, fmt.Errorf("kubeVersion %q: %w", asked.KubeVersionFlag, err)
		}
		caps.KubeVersion = *kv
	}
	return caps, nil
}

// Sort is Helm 4's releaseutil.SortManifests, each document as Line
// splits it, post-rendered when the deployer post-renders (lineDocuments,
// postRendered): hooks and manifests alike, as Helm 4 hands both to the
// post-renderer (helm-controller's default strategy, "combined").
func (e Helm4) Sort(files map[string]string) ([]Hook, []Manifest, error) {
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, nil, err
	}
	line := lineOf(e.Line)
	sdk := func(content string) []string {
		split := releaseutil.SplitManifests(content)
		docs := make([]string, 0, len(split))
		for i := range len(split) {
			docs = append(docs, split[fmt.Sprintf("manifest-%d", i)])
		}
		return docs
	}
	doc := func(path, content string) string { return content }
	switch {
	case e.PostRenders:
		doc = lineDocuments(files, func(file string) []string { return postRendered(line, sdk, file) }, sdk)
	case line.split != nil:
		doc = lineDocuments(files, line.split, sdk)
	}
	hs := make([]Hook, len(hooks))
	for i, h := range hooks {
		events := make([]string, len(h.Events))
		for j, e := range h.Events {
			events[j] = string(e)
		}
		hs[i] = Hook{Path: h.Path, Kind: h.Kind, Name: h.Name, Manifest: doc(h.Path, h.Manifest), Events: events}
	}
	ms := make([]Manifest, len(manifests))
	for i, m := range manifests {
		ms[i] = Manifest{Name: m.Name, Content: doc(m.Name, m.Content)}
	}
	return hs, ms, nil
}

// helm4Chart is a Helm 4 chart (Chart.yaml apiVersion v1 or v2).
type helm4Chart struct{ c *chart.Chart }

func (h helm4Chart) Name() string { return h.c.Name() }

func (h helm4Chart) Version() string {
	if h.c.Metadata == nil {
		return ""
	}
	return h.c.Metadata.Version
}

func (h helm4Chart) KubeVersion() string {
	if h.c.Metadata == nil {
		return ""
	}
	return h.c.Metadata.KubeVersion
}

func (h helm4Chart) Dependencies() []Dependency {
	if h.c.Metadata == nil {
		return nil
	}
	deps := make([]Dependency, 0, len(h.c.Metadata.Dependencies))
	for _, d := range h.c.Metadata.Dependencies {
		if d != nil {
			deps = append(deps, Dependency{Name: d.Name, Version: d.Version, Repository: d.Repository})
		}
	}
	return deps
}

func (h helm4Chart) Subcharts() []Chart {
	subs := make([]Chart, len(h.c.Dependencies()))
	for i, sc := range h.c.Dependencies() {
		subs[i] = helm4Chart{sc}
	}
	return subs
}

func (h helm4Chart) AddSubchart(sub Chart) { h.c.AddDependency(sub.(helm4Chart).c) }

func (h helm4Chart) SetValues(values map[string]any) { h.c.Values = values }

func (h helm4Chart) Schema() []byte { return h.c.Schema }

func (h helm4Chart) CRDs() []File {
	var files []File
	for _, crd := range h.c.CRDObjects() {
		files = append(files, File{Name: crd.Filename, Data: crd.File.Data})
	}
	return files
}

// markChartNulls marks the nulls of c's own values and its subcharts'
// (keepNulls) for a line whose coalescing keeps them.
func markChartNulls(c *chart.Chart) {
	c.Values = keepNulls(c.Values)
	for _, sub := range c.Dependencies() {
		markChartNulls(sub)
	}
}

// File is a file of the chart by its name from the chart's top: every
// file loaded is in Raw, then its templates and other files.
func (h helm4Chart) File(name string) ([]byte, bool) {
	for _, files := range [][]*common.File{h.c.Raw, h.c.Files, h.c.Templates} {
		for _, f := range files {
			if f != nil && f.Name == name {
				return f.Data, true
			}
		}
	}
	return nil, false
}
