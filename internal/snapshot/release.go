package snapshot

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/kube"
)

// Release is what helm-controller applied of a Flux HelmRelease, as its
// status says after the deploy: the chart version and the digest of the
// values it released, which may differ from the branch's head (a range
// resolved to a version, a release that failed and kept the last one, a
// chart's source moved since). Recorded in the index beside the objects.
type Release struct {
	// HelmRelease is `<namespace>/<name>` of the object read.
	HelmRelease string `json:"helmRelease"`
	// ChartName, ChartVersion and AppVersion are of the release
	// helm-controller made last (status.history[0] in the v2 API; v2beta1
	// names the version alone, in status.lastAppliedRevision).
	ChartName    string `json:"chartName,omitempty"`
	ChartVersion string `json:"chartVersion,omitempty"`
	AppVersion   string `json:"appVersion,omitempty"`
	// ConfigDigest is the digest of the values it released with; Digest
	// the release's; OCIDigest the chart artifact's when it came from a
	// registry.
	ConfigDigest string `json:"configDigest,omitempty"`
	Digest       string `json:"digest,omitempty"`
	OCIDigest    string `json:"ociDigest,omitempty"`
	// Status is the Helm release's status ("deployed", "failed", ...) and
	// Version its number in Helm's storage.
	Status  string `json:"status,omitempty"`
	Version int64  `json:"version,omitempty"`
	// LastAttemptedRevision is the chart version it tried last, which is
	// not the applied one when that attempt failed.
	LastAttemptedRevision string `json:"lastAttemptedRevision,omitempty"`
}

// helmReleaseAPIs are the versions of helm-controller's API a release is
// read in, newest first: a cluster serves at least one of them.
var helmReleaseAPIs = []string{"helm.toolkit.fluxcd.io/v2", "helm.toolkit.fluxcd.io/v2beta2", "helm.toolkit.fluxcd.io/v2beta1"}

// ReadRelease reads what the HelmRelease namespace/name released, from
// its status (a GET, nothing written); nil when the cluster has no such
// HelmRelease, or one that has released nothing yet.
func ReadRelease(ctx context.Context, c *kube.Client, namespace, name string) (*Release, error) {
	for _, api := range helmReleaseAPIs {
		obj, found, err := c.Lookup(ctx, api, "HelmRelease", namespace, name)
		if err != nil {
			return nil, fmt.Errorf("HelmRelease %s/%s: reading its status: %w", namespace, name, err)
		}
		if found {
			return releaseOf(namespace+"/"+name, obj), nil
		}
	}
	return nil, nil
}

// releaseOf reads a HelmRelease's status, nil when it names no release.
func releaseOf(id string, obj map[string]any) *Release {
	status, _ := obj["status"].(map[string]any)
	r := &Release{HelmRelease: id}
	r.LastAttemptedRevision, _ = status["lastAttemptedRevision"].(string)
	if history, _ := status["history"].([]any); len(history) > 0 {
		// helm-controller keeps the newest first.
		last, _ := history[0].(map[string]any)
		str := func(k string) string { s, _ := last[k].(string); return s }
		r.ChartName, r.ChartVersion, r.AppVersion = str("chartName"), str("chartVersion"), str("appVersion")
		r.ConfigDigest, r.Digest, r.OCIDigest, r.Status = str("configDigest"), str("digest"), str("ociDigest"), str("status")
		switch v := last["version"].(type) {
		case int64:
			r.Version = v
		case float64:
			r.Version = int64(v)
		}
	} else {
		r.ChartVersion, _ = status["lastAppliedRevision"].(string)
	}
	if r.ChartVersion == "" && r.Digest == "" {
		return nil
	}
	return r
}
