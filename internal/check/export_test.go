package check

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
)

// ClusterChartNote is the note a check makes of the chart the cluster's
// Flux source object holds, read through client: for the tests against
// the API server.
func ClusterChartNote(ctx context.Context, client *kube.Client, d *model.Deployer, pins []model.ChartPin, names string) string {
	var g errgroup.Group
	read := clusterChartAsync(ctx, &g, client, d)
	_ = g.Wait()
	return (<-read).note(pins, names)
}

// AppliedRelease is what a snapshot records of a target's Flux
// HelmRelease, and its warning.
var AppliedRelease = appliedRelease
