package delivery

// AppliedRelease is what helm-controller applied of a Flux HelmRelease, as
// its status says after the deploy: the chart version and the digest of
// the values it released, which may differ from the branch's head (a range
// resolved to a version, a release that failed and kept the last one, a
// chart's source moved since). Package deployer reads it from the cluster;
// the snapshot records it in its index under these names.
type AppliedRelease struct {
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
