package check

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// releaseWait bounds the read of the API server's release: one small
// request, and only notes depend on it, so a server slow to answer it
// costs no more than this.
const releaseWait = 10 * time.Second

// releaseAsync reads the API server's release beside the dry-runs; the
// zero release when it cannot be read (no removal note is then said of a
// served version), never an error of the check.
func releaseAsync(ctx context.Context, g *errgroup.Group, client *kube.Client) <-chan kube.Release {
	out := make(chan kube.Release, 1)
	g.Go(func() error {
		ctx, cancel := context.WithTimeout(ctx, releaseWait)
		defer cancel()
		rel, _ := client.Release(ctx)
		out <- rel
		return nil
	})
	return out
}

// appliedRelease is what helm-controller applied of a target's Flux
// HelmRelease, from its status in the cluster (deployer.ReadRelease), for
// the snapshot: nil for a target of anything else. A HelmRelease the
// cluster does not have, or that released nothing yet, records none, with
// a warning saying the snapshot holds the branch's render alone.
func appliedRelease(ctx context.Context, client *kube.Client, d *delivery.Deployer) (*snapshot.Release, error) {
	ns, name, ok := deployer.HelmReleaseOf(d)
	if !ok {
		return nil, nil
	}
	r, err := deployer.ReadRelease(ctx, client, ns, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; the snapshot records the branch's render alone", d.File, err)
	}
	if r == nil {
		return nil, fmt.Errorf("%s: HelmRelease %s/%s has released nothing in the cluster yet: the snapshot records the branch's render alone, not the chart version and values helm-controller applied", d.File, ns, name)
	}
	return r, nil
}
