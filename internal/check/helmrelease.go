package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

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

// namedCharts are the charts the deploy is judged against: the base's
// (a pull request's check), else the head's; names says which, as notes
// word it. The first is a HelmRelease target's own chart.
func (in analysis) namedCharts() (pins []delivery.ChartPin, names string) {
	if in.Base != nil {
		return in.Base.Charts, "the base names"
	}
	return in.Charts, "the head names"
}

// appliedReleaseNote says when the chart helm-controller applied last, as
// the snapshot recorded it from the HelmRelease's status after the
// deploy, is not the one the base names (namedCharts): the upgrade to it
// failed, or it is not deployed yet, and what the cluster runs is the
// older release. "" when they agree, or either is unknown.
func (in analysis) appliedReleaseNote() string {
	pins, names := in.namedCharts()
	if in.Snapshot == nil || in.Snapshot.Index.Release == nil || len(pins) == 0 {
		return ""
	}
	r, p := in.Snapshot.Index.Release, pins[0]
	if r.ChartVersion == "" || p.Version == "" || r.ChartVersion == p.Version && (r.ChartName == "" || r.ChartName == p.Name) {
		return ""
	}
	why := "the last upgrade may have failed, or it is not deployed yet"
	if r.LastAttemptedRevision == p.Version || r.Status == "failed" {
		why = "helm-controller's last attempt failed"
	}
	return fmt.Sprintf("helm-controller last applied %s (HelmRelease %s, as the snapshot recorded it), %s %s %s: %s; the cluster runs the release applied last",
		strings.TrimSpace(r.ChartName+" "+r.ChartVersion), r.HelmRelease, names, p.Name, p.Version, why)
}
