package render

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
)

// helmSource renders the config's helm target (model.ControllerHelm): the
// path is the chart's directory, the Deployer's object the target's helm
// settings (config.HelmTarget), and the render is `helm upgrade`'s.
type helmSource struct {
	in *Input
}

func helmClaims(_ Path, d *model.Deployer) bool {
	return d != nil && d.Controller == model.ControllerHelm
}

func (s *helmSource) Prepare(_ context.Context, p Path) (Build, error) {
	in := s.in
	d := in.deployer
	var h config.HelmTarget
	if err := decodeDeployer(d.Object, &h); err != nil {
		return nil, fmt.Errorf("%s: helm target: %w", d.File, err)
	}
	if config.IsRemoteChart(h.Chart) {
		return notRenderedBuild{{Source: d.File, Reason: fmt.Sprintf("chart %s is remote: charts are never fetched", h.Chart)}}, nil
	}
	if !p.Dir || !s.in.fs.isChartDir(p.Real) {
		return nil, fmt.Errorf("%s: %w", p.Given, errNotChart)
	}
	vals, nr, err := s.values(h.Values)
	if err != nil || nr != nil {
		return nr, err
	}
	ns := h.Namespace
	if ns == "" {
		ns = in.namespace
	}
	return &chartBuild{in: in, r: HelmRelease{
		Chart: p.Real, Name: h.Release, Namespace: ns, Values: vals,
		Cluster: HelmClusterLive, Source: d.File,
	}}, nil
}

// values reads the values files (relative to the repository's top) and
// layers them as `helm upgrade -f a -f b` does: maps merged key by key,
// the later file's value winning.
func (s *helmSource) values(files []string) (map[string]any, notRenderedBuild, error) {
	in := s.in
	vals := map[string]any{}
	for _, f := range files {
		if config.IsRemoteChart(f) {
			return nil, notRenderedBuild{{Source: in.deployer.File, Reason: fmt.Sprintf("values file %s is remote: it is never fetched", f)}}, nil
		}
		data, err := in.fs.ReadFile(in.repositoryPath(f))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: helm values %s: %w", in.deployer.File, f, err)
		}
		v, err := chartutil.ReadValues(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", filepath.ToSlash(f), err)
		}
		vals = mergeValues(vals, v)
	}
	return vals, nil, nil
}

// mergeValues is Helm's values.mergeMaps: b over a, maps merged.
func mergeValues(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if v, ok := v.(map[string]any); ok {
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = mergeValues(bv, v)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// decodeDeployer reads a controller's object into its Go form.
func decodeDeployer(obj map[string]any, into any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

// chartBuild is a release ready to render.
type chartBuild struct {
	in *Input
	r  HelmRelease
}

func (b *chartBuild) Size() int { return 0 }

func (b *chartBuild) Run(ctx context.Context) (Output, error) {
	return renderChart(ctx, b.in, b.r)
}
