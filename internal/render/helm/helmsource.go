package helm

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Source renders the config's helm target (delivery.ControllerHelm): the
// path is the chart's directory (for a chart fetched from a repository or
// a registry, the config's file, which names it), the Deployer's object
// the target's helm settings (config.HelmTarget), and the render is `helm
// upgrade`'s.
type Source struct {
	In *source.Input
}

func Claims(_ source.Path, d *delivery.Deployer) bool {
	return d != nil && d.Controller == delivery.ControllerHelm
}

func (s *Source) Prepare(ctx context.Context, p source.Path) (source.Build, error) {
	in := s.In
	d := in.Deployer
	var h config.HelmTarget
	if err := DecodeDeployer(d.Object, &h); err != nil {
		return nil, fmt.Errorf("%s: helm target: %w", d.File, err)
	}
	chart, reason, err := in.DeployerChart(ctx, p)
	if err != nil {
		return nil, err
	}
	if reason != "" {
		return source.NotRenderedBuild{{Source: d.File, Reason: reason}}, nil
	}
	// A fetched chart's path is the file that names it (the config): no
	// directory of the repository is the chart.
	if !chart.Fetched() && (!p.Dir || !s.In.Fs.IsChartDir(chart.Dir)) {
		return nil, fmt.Errorf("%s: %w", p.Given, errNotChart)
	}
	if chart.Fetched() {
		// Its reference and version are the config's: a change to them
		// changes the render.
		in.ReadRepositoryFile(d.File)
	}
	vals, nr, err := s.values(h.Values)
	if err != nil || nr != nil {
		return nr, err
	}
	ns := h.Namespace
	if ns == "" {
		ns = in.Namespace
	}
	return &ChartBuild{In: in, R: Release{
		Chart: chart, Name: h.Release, Namespace: ns, Values: vals,
		Cluster: ClusterLive, Source: d.File,
	}}, nil
}

// values reads the values files (relative to the repository's top) and
// layers them as `helm upgrade -f a -f b` does: maps merged key by key,
// the later file's value winning.
func (s *Source) values(files []string) (map[string]any, source.NotRenderedBuild, error) {
	in := s.In
	vals := map[string]any{}
	for _, f := range files {
		if config.IsURL(f) {
			return nil, source.NotRenderedBuild{{Source: in.Deployer.File, Reason: fmt.Sprintf("values file %s is remote: it is never fetched", f)}}, nil
		}
		data, err := in.Fs.ReadFile(in.RepositoryPath(f))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: helm values %s: %w", in.Deployer.File, f, err)
		}
		v, err := EngineOf(in).ReadValues(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", filepath.ToSlash(f), err)
		}
		vals = MergeValues(vals, v)
	}
	return vals, nil, nil
}

// MergeValues is Helm's values.mergeMaps: b over a, maps merged.
func MergeValues(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if v, ok := v.(map[string]any); ok {
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = MergeValues(bv, v)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// DecodeDeployer reads a controller's object into its Go form.
func DecodeDeployer(obj map[string]any, into any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

// ChartBuild is a release ready to render.
type ChartBuild struct {
	In *source.Input
	R  Release
}

func (b *ChartBuild) Size() int { return 0 }

func (b *ChartBuild) Run(ctx context.Context) (source.Output, error) {
	return RenderChart(ctx, b.In, b.R)
}
