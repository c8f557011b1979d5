package kustomize

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"helm.sh/helm/v3/pkg/chartutil"
	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/merge2"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// helmChartsFile is the resource file, beside a kustomization, that its
// helmCharts become in this render's view of the files: it is never
// written, and a file of that name on disk is hidden by it.
const helmChartsFile = "helmcharts.rendered.yaml"

// ChartInflater renders kustomize's helmCharts in process, as `helm
// template` prints them, with the engine every Helm form uses (renderChart,
// HelmClusterNone; or as a controller's kustomize runs it, Controller), so
// no helm binary runs and nothing is fetched but through the chart
// locator. The kustomization is then built as if its helmCharts were that
// resource file: kustomize's own transformers (namespace, labels,
// patches, ...) apply to the charts' objects as they would to the
// generator's.
type ChartInflater struct {
	In *source.Input
	// Controller is the controller whose kustomize inflates the charts
	// (Argo CD's, with --enable-helm); nil for plain kustomize.
	Controller *ControllerHelm
	mu         sync.Mutex
	// sources: for each generated file (resolved), the template each of
	// its objects came from, by kind/name as rendered.
	sources map[string]chartSources
}

// chartSources are the sources of a generated file's objects.
type chartSources struct {
	kustomization string            // as users see it
	byName        map[string]string // kind/name → template, as users see it
}

// ControllerHelm is how a controller's kustomize runs `helm template`
// for helmCharts. Argo CD's repo server gives kustomize the destination
// cluster's version and API versions (--helm-kube-version,
// --helm-api-versions, or the source's kustomize.kubeVersion and
// apiVersions), which replace each entry's own; it never leaves a chart
// to a helm binary here, whatever kustomize.allowHelm says.
type ControllerHelm struct {
	Cluster     helm.HelmCluster
	KubeVersion string
	APIVersions []string
}

// chartNotRendered is a kustomization whose helmCharts cannot render
// here (a chart that is not in the repository): the build is NotRendered.
type chartNotRendered struct{ source.NotRendered }

func (e *chartNotRendered) Error() string { return e.NotRendered.String() }

// NotRenderedOf is what a prepare's error says is not rendered (a chart of
// helmCharts that is not located), and whether it is that.
func NotRenderedOf(err error) (source.NotRendered, bool) {
	var nr *chartNotRendered
	if errors.As(err, &nr) {
		return nr.NotRendered, true
	}
	return source.NotRendered{}, false
}

// inflate renders the helmCharts of the kustomization k (read from file,
// in dir; both resolved) and makes the render's file system give the
// kustomization without them and with the generated resource file. It
// returns the kustomization as kustomize will now read it. A chart not
// under its chartHome is kustomize's to pull: with allowHelm the
// kustomization is left for kustomize's helm (k unchanged, ok false);
// without it, a *chartNotRendered.
func (ci *ChartInflater) inflate(ctx context.Context, dir, file string, k *types.Kustomization, allowHelm bool) (*types.Kustomization, bool, error) {
	in := ci.In
	display := in.Rel(file)
	if ci.Controller != nil {
		allowHelm = false
	}
	home := types.HelmDefaultHome
	if k.HelmGlobals != nil && k.HelmGlobals.ChartHome != "" {
		home = k.HelmGlobals.ChartHome
	}
	var docs bytes.Buffer
	srcs := map[string]string{}
	for i, h := range k.HelmCharts {
		field := fmt.Sprintf("%s: helmCharts[%d] (%s)", display, i, h.Name)
		// Helm's engine takes no context: a cancelled run stops between
		// charts, not within one.
		if err := ctx.Err(); err != nil {
			return nil, false, fmt.Errorf("%s: %w", field, err)
		}
		chartHome := home
		if !filepath.IsAbs(chartHome) {
			chartHome = filepath.Join(dir, chartHome)
		}
		if h.Version != "" && h.Repo != "" {
			chartHome = filepath.Join(chartHome, h.Name+"-"+h.Version)
		}
		chartDir := filepath.Join(chartHome, h.Name)
		var chart source.Chart
		if h.Name == "" || !in.Fs.Boundary.IsDir(chartDir) {
			// Its absence matters: vendoring the chart changes the build.
			in.ReadDir(in.Fs.RealOrSelf(chartHome))
			if allowHelm {
				return k, false, nil
			}
			in.ReadDir(in.Fs.RealOrSelf(chartDir))
			located, reason, err := ci.locate(ctx, h)
			if err != nil {
				return nil, false, fmt.Errorf("%s: %w", field, err)
			}
			if reason != "" {
				hint := " (or let kustomize run helm: kustomize.allowHelm and allowRemote, docs/trust-model.md)"
				if ci.Controller != nil {
					hint = ""
				}
				return nil, false, &chartNotRendered{source.NotRendered{Source: display, Reason: fmt.Sprintf("helmCharts[%d]: chart %s is not in %s, and %s: vendor it there%s", i, h.Name, in.Rel(chartHome), reason, hint)}}
			}
			chart = located
		}
		if h.ReleaseName == "" || h.NameTemplate != "" {
			return nil, false, &chartNotRendered{source.NotRendered{Source: display, Reason: fmt.Sprintf("helmCharts[%d]: chart %s has no releaseName: helm template would make up a name each time (--generate-name)", i, h.Name)}}
		}
		if !chart.Fetched() && chart.Dir == "" {
			real, err := in.Fs.Resolve(chartDir)
			if err != nil {
				return nil, false, fmt.Errorf("%s: %w", field, err)
			}
			chart.Dir = real
		}
		vals, err := ci.values(dir, chart, h)
		if err != nil {
			return nil, false, fmt.Errorf("%s: values: %w", field, err)
		}
		ns := h.Namespace
		if ns == "" {
			ns = "default"
		}
		r := helm.HelmRelease{
			Chart: chart, Name: h.ReleaseName, Namespace: ns, Values: vals,
			Cluster: helm.HelmClusterNone, Source: field, File: display,
			Template:    &helm.HelmTemplate{IncludeCRDs: h.IncludeCRDs, SkipHooks: h.SkipHooks, SkipTests: h.SkipTests},
			APIVersions: h.ApiVersions, KubeVersion: h.KubeVersion,
		}
		if c := ci.Controller; c != nil {
			r.Cluster, r.APIVersions, r.KubeVersion = c.Cluster, c.APIVersions, c.KubeVersion
		}
		out, err := helm.RenderChart(ctx, in, r)
		if err != nil {
			return nil, false, err
		}
		if len(out.NotRendered) > 0 {
			return nil, false, &chartNotRendered{out.NotRendered[0]}
		}
		for _, o := range out.Objects {
			data, err := yaml.Marshal(o.Object.Object)
			if err != nil {
				return nil, false, err
			}
			docs.WriteString("---\n")
			docs.Write(data)
			srcs[o.Object.GetKind()+"/"+o.Object.GetName()] = o.Source
		}
	}
	withFile := len(k.HelmCharts) > 0
	edited, err := ci.withoutHelmCharts(file, withFile)
	if err != nil {
		return nil, false, err
	}
	in.Fs.Generate(file, edited)
	nk := *k
	nk.HelmCharts, nk.HelmGlobals = nil, nil
	if withFile {
		gen := filepath.Join(dir, helmChartsFile)
		in.Fs.Generate(gen, docs.Bytes())
		ci.mu.Lock()
		if ci.sources == nil {
			ci.sources = map[string]chartSources{}
		}
		ci.sources[in.Rel(gen)] = chartSources{kustomization: display, byName: srcs}
		ci.mu.Unlock()
		nk.Resources = append(append([]string{}, k.Resources...), helmChartsFile)
	}
	return &nk, true, nil
}

// locate is where the render's chart locator finds a chart that is not
// vendored under chartHome, by its repo, name and version (kustomize's
// own layout of a pulled chart aside), or why it is not rendered.
func (ci *ChartInflater) locate(ctx context.Context, h types.HelmChart) (source.Chart, string, error) {
	if h.Name == "" || h.Repo == "" {
		return source.Chart{}, "no repo is given", nil
	}
	return ci.In.LocateChart(ctx, delivery.ChartFromRepository(h.Repo, h.Name, h.Version))
}

// withoutHelmCharts is the kustomization file with helmCharts and
// helmGlobals replaced by the generated resource file, the rest as
// written.
func (ci *ChartInflater) withoutHelmCharts(file string, withFile bool) ([]byte, error) {
	doc, err := kustomizationDoc(ci.In.Fs, file)
	if err != nil {
		return nil, err
	}
	delete(doc, "helmCharts")
	delete(doc, "helmGlobals")
	if withFile {
		res, _ := doc["resources"].([]any)
		doc["resources"] = append(res, helmChartsFile)
	}
	return json.Marshal(doc)
}

// values are the values kustomize's generator hands `helm template -f`:
// valuesFile (the chart's own values.yaml by default), valuesInline
// merged with it as valuesMerge says (kyaml's merge, as kustomize does),
// then additionalValuesFiles layered on, as helm layers -f files.
func (ci *ChartInflater) values(dir string, chart source.Chart, h types.HelmChart) (map[string]any, error) {
	in := ci.In
	read := func(f string) ([]byte, error) {
		if source.IsRemote(f) {
			return nil, fmt.Errorf("%s is remote: it is never fetched", f)
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		return in.Fs.ReadFile(f)
	}
	var data []byte
	var err error
	switch {
	case h.ValuesFile != "":
		data, err = read(h.ValuesFile)
	case chart.Fetched():
		data, _ = chart.File(chartutil.ValuesfileName)
	default:
		if data, err = read(filepath.Join(chart.Dir, chartutil.ValuesfileName)); os.IsNotExist(err) {
			data, err = nil, nil
		}
	}
	if err != nil {
		return nil, err
	}
	var vals map[string]any
	switch {
	case len(h.ValuesInline) == 0:
		vals, err = chartutil.ReadValues(data)
	case h.ValuesMerge == "replace":
		vals = h.ValuesInline
	default:
		vals, err = mergeInline(data, h.ValuesInline, h.ValuesMerge)
	}
	if err != nil {
		return nil, err
	}
	for _, f := range h.AdditionalValuesFiles {
		data, err := read(f)
		if err != nil {
			return nil, err
		}
		v, err := chartutil.ReadValues(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		vals = helm.MergeValues(vals, v)
	}
	return vals, nil
}

// mergeInline is kustomize's replaceValuesInline: "override" (the
// default) puts the inline values over the file's, "merge" the file's
// over the inline ones.
func mergeInline(file []byte, inline map[string]any, how string) (map[string]any, error) {
	fromFile, err := kyaml.Parse(string(file))
	if err != nil {
		if strings.TrimSpace(string(file)) != "" {
			return nil, err
		}
		fromFile = kyaml.NewMapRNode(nil)
	}
	fromInline, err := kyaml.FromMap(inline)
	if err != nil {
		return nil, err
	}
	var out *kyaml.RNode
	switch how {
	case "", "override":
		out, err = merge2.Merge(fromInline, fromFile.Copy(), kyaml.MergeOptions{})
	case "merge":
		out, err = merge2.Merge(fromFile, fromInline.Copy(), kyaml.MergeOptions{})
	default:
		return nil, fmt.Errorf("valuesMerge must be one of merge, override, replace, not %q", how)
	}
	if err != nil {
		return nil, err
	}
	return out.Map()
}

// sourceOf is the chart template an object read from a generated file
// (file, as users see it) came from, or the kustomization that asked for
// the chart; ok false when file is not a generated one.
func (ci *ChartInflater) sourceOf(file, kind, name string) (string, bool) {
	if ci == nil {
		return "", false
	}
	ci.mu.Lock()
	defer ci.mu.Unlock()
	srcs, ok := ci.sources[file]
	if !ok {
		return "", false
	}
	if s, ok := srcs.byName[kind+"/"+name]; ok {
		return s, true
	}
	// Renamed by kustomize (namePrefix, nameSuffix): the longest name
	// the object's contains.
	best, bestLen := srcs.kustomization, 0
	for k, s := range srcs.byName {
		k8, n, _ := strings.Cut(k, "/")
		if k8 == kind && strings.Contains(name, n) && len(n) > bestLen {
			best, bestLen = s, len(n)
		}
	}
	return best, true
}
