package helm

import (
	"bytes"
	"fmt"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/ignore"
	"helm.sh/helm/v3/pkg/releaseutil"
	"helm.sh/helm/v3/pkg/strvals"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Helm3 is the Helm 3 SDK of go.mod: the only code of the module that
// imports Helm's packages (internal/architecture_test.go).
type Helm3 struct{}

var _ Engine = Helm3{}

// The helm binary's defaults, which `helm template` renders with: its
// build sets the Kubernetes version to its client-go's (Helm's Makefile),
// where the SDK's own default is v1.20.0, too old for many charts'
// kubeVersion. They follow the SDK version in go.mod.
var (
	helm3KubeVersion = chartutil.KubeVersion{Version: "v1.33.0", Major: "1", Minor: "33"}
	helm3Version     = "v3.18.6"
)

func (Helm3) Ignore(data []byte) (Ignorer, error) {
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

func (Helm3) LoadFiles(files []File) (Chart, error) {
	buffered := make([]*loader.BufferedFile, len(files))
	for i, f := range files {
		buffered[i] = &loader.BufferedFile{Name: f.Name, Data: f.Data}
	}
	c, err := loader.LoadFiles(buffered)
	if err != nil {
		return nil, err
	}
	return helm3Chart{c}, nil
}

func (Helm3) ArchiveFiles(data []byte, each func(name string, data []byte) error) error {
	files, err := loader.LoadArchiveFiles(bytes.NewReader(data))
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

// LoadArchive is loader.LoadArchive (its path checks, 5 MiB a file, 100
// MiB decompressed) with each file taken before the chart is made.
func (e Helm3) LoadArchive(data []byte, take func(name string, data []byte) error) (source.LoadedChart, error) {
	files, err := loader.LoadArchiveFiles(bytes.NewReader(data))
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
	return helm3Chart{c}, nil
}

func (Helm3) ReadValues(data []byte) (map[string]any, error) {
	v, err := chartutil.ReadValues(data)
	return v.AsMap(), err
}

func (Helm3) ParseSet(kind SetKind, arg string, values map[string]any, file func([]rune) (any, error)) error {
	switch kind {
	case SetString:
		return strvals.ParseIntoString(arg, values)
	case SetFile:
		return strvals.ParseIntoFile(arg, values, file)
	}
	return strvals.ParseInto(arg, values)
}

func (Helm3) InRange(constraint, version string) bool {
	return chartutil.IsCompatibleRange(constraint, version)
}

// Render is what Helm's install or upgrade renders: dependencies
// resolved, values coalesced (Helm's own schema validation left to
// req.Validate), templates run.
func (e Helm3) Render(ch Chart, req Request) (map[string]string, error) {
	c := ch.(helm3Chart).c
	vals := chartutil.Values(req.Values)
	if vals == nil {
		vals = chartutil.Values{}
	}
	if err := chartutil.ProcessDependenciesWithMerge(c, vals); err != nil {
		return nil, err
	}
	asked, err := req.Capabilities()
	if err != nil {
		return nil, err
	}
	caps, err := helm3Capabilities(asked)
	if err != nil {
		return nil, err
	}
	if c.Metadata.KubeVersion != "" && !chartutil.IsCompatibleRange(c.Metadata.KubeVersion, caps.KubeVersion.String()) {
		return nil, fmt.Errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", c.Metadata.KubeVersion, caps.KubeVersion.String())
	}
	o := req.Release
	opts := chartutil.ReleaseOptions{Name: o.Name, Namespace: o.Namespace, Revision: o.Revision, IsInstall: o.IsInstall, IsUpgrade: o.IsUpgrade}
	top, err := chartutil.ToRenderValuesWithSchemaValidation(c, vals, opts, caps, true)
	if err != nil {
		return nil, err
	}
	values, ok := top["Values"].(chartutil.Values)
	if !ok {
		return nil, fmt.Errorf("values coalesced as %T, not a map", top["Values"])
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

// helm3Capabilities are Helm's .Capabilities for what was asked.
func helm3Capabilities(asked Capabilities) (*chartutil.Capabilities, error) {
	caps := chartutil.DefaultCapabilities.Copy()
	caps.KubeVersion = helm3KubeVersion
	caps.HelmVersion.Version = helm3Version
	if v := asked.KubeVersion; v != nil {
		caps.KubeVersion = chartutil.KubeVersion{Version: v.Version, Major: v.Major, Minor: v.Minor}
	}
	if asked.BuiltIn {
		if len(asked.APIVersions) > 0 {
			caps.APIVersions = append(append(chartutil.VersionSet{}, caps.APIVersions...), asked.APIVersions...)
		}
	} else {
		caps.APIVersions = chartutil.VersionSet(asked.APIVersions)
	}
	if asked.KubeVersionFlag != "" {
		kv, err := chartutil.ParseKubeVersion(asked.KubeVersionFlag)
		if err != nil {
			return nil, fmt.Errorf("kubeVersion %q: %w", asked.KubeVersionFlag, err)
		}
		caps.KubeVersion = *kv
	}
	return caps, nil
}

func (Helm3) Sort(files map[string]string) ([]Hook, []Manifest, error) {
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, nil, err
	}
	hs := make([]Hook, len(hooks))
	for i, h := range hooks {
		events := make([]string, len(h.Events))
		for j, e := range h.Events {
			events[j] = string(e)
		}
		hs[i] = Hook{Path: h.Path, Kind: h.Kind, Name: h.Name, Manifest: h.Manifest, Events: events}
	}
	ms := make([]Manifest, len(manifests))
	for i, m := range manifests {
		ms[i] = Manifest{Name: m.Name, Content: m.Content}
	}
	return hs, ms, nil
}

// helm3Chart is a Helm 3 chart.
type helm3Chart struct{ c *chart.Chart }

func (h helm3Chart) Name() string { return h.c.Name() }

func (h helm3Chart) Version() string {
	if h.c.Metadata == nil {
		return ""
	}
	return h.c.Metadata.Version
}

func (h helm3Chart) KubeVersion() string {
	if h.c.Metadata == nil {
		return ""
	}
	return h.c.Metadata.KubeVersion
}

func (h helm3Chart) Dependencies() []Dependency {
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

func (h helm3Chart) Subcharts() []Chart {
	subs := make([]Chart, len(h.c.Dependencies()))
	for i, sc := range h.c.Dependencies() {
		subs[i] = helm3Chart{sc}
	}
	return subs
}

func (h helm3Chart) AddSubchart(sub Chart) { h.c.AddDependency(sub.(helm3Chart).c) }

func (h helm3Chart) SetValues(values map[string]any) { h.c.Values = values }

func (h helm3Chart) Schema() []byte { return h.c.Schema }

func (h helm3Chart) CRDs() []File {
	var files []File
	for _, crd := range h.c.CRDObjects() {
		files = append(files, File{Name: crd.Filename, Data: crd.File.Data})
	}
	return files
}

// File is a file of the chart by its name from the chart's top: every
// file loaded is in Raw, then its templates and other files.
func (h helm3Chart) File(name string) ([]byte, bool) {
	for _, files := range [][]*chart.File{h.c.Raw, h.c.Files, h.c.Templates} {
		for _, f := range files {
			if f != nil && f.Name == name {
				return f.Data, true
			}
		}
	}
	return nil, false
}
