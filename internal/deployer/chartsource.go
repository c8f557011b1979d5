package deployer

import (
	"context"
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
)

// fluxSourceAPI is the API version of the Flux source objects a
// HelmRelease's chart comes from.
const fluxSourceAPI = "source.toolkit.fluxcd.io/v1"

// ChartSourceOf is the Flux object in the cluster whose artifact is the
// chart a HelmRelease releases: its chartRef's OCIRepository or HelmChart,
// else the HelmChart helm-controller makes for spec.chart, named
// <namespace>-<name> of the HelmRelease in its source's namespace. ok is
// false for any other deployer or chart.
func ChartSourceOf(d *delivery.Deployer) (ref delivery.ObjectRef, ok bool) {
	if d == nil || d.Controller != delivery.ControllerFlux || len(d.Charts) == 0 || d.Charts[0].Source == nil {
		return ref, false
	}
	c := d.Charts[0]
	switch {
	case c.Kind == delivery.ChartInFluxSource:
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
		return delivery.ObjectRef{Kind: "HelmChart", Namespace: c.Source.Namespace, Name: ns + "-" + name}, true
	}
	return ref, false
}

// ReadChartArtifact reads the chart the Flux source object ref holds (its
// .status.artifact): what the cluster runs. Nil when the object cannot be
// read (forbidden, not found, no such kind) or has no artifact yet: that
// says nothing of the deploy, so it is no error.
func ReadChartArtifact(ctx context.Context, client *kube.Client, ref delivery.ObjectRef) *ChartArtifact {
	obj, found, err := client.Lookup(ctx, fluxSourceAPI, ref.Kind, ref.Namespace, ref.Name)
	if err != nil || !found {
		return nil
	}
	return artifactOf(ref, obj)
}

// ChartArtifact is the chart a Flux source object's artifact holds.
type ChartArtifact struct {
	Source  delivery.ObjectRef
	Version string
	Digest  string
}

// artifactOf reads a source object's .status.artifact: a HelmChart's
// revision is the chart's version and its digest the archive's; an
// OCIRepository's revision is "<tag>@<manifest digest>" (or the digest
// alone). Nil when it has none yet.
func artifactOf(ref delivery.ObjectRef, obj map[string]any) *ChartArtifact {
	status, _ := obj["status"].(map[string]any)
	art, _ := status["artifact"].(map[string]any)
	rev, _ := art["revision"].(string)
	digest, _ := art["digest"].(string)
	if rev == "" && digest == "" {
		return nil
	}
	c := &ChartArtifact{Source: ref, Version: rev, Digest: digest}
	if ref.Kind == "OCIRepository" {
		c.Version, c.Digest = "", rev
		if tag, d, ok := strings.Cut(rev, "@"); ok {
			c.Version, c.Digest = tag, d
		}
		if !strings.Contains(c.Digest, ":") {
			c.Version, c.Digest = c.Digest, ""
		}
	}
	return c
}

// Note says when the cluster runs another chart than the one the base
// (or, without a base, the head) names: ", the base names" pins, the
// render's first chart being the HelmRelease's. Digests decide when both
// sides have one of the same kind, else versions; "" when they agree or either is unknown.
func (c *ChartArtifact) Note(pins []delivery.ChartPin, names string) string {
	if c == nil || len(pins) == 0 {
		return ""
	}
	p := pins[0]
	// An OCIRepository's digest is the OCI manifest's, as a chart pulled
	// from a registry is pinned; a HelmChart's is its archive's, as one
	// from an HTTP repository is. Across kinds only versions compare.
	sameKind := (c.Source.Kind == "OCIRepository") == strings.HasPrefix(p.From, "oci://")
	switch {
	case c.Digest != "" && p.Digest != "" && sameKind:
		if c.Digest == p.Digest {
			return ""
		}
	case c.Version != "" && p.Version != "":
		if c.Version == p.Version {
			return ""
		}
	default:
		return ""
	}
	runs := p.Name
	if c.Version != "" {
		runs += " " + c.Version
	}
	if c.Digest != "" {
		runs += "@" + delivery.ShortDigest(c.Digest)
	}
	return fmt.Sprintf("the cluster runs %s (%s's artifact), %s %s: what it names is not deployed yet, or the cluster has not reconciled it", runs, c.Source, names, p)
}
