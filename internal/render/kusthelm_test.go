package render

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// TestKustomizeHelmChartsTakeTheCallersContext: the charts of a
// kustomization's helmCharts are rendered under the caller's context, so
// a cancelled run stops at the chart, naming it, rather than rendering on.
func TestKustomizeHelmChartsTakeTheCallersContext(t *testing.T) {
	inRepoRoot(t)
	const overlay = "internal/render/testdata/helm/kustomize/overlay"
	prepare := func(ctx context.Context) error {
		in := chartInput(t, source.NewReads(), nil, overlay)
		k := kustomize.NewBuilder(in.Fs, in.Cfg.Kustomize)
		k.Charts = &kustomize.ChartInflater{In: in}
		_, err := k.PrepareDir(ctx, realPath(t, overlay))
		return err
	}
	if err := prepare(context.Background()); err != nil {
		t.Fatalf("the overlay does not prepare: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := prepare(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled prepare: %v, want context.Canceled", err)
	}
	if !strings.Contains(err.Error(), "helmCharts[0]") {
		t.Errorf("the error does not name the chart it stopped at: %v", err)
	}
}
