package targets

import (
	"context"
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/values"
)

// parentRenderer is the render discovery asks of an app-of-apps whose
// path is a kustomization or a chart: the parent's paths rendered as its
// controller renders them, with the repository config's kustomize
// settings, the run's chart locator and no cluster (a chart's
// .Capabilities are Helm's defaults), and the repository's own ConfigMaps
// and Secrets under the parent's discover directory for what a Flux
// Kustomization substitutes: a value only the cluster has, or one
// encrypted, leaves its variable in place, which discovery reads.
// It lives beside discovery's caller, not in check, so that the pipeline
// of one target knows nothing of discovery.
func parentRenderer(cfg *config.Config, charts delivery.ChartLocator) gitops.ParentRenderer {
	return func(ctx context.Context, root string, parent gitops.Target) (gitops.Rendered, error) {
		r, err := render.ForDiscovery(ctx, cfg, charts, values.New([]string{filepath.Join(root, filepath.FromSlash(parent.Dir))}, nil), root, parent.Paths, parent.Deployer)
		if err != nil {
			return gitops.Rendered{}, err
		}
		out := gitops.RenderedOf(r.Objects, r.Files, r.NotRendered)
		out.Encrypted = r.Encrypted
		return out, nil
	}
}
