package judge

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// NamedCharts are the charts the deploy is judged against: the base's
// (a pull request's check), else the head's; names says which, as notes
// word it. The first is a HelmRelease target's own chart.
func (in Input) NamedCharts() (pins []delivery.ChartPin, names string) {
	if in.Base != nil {
		return in.Base.Charts, "the base names"
	}
	return in.Charts, "the head names"
}

// AppliedReleaseNote says when the chart helm-controller applied last, as
// the snapshot recorded it from the HelmRelease's status after the
// deploy, is not the one the base names (NamedCharts): the upgrade to it
// failed, or it is not deployed yet, and what the cluster runs is the
// older release. "" when they agree, or either is unknown.
func (in Input) AppliedReleaseNote() string {
	pins, names := in.NamedCharts()
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
