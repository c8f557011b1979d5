package deployer

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
)

// HelmReleaseOf is the Flux HelmRelease a target deploys through, whose
// status names the release helm-controller applied; ok is false for a
// target of anything else.
func HelmReleaseOf(d *delivery.Deployer) (namespace, name string, ok bool) {
	if d == nil || d.Controller != delivery.ControllerFlux {
		return "", "", false
	}
	if kind, _ := d.Object["kind"].(string); kind != "HelmRelease" {
		return "", "", false
	}
	meta, _ := d.Object["metadata"].(map[string]any)
	name, _ = meta["name"].(string)
	namespace, _ = meta["namespace"].(string)
	if namespace == "" {
		namespace = "flux-system" // as discovery places it
	}
	return namespace, name, true
}

// helmReleaseAPIs are the versions of helm-controller's API a release is
// read in, newest first: a cluster serves at least one of them.
var helmReleaseAPIs = []string{"helm.toolkit.fluxcd.io/v2", "helm.toolkit.fluxcd.io/v2beta2", "helm.toolkit.fluxcd.io/v2beta1"}

// ReadRelease reads what the HelmRelease namespace/name released, from
// its status (a GET, nothing written); nil when the cluster has no such
// HelmRelease, or one that has released nothing yet.
func ReadRelease(ctx context.Context, c *kube.Client, namespace, name string) (*delivery.AppliedRelease, error) {
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
func releaseOf(id string, obj map[string]any) *delivery.AppliedRelease {
	status, _ := obj["status"].(map[string]any)
	r := &delivery.AppliedRelease{HelmRelease: id}
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
