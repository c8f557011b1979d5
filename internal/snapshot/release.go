package snapshot

// Release is what helm-controller applied of a Flux HelmRelease, as
// package deployer reads it from its status after the deploy: its
// Release, whose fields these are, in the same order (the check converts
// one into the other), with their names in the index, where it is
// recorded beside the objects.
type Release struct {
	HelmRelease           string `json:"helmRelease"`
	ChartName             string `json:"chartName,omitempty"`
	ChartVersion          string `json:"chartVersion,omitempty"`
	AppVersion            string `json:"appVersion,omitempty"`
	ConfigDigest          string `json:"configDigest,omitempty"`
	Digest                string `json:"digest,omitempty"`
	OCIDigest             string `json:"ociDigest,omitempty"`
	Status                string `json:"status,omitempty"`
	Version               int64  `json:"version,omitempty"`
	LastAttemptedRevision string `json:"lastAttemptedRevision,omitempty"`
}
