package check

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// appliedRelease is what helm-controller applied of a target's Flux
// HelmRelease, from its status in the cluster, for the snapshot: nil for
// a target of anything else. A HelmRelease the cluster does not have, or
// that released nothing yet, records none, with a warning saying the
// snapshot holds the branch's render alone.
func appliedRelease(ctx context.Context, client *kube.Client, d *model.Deployer) (*snapshot.Release, error) {
	if d == nil || d.Controller != model.ControllerFlux {
		return nil, nil
	}
	if kind, _ := d.Object["kind"].(string); kind != "HelmRelease" {
		return nil, nil
	}
	meta, _ := d.Object["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	if ns == "" {
		ns = "flux-system" // as discovery places it
	}
	r, err := snapshot.ReadRelease(ctx, client, ns, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; the snapshot records the branch's render alone", d.File, err)
	}
	if r == nil {
		return nil, fmt.Errorf("%s: HelmRelease %s/%s has released nothing in the cluster yet: the snapshot records the branch's render alone, not the chart version and values helm-controller applied", d.File, ns, name)
	}
	return r, nil
}
