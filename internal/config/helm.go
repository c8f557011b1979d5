package config

import (
	"fmt"
	"strings"
)

// HelmTarget is a chart a pipeline releases with `helm upgrade --install
// RELEASE CHART -n NAMESPACE -f VALUES...`: the target renders it as that
// upgrade does (interfaces.md, "Helm").
type HelmTarget struct {
	// Chart is the chart's directory, relative to the repository's top.
	// A chart elsewhere (a repository or OCI URL) makes the target "not
	// checked": charts are never fetched.
	Chart string `json:"chart"`
	// Release is the release's name.
	Release string `json:"release"`
	// Namespace is the release's; "" is the kubeconfig context's, as for
	// helm.
	Namespace string `json:"namespace,omitempty"`
	// Values are values files, relative to the repository's top, layered
	// in order as `-f a -f b` layers them.
	Values []string `json:"values,omitempty"`
}

// DefaultHelmFieldManager is the manager a helm target applies with, Helm
// 4's (Helm 3 applies client-side, as helm too).
const DefaultHelmFieldManager = "helm"

func (h *HelmTarget) validate(target string) error {
	if h.Chart == "" {
		return fmt.Errorf("%s: helm.chart: give the chart's directory, relative to the repository's top", target)
	}
	if !IsRemoteChart(h.Chart) {
		if err := repositoryPath(h.Chart); err != nil {
			return fmt.Errorf("%s: helm.chart %q: %w", target, h.Chart, err)
		}
	}
	if h.Release == "" {
		return fmt.Errorf("%s: helm.release: give the release's name", target)
	}
	if len(h.Release) > 53 || !isDNSLabel(h.Release) {
		return fmt.Errorf("%s: helm.release %q: Helm needs a lowercase DNS label of at most 53 characters", target, h.Release)
	}
	if h.Namespace != "" && !isDNSLabel(h.Namespace) {
		return fmt.Errorf("%s: helm.namespace %q: not a namespace name", target, h.Namespace)
	}
	for i, v := range h.Values {
		if IsRemoteChart(v) {
			continue
		}
		if err := repositoryPath(v); err != nil {
			return fmt.Errorf("%s: helm.values[%d] %q: %w", target, i, v, err)
		}
	}
	return nil
}

// IsRemoteChart says whether a chart (or values file) reference names
// something to fetch: a URL (https://, oci://, ...).
func IsRemoteChart(ref string) bool {
	return strings.Contains(ref, "://")
}

func isDNSLabel(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
