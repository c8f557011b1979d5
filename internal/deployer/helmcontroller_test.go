package deployer

import "testing"

// TestImageTag: a version is read from the tag alone.
func TestImageTag(t *testing.T) {
	for image, want := range map[string]string{
		"ghcr.io/fluxcd/helm-controller:v1.5.0":                 "v1.5.0",
		"registry:5000/fluxcd/helm-controller:v1.4.0@sha256:ab": "v1.4.0",
		"registry:5000/fluxcd/helm-controller":                  "",
		"ghcr.io/fluxcd/helm-controller@sha256:ab":              "",
	} {
		if got := imageTag(image); got != want {
			t.Errorf("%s: %q, want %q", image, got, want)
		}
	}
}
