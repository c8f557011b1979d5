package check

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
)

// chartSourceWait bounds the one read of the chart's source object: a
// note, which must not hold the check.
const chartSourceWait = releaseWait

// clusterChartAsync reads, in g, the chart the cluster's Flux source
// object holds for the target's HelmRelease (deployer.ReadChartArtifact):
// what the cluster runs. Nil for a target of another deployer, or when
// the object cannot be read: that is no note, and no failure.
func clusterChartAsync(ctx context.Context, g *errgroup.Group, client *kube.Client, d *delivery.Deployer) <-chan *deployer.ChartArtifact {
	out := make(chan *deployer.ChartArtifact, 1)
	ref, ok := deployer.ChartSourceOf(d)
	if !ok {
		out <- nil
		return out
	}
	g.Go(func() error {
		ctx, cancel := context.WithTimeout(ctx, chartSourceWait)
		defer cancel()
		out <- deployer.ReadChartArtifact(ctx, client, ref)
		return nil
	})
	return out
}
