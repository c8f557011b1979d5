package judge

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// A HelmRelease whose last applied chart, as the snapshot recorded it from
// the status, is not the base's gets a note; one that agrees, or whose
// snapshot recorded no release, does not.
func TestAppliedReleaseNote(t *testing.T) {
	podinfo := func(v string) []delivery.ChartPin { return []delivery.ChartPin{{Name: "podinfo", Version: v}} }
	applied := func(r snapshot.Release) *snapshot.Snapshot {
		r.HelmRelease = "apps/podinfo"
		return &snapshot.Snapshot{Index: snapshot.Index{Release: &r}}
	}
	in := func(snap *snapshot.Snapshot, base *render.Base, charts []delivery.ChartPin) Input {
		return Input{Record: Record{Snapshot: snap}, PullRequest: PullRequest{Base: base, Charts: charts}}
	}
	for _, c := range []struct {
		name string
		in   Input
		want string
	}{
		{"base names a newer version", in(applied(snapshot.Release{ChartName: "podinfo", ChartVersion: "6.7.0", Status: "deployed"}),
			&render.Base{Charts: podinfo("6.7.1")}, podinfo("6.8.0")),
			"helm-controller last applied podinfo 6.7.0 (HelmRelease apps/podinfo, as the snapshot recorded it), the base names podinfo 6.7.1: the last upgrade may have failed, or it is not deployed yet; the cluster runs the release applied last"},
		{"the last attempt failed", in(applied(snapshot.Release{ChartName: "podinfo", ChartVersion: "6.7.0", LastAttemptedRevision: "6.7.1"}),
			&render.Base{Charts: podinfo("6.7.1")}, nil),
			"helm-controller last applied podinfo 6.7.0 (HelmRelease apps/podinfo, as the snapshot recorded it), the base names podinfo 6.7.1: helm-controller's last attempt failed; the cluster runs the release applied last"},
		{"no base: the head's", in(applied(snapshot.Release{ChartVersion: "6.7.0"}), nil, podinfo("6.8.0")),
			"helm-controller last applied 6.7.0 (HelmRelease apps/podinfo, as the snapshot recorded it), the head names podinfo 6.8.0: the last upgrade may have failed, or it is not deployed yet; the cluster runs the release applied last"},
		{"agrees", in(applied(snapshot.Release{ChartName: "podinfo", ChartVersion: "6.7.1"}), &render.Base{Charts: podinfo("6.7.1")}, nil), ""},
		{"no release recorded", in(&snapshot.Snapshot{}, &render.Base{Charts: podinfo("6.7.1")}, nil), ""},
		{"no snapshot", in(nil, &render.Base{Charts: podinfo("6.7.1")}, nil), ""},
		{"no chart", in(applied(snapshot.Release{ChartVersion: "6.7.0"}), nil, nil), ""},
	} {
		if got := c.in.AppliedReleaseNote(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
