package check

import (
	"context"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
)

// fluxSourceAPI is the API version of the Flux source objects a
// HelmRelease's chart comes from.
const fluxSourceAPI = "source.toolkit.fluxcd.io/v1"

// chartSourceWait bounds the one read of the chart's source object: a
// note, which must not hold the check.
const chartSourceWait = releaseWait

// chartSourceOf is the Flux object in the cluster whose artifact is the
// chart a HelmRelease releases: its chartRef's OCIRepository or HelmChart,
// else the HelmChart helm-controller makes for spec.chart, named
// <namespace>-<name> of the HelmRelease in its source's namespace. ok is
// false for any other deployer or chart.
func chartSourceOf(d *model.Deployer) (ref model.ObjectRef, ok bool) {
	if d == nil || d.Controller != model.ControllerFlux || len(d.Charts) == 0 || d.Charts[0].Source == nil {
		return ref, false
	}
	c := d.Charts[0]
	switch {
	case c.Kind == model.ChartInFluxSource:
		return *c.Source, c.Source.Kind == "OCIRepository" || c.Source.Kind == "HelmChart"
	case c.Source.Kind == "HelmRepository":
		meta, _ := d.Object["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		ns, _ := meta["namespace"].(string)
		if name == "" {
			return ref, false
		}
		if ns == "" {
			ns = "flux-system"
		}
		return model.ObjectRef{Kind: "HelmChart", Namespace: c.Source.Namespace, Name: ns + "-" + name}, true
	}
	return ref, false
}

// clusterChartAsync reads, in g, the chart the cluster's Flux source
// object holds for the target's HelmRelease (its .status.artifact): what
// the cluster runs. Nil for a target of another deployer, or when the
// object cannot be read (forbidden, not found, no such kind): that is no
// note, and no failure.
func clusterChartAsync(ctx context.Context, g *errgroup.Group, client *kube.Client, d *model.Deployer) <-chan *clusterChart {
	out := make(chan *clusterChart, 1)
	ref, ok := chartSourceOf(d)
	if !ok {
		out <- nil
		return out
	}
	g.Go(func() error {
		ctx, cancel := context.WithTimeout(ctx, chartSourceWait)
		defer cancel()
		obj, found, err := client.Lookup(ctx, fluxSourceAPI, ref.Kind, ref.Namespace, ref.Name)
		if err != nil || !found {
			out <- nil
			return nil
		}
		out <- artifactOf(ref, obj)
		return nil
	})
	return out
}

// clusterChart is the chart a Flux source object's artifact holds.
type clusterChart struct {
	source  model.ObjectRef
	version string
	digest  string
}

// artifactOf reads a source object's .status.artifact: a HelmChart's
// revision is the chart's version and its digest the archive's; an
// OCIRepository's revision is "<tag>@<manifest digest>" (or the digest
// alone). Nil when it has none yet.
func artifactOf(ref model.ObjectRef, obj map[string]any) *clusterChart {
	status, _ := obj["status"].(map[string]any)
	art, _ := status["artifact"].(map[string]any)
	rev, _ := art["revision"].(string)
	digest, _ := art["digest"].(string)
	if rev == "" && digest == "" {
		return nil
	}
	c := &clusterChart{source: ref, version: rev, digest: digest}
	if ref.Kind == "OCIRepository" {
		c.version, c.digest = "", rev
		if tag, d, ok := strings.Cut(rev, "@"); ok {
			c.version, c.digest = tag, d
		}
		if !strings.Contains(c.digest, ":") {
			c.version, c.digest = c.digest, ""
		}
	}
	return c
}

// note says when the cluster runs another chart than the one the base
// (or, without a base, the head) names: ", the base names" pins, the
// render's first chart being the HelmRelease's. Digests decide when both
// sides have one of the same kind, else versions; "" when they agree or either is unknown.
func (c *clusterChart) note(pins []model.ChartPin, names string) string {
	if c == nil || len(pins) == 0 {
		return ""
	}
	p := pins[0]
	// An OCIRepository's digest is the OCI manifest's, as a chart pulled
	// from a registry is pinned; a HelmChart's is its archive's, as one
	// from an HTTP repository is. Across kinds only versions compare.
	sameKind := (c.source.Kind == "OCIRepository") == strings.HasPrefix(p.From, "oci://")
	switch {
	case c.digest != "" && p.Digest != "" && sameKind:
		if c.digest == p.Digest {
			return ""
		}
	case c.version != "" && p.Version != "":
		if c.version == p.Version {
			return ""
		}
	default:
		return ""
	}
	runs := p.Name
	if c.version != "" {
		runs += " " + c.version
	}
	if c.digest != "" {
		runs += "@" + model.ShortDigest(c.digest)
	}
	return fmt.Sprintf("the cluster runs %s (%s's artifact), %s %s: what it names is not deployed yet, or the cluster has not reconciled it", runs, c.source, names, p)
}
